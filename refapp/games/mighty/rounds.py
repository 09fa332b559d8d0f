"""A round's form: a played hand, a misdeal or an auction everyone passed, never two at once;
the result of a round nobody scores in, and the state after a round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import MalformedInput, RuleViolation, quote
from ..game import Account, Table
from .auction import Auction, next_floor, unfinished_auction
from .shapes import MightyResult

#: the parts of a played hand (a misdeal or an all-pass round carries none of them)
HAND_PARTS = (
    "contract",
    "kill",
    "friend",
    "opposition_points",
    "mighty_holder",
    "joker_holder",
    "tricks",
)


def check_alone(raw: Mapping[str, Any], form: str | None, others: Sequence[str]) -> None:
    """Refuse a round that mixes a misdeal or an all-pass with the parts of another form.

    form is the input key the round carries (``misdeal``, ``all_pass``), or None for a
    bidding log in which everyone passed.
    """
    if "kill" in others and raw.get("kill") is not None:  # only a played hand names a kill
        raise RuleViolation(
            "invalid_kill",
            "A round with {form} cannot also carry {key}: a round is a played hand, a "
            "misdeal or an auction everyone passed.",
            "kill",
            form=form or "bidding",
            key="kill",
        )
    for key in others:
        if raw.get(key) is None or (key == "all_pass" and raw[key] is False):
            continue
        if form is None:
            raise MalformedInput(
                "invalid_value",
                "A round with everyone passing cannot also carry {key}: a round is a played "
                "hand, a misdeal or an auction everyone passed.",
                key,
                key=key,
            )
        raise MalformedInput(
            "invalid_value",
            "A round with {form} cannot also carry {key}: a round is a played hand, a "
            "misdeal or an auction everyone passed.",
            key,
            form=form,
            key=key,
        )


def all_pass_flag(raw: Mapping[str, Any]) -> bool:
    """Return the round's ``all_pass`` flag (absent is false), refusing a value not a boolean."""
    flag = raw.get("all_pass")
    if flag is None or isinstance(flag, bool):
        return bool(flag)
    raise MalformedInput(
        "invalid_value",
        "{where} must be true or false, not {value}.",
        "all_pass",
        where="all_pass",
        value=quote(flag),
    )


def check_everyone_passed(raw: Mapping[str, Any], auction: Auction | None, all_pass: bool) -> None:
    """Refuse an all-pass round whose log is unfinished or won, or that carries a hand's parts."""
    if auction is not None and not auction.finished:
        raise unfinished_auction(auction)
    if auction is not None and auction.highest is not None:
        raise MalformedInput(
            "invalid_value",
            "The hand is entered as one everyone passed, but {player} won the auction with "
            "{count} {trump_t}.",
            "all_pass",
            player=auction.leader,
            **auction.highest.words(),
        )
    if all_pass:
        check_alone(raw, "all_pass", HAND_PARTS)
    elif raw.get("contract") is not None:
        raise RuleViolation(
            "boss_not_auction_winner",
            "Everyone passed in the bidding log, so nobody won the auction and there is no "
            "contract.",
            "contract.boss",
        )
    else:
        check_alone(raw, None, HAND_PARTS)


def next_state(
    table: Table,
    state: Mapping[str, Any],
    outcome: str,
    dealer: str | None,
    reopen: bool = False,
) -> dict[str, Any]:
    """Return the state after a round: who deals next and the next auction's minimum."""
    return {
        **state,
        "next_dealer": dealer,
        "min_bid": next_floor(table.rules, reopen),
        "kitty_open": reopen,
        "rounds": state.get("rounds", 0) + 1,
        "last_outcome": outcome,
    }


def zero_result(table: Table, outcome: str, account: Account) -> MightyResult:
    """Return the result of a round nobody scores in (a misdeal or an all-pass)."""
    return {
        "deltas": dict.fromkeys(table.players, 0),
        **account.result(),
        "outcome": outcome,
        "ruling_points": None,
        "back_run": False,
        "base": 0,
        "multipliers": [],
        "m": 0,
    }
