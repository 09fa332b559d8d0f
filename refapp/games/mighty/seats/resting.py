"""Resting in turn: at six seats under ``dealer_sits_out`` the dealer rests; at seven under
``ruling_side_sits_out`` the previous hand's boss and friend rest. The input's ``sits_out``
names them where the state cannot (the heading "Four, six and seven seats" of
the Mighty rules in docs/rules)."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import MalformedInput, RuleViolation, quote
from ..house_rules.rules import MightyTable
from ..shapes import MightyState
from .deal import TableDeal


def expected_sitters(deal: TableDeal, state: MightyState, dealer: str | None) -> list[str]:
    """Return who must rest this hand as the state and the dealer tell it ([] when unknown)."""
    if deal.sitters == 1:
        known = dealer or state.get("next_dealer")
        return [known] if known else []
    return list(state.get("sits_out") or []) if deal.names_sitters else []


def read_sitters(
    table: MightyTable,
    deal: TableDeal,
    state: MightyState,
    given: object,
    dealer: str | None,
    partial: bool,
) -> list[str]:
    """Return who rests this hand, in the order of play; raise ``wrong_sitter`` or
    ``missing_field`` when the entry disagrees with the rule or the hand cannot tell."""
    expected = expected_sitters(deal, state, dealer)
    if deal.sitters == 0:
        if given is not None:
            raise _nobody_rests(deal, given)
        return []
    if given is None:
        if expected or partial:
            return expected
        raise _missing(deal)
    named = _named(table, deal, given)
    if expected and set(named) != set(expected):
        # both sides are lists the message lists as the reader's language does ("Ann and Bob")
        raise _wrong(deal, _in_order(table, expected), _in_order(table, named))
    return _in_order(table, named)


def _nobody_rests(deal: TableDeal, given: object) -> RuleViolation:
    """Return the refusal of a sitter named at a table where every seat takes part."""
    if deal.kills == 0:
        return RuleViolation(
            "wrong_sitter",
            "Nobody rests at this table: all {count} players play every hand, so nobody can "
            "rest this hand ({value}).",
            "sits_out",
            count=deal.seats,
            value=quote(given),
        )
    if deal.kills == 1:
        return RuleViolation(
            "wrong_sitter",
            "Nobody rests at this table: all {count} players bid, and the boss kills one of "
            "them, so nobody can rest this hand ({value}).",
            "sits_out",
            count=deal.seats,
            value=quote(given),
        )
    return RuleViolation(
        "wrong_sitter",
        "Nobody rests at this table: all {count} players bid, and the boss kills {kills} of "
        "them, so nobody can rest this hand ({value}).",
        "sits_out",
        count=deal.seats,
        kills=deal.kills,
        value=quote(given),
    )


def _missing(deal: TableDeal) -> MalformedInput:
    """Return the refusal of a hand that cannot tell who rests."""
    if deal.sitters == 1:
        return MalformedInput(
            "missing_field",
            "Who rests this hand? The dealer rests: name the dealer.",
            "sits_out",
        )
    return MalformedInput(
        "missing_field",
        "Who rests this hand? Name the two players who rest: the previous hand had no friend, "
        "or this is the first hand.",
        "sits_out",
    )


def _wrong(deal: TableDeal, expected: list[str], value: list[str]) -> RuleViolation:
    """Return the refusal of sitters other than the ones the rule names (one at six seats, two
    at seven: each sentence's verb agrees with its count)."""
    if deal.sitters == 1:
        return RuleViolation(
            "wrong_sitter",
            "The dealer rests this hand, so {expected} rests, not {value}.",
            "sits_out",
            expected=expected[0],
            value=value[0],
        )
    return RuleViolation(
        "wrong_sitter",
        "The previous hand's boss and friend rest this hand, so {expected} both rest, not {value}.",
        "sits_out",
        expected=expected,
        value=value,
    )


def _named(table: MightyTable, deal: TableDeal, given: object) -> list[str]:
    """Return the sitters as entered: a name at six seats, two different names at seven."""
    items = given if isinstance(given, list) else [given]
    if deal.sitters == 1 and isinstance(given, list):
        raise RuleViolation(
            "wrong_sitter",
            "One player rests each hand at this table, not {value}.",
            "sits_out",
            value=quote(given),
        )
    if len(items) != deal.sitters:
        raise RuleViolation(
            "wrong_sitter",
            "Two players rest each hand at this table: name two players, not {value}.",
            "sits_out",
            value=quote(given),
        )
    names = [table.player(item, "sits_out") for item in items]
    if len(set(names)) != len(names):
        raise RuleViolation(
            "wrong_sitter",
            "Two different players rest each hand, not {value}.",
            "sits_out",
            value=quote(given),
        )
    return names


def _in_order(table: MightyTable, names: Sequence[str]) -> list[str]:
    """Return names in the order of play."""
    return sorted(names, key=table.seat)


def sitters_after(
    deal: TableDeal, outcome: str, resting: Sequence[str], dealer: str | None, ruling: Sequence[str]
) -> list[str] | str | None:
    """Return the state's ``sits_out`` after a round: the next hand's sitters, when known.

    Six seats: the next dealer. Seven: after a misdeal or an all-pass the same sitters, after a
    played hand its boss and friend (``ruling``; none known without a friend).
    """
    if deal.sitters == 1:
        return dealer
    if not deal.names_sitters:
        return None
    if outcome in ("misdeal", "all_pass"):
        return list(resting) or None
    return list(ruling) if len(ruling) == 2 else None
