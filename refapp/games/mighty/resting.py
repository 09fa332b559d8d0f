"""Resting in turn: at six seats under ``dealer_sits_out`` the dealer rests; at seven under
``ruling_side_sits_out`` the previous hand's boss and friend rest (docs/rules/mighty.md, "Four,
six and seven players"). The input's ``sits_out`` names them where the state cannot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import MalformedInput, RuleViolation, quote
from ..game import Table
from .deal import Deal


def expected_sitters(deal: Deal, state: Mapping[str, Any], dealer: str | None) -> list[str]:
    """Return who must rest this hand as the state and the dealer tell it ([] when unknown)."""
    if deal.sitters == 1:
        known = dealer or state.get("next_dealer")
        return [known] if known else []
    return list(state.get("sits_out") or []) if deal.sitters == 2 else []


def read_sitters(
    table: Table,
    deal: Deal,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    dealer: str | None,
    partial: bool,
) -> list[str]:
    """Return who rests this hand, in the order of play; raise ``wrong_sitter`` or
    ``missing_field`` when the entry disagrees with the rule or the hand cannot tell."""
    given = raw.get("sits_out")
    expected = expected_sitters(deal, state, dealer)
    if deal.sitters == 0:
        if given is not None:
            raise RuleViolation(
                "wrong_sitter",
                "Nobody rests at this table: all {count} play every hand, so there is no "
                "sits_out ({value}).",
                "sits_out",
                count=deal.seats if deal.kills == 0 else deal.seats - deal.kills,
                value=quote(given),
            )
        return []
    if given is None:
        if expected or partial:
            return expected
        raise MalformedInput(
            "missing_field",
            _MISSING[deal.sitters],
            "sits_out",
        )
    named = _named(table, deal, given)
    if expected and set(named) != set(expected):
        raise RuleViolation(
            "wrong_sitter",
            _WRONG[deal.sitters],
            "sits_out",
            expected=" & ".join(_in_order(table, expected)),
            value=quote(given),
        )
    return _in_order(table, named)


#: the refusal when a hand cannot tell who rests, by how many rest
_MISSING = {
    1: "Who rests this hand? The dealer rests: name the dealer (or sits_out).",
    2: "Who rests this hand? Name the two players who rest (sits_out): the previous hand "
    "had no friend, or this is the first hand.",
}
#: the refusal when the named sitters are not the ones the rule names, by how many rest
_WRONG = {
    1: "The dealer rests this hand, so {expected} rests, not {value}.",
    2: "The previous hand's boss and friend rest this hand, so {expected} rest, not {value}.",
}


def _named(table: Table, deal: Deal, given: Any) -> list[str]:
    """Return the sitters as entered: a name at six seats, two different names at seven."""
    items = given if isinstance(given, list) else [given]
    if len(items) != deal.sitters or (deal.sitters == 2 and not isinstance(given, list)):
        raise RuleViolation(
            "wrong_sitter",
            "One player rests each hand at this table, not {value}."
            if deal.sitters == 1
            else "Two players rest each hand at this table: sits_out is a list of two names, "
            "not {value}.",
            "sits_out",
            value=quote(given),
        )
    paths = [f"sits_out.{index}" for index in range(1, len(items) + 1)]
    if not isinstance(given, list):
        paths = ["sits_out"]
    names = [table.player(item, path) for item, path in zip(items, paths, strict=True)]
    if len(set(names)) != len(names):
        raise RuleViolation(
            "wrong_sitter",
            "Two different players rest each hand, not {value}.",
            "sits_out",
            value=quote(given),
        )
    return names


def _in_order(table: Table, names: Sequence[str]) -> list[str]:
    """Return names in the order of play."""
    return sorted(names, key=table.seat)


def sitters_after(
    deal: Deal, outcome: str, resting: Sequence[str], dealer: str | None, ruling: Sequence[str]
) -> list[str] | str | None:
    """Return the state's ``sits_out`` after a round: the next hand's sitters, when known.

    Six seats: the next dealer. Seven: after a misdeal or an all-pass the same sitters, after a
    played hand its boss and friend (``ruling``; none known without a friend).
    """
    if deal.sitters == 1:
        return dealer
    if deal.sitters != 2:
        return None
    if outcome in ("misdeal", "all_pass"):
        return list(resting) or None
    return list(ruling) if len(ruling) == 2 else None
