"""Who deals (spec section 7): the dealer a hand must have, by how the previous round ended.

The first hand's dealer is free; after a hand the friend deals (the boss when there was none),
after a misdeal its declarer, and after everyone passed the same dealer again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import N_, RuleViolation, quote
from ..game import Table

#: why a hand's dealer deals it, by how the previous round ended
DEALER_REASONS = {
    "misdeal": N_("the player who declared the misdeal deals"),
    "all_pass": N_("everyone passed, so the same dealer deals again"),
    "hand": N_("the previous hand's friend, or its boss, deals"),
}


def check_dealer(table: Table, state: Mapping[str, Any], raw: Mapping[str, Any]) -> str | None:
    """Return the dealer if given, checked against the previous hand (the first is free)."""
    if raw.get("dealer") is None:
        return None
    dealer = table.player(raw["dealer"], "dealer")
    expected = state.get("next_dealer")
    if expected is not None and dealer != expected:
        raise RuleViolation(
            "wrong_dealer",
            "{expected} deals this hand ({why_t}), not {value}.",
            "dealer",
            expected=expected,
            why_t=DEALER_REASONS.get(state.get("last_outcome"), DEALER_REASONS["hand"]),
            value=quote(dealer),
        )
    return dealer


def dealer_after_hand(boss: str, friend: str | None) -> str:
    """Return who deals after a played hand: its real friend, or the boss when there was none."""
    return friend or boss


def dealer_after_all_pass(
    dealer: str | None, state: Mapping[str, Any], starter: str | None
) -> str | None:
    """Return who deals again after everyone passed: the same dealer, if anyone knows who."""
    dealer = dealer or state.get("next_dealer")
    return starter if dealer is None else dealer
