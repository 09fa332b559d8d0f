"""Who deals: the dealer a hand must have, by how the previous round ended.

The first hand's dealer is free. After a played hand the house rule ``next_dealer`` names the
dealer: the friend (the boss when there was none), the next player after the hand's dealer in
the order of play, or the boss after a win or critic and the friend after a loss. After a misdeal
its declarer deals, and after everyone passed the same dealer deals again. When the rotation
needs a dealer the previous hand did not give (``clockwise`` after a hand whose dealer nobody
knows), the next dealer is free too: the state's ``next_dealer`` is then None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from ...errors import N_, RuleViolation, quote
from ..bidding.friend import friend_player
from ..shapes import MightyInput, MightyState

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules, MightyTable

#: the outcomes after which ``boss_if_won_else_friend`` gives the deal to the boss
BOSS_DEALS_AFTER = ("ruling_win", "critic")

#: why a hand's dealer deals it after a misdeal or an all-pass
DEALER_REASONS = {
    "misdeal": N_("the player who declared the misdeal deals"),
    "all_pass": N_("everyone passed, so the same dealer deals again"),
}


class RotationWords(NamedTuple):
    """A ``next_dealer`` rotation in words, each marked N_: the option's choice, and the reason
    a refusal, an explanation and "How we score" give."""

    label: str
    why: str


#: each ``next_dealer`` rotation in words, in the option's order (the one table of them)
ROTATION_WORDS = {
    "previous_friend": RotationWords(
        N_("Last hand's friend (or boss)"),
        N_("the previous hand's friend, or its boss, deals"),
    ),
    "clockwise": RotationWords(
        N_("The player after the dealer"),
        N_("the deal passes to the next player after the previous dealer"),
    ),
    "boss_if_won_else_friend": RotationWords(
        N_("Boss if won, friend if lost"),
        N_("the previous hand's boss deals after a win or an exact bid, its friend after a loss"),
    ),
    "previous_boss": RotationWords(
        N_("The previous hand's boss"),
        N_("the previous hand's boss deals"),
    ),
}
#: the ``next_dealer`` house rule's choices, the default first
ROTATIONS = tuple(ROTATION_WORDS)


class DealerReason(NamedTuple):
    """Why a hand's dealer deals it: the rule that names them, who, and why (words marked N_)."""

    #: ``first_hand`` or ``free`` (anyone may deal: dealer None), ``misdeal``, ``all_pass`` or,
    #: after a played hand, the ``next_dealer`` rotation that named the dealer
    rule: str
    dealer: str | None
    why: str


#: why anyone may deal: the first hand, or a previous round that named no dealer
FREE_REASONS = {
    "first_hand": N_("the first hand's dealer is free"),
    "free": N_("the previous hand named no dealer, so the dealer is free"),
}
#: every rule a ``DealerReason`` may name, in the order the page words them
REASON_RULES = (*FREE_REASONS, "misdeal", "all_pass", *ROTATIONS)


def reason_for(rules: MightyRules, state: MightyState) -> DealerReason:
    """Return why the next hand's dealer deals it, from the state the previous round left."""
    dealer = state.get("next_dealer")
    last = state.get("last_outcome")
    if dealer is None:
        rule = "first_hand" if last is None else "free"
        return DealerReason(rule, None, FREE_REASONS[rule])
    if last in ("misdeal", "all_pass"):
        return DealerReason(last, dealer, DEALER_REASONS[last])
    rotation = rules.next_dealer
    rotation = rotation if rotation in ROTATIONS else ROTATIONS[0]
    return DealerReason(rotation, dealer, ROTATION_WORDS[rotation].why)


def check_dealer(table: MightyTable, state: MightyState, given: object) -> str | None:
    """Return the dealer if given, checked against the previous round (``wrong_dealer``).

    The first hand's dealer is free, and so is any hand whose state names no next dealer.
    """
    if given is None:
        return None
    dealer = table.player(given, "dealer")
    expected = state.get("next_dealer")
    if expected is not None and dealer != expected:
        raise RuleViolation(
            "wrong_dealer",
            "{expected} deals this hand ({why_t}), not {value}.",
            "dealer",
            expected=expected,
            why_t=reason_for(table.rules, state).why,
            value=quote(dealer),
        )
    return dealer


def next_dealer(
    rules: MightyRules,
    players: tuple[str, ...],
    *,
    dealer: str | None,
    boss: str,
    friend: str | None,
    result: Mapping[str, object],
) -> str | None:
    """Return who deals after a played hand under the ``next_dealer`` house rule.

    dealer is the hand's dealer (None when nobody knows it), friend the real friend (None for a
    declared none or a self friend) and result the hand's scored result, whose ``outcome``
    (``ruling_win``, ``critic`` or ``opposition_win``) only the rotation it decides reads (a
    stored result played again is then not decoded). None means the next dealer is free
    (clockwise from an unknown dealer).
    """
    rotation = rules.next_dealer
    if rotation == "clockwise":
        if dealer is None:
            return None
        return players[(players.index(dealer) + 1) % len(players)]
    if rotation == "previous_boss" or (
        rotation == "boss_if_won_else_friend" and result["outcome"] in BOSS_DEALS_AFTER
    ):
        return boss
    return friend or boss


def dealer_after_hand(
    table: MightyTable,
    state: MightyState,
    entered: MightyInput,
    result: Mapping[str, object],
) -> str | None:
    """Return who deals after a checked, scored hand (the one call the Game class makes).

    The hand's dealer is the one entered, else the one the state named (a dealer left out is
    still the one the rotation required); the friend is the real one (the tricks may have shown
    it).
    """
    boss = entered["contract"]["boss"]
    return next_dealer(
        table.rules,
        table.players,
        dealer=entered.get("dealer") or state.get("next_dealer"),
        boss=boss,
        friend=friend_player(entered["friend"], boss),
        result=result,
    )


def dealer_after_all_pass(
    dealer: str | None, state: MightyState, starter: str | None
) -> str | None:
    """Return who deals again after everyone passed: the same dealer, if anyone knows who."""
    dealer = dealer or state.get("next_dealer")
    return starter if dealer is None else dealer
