"""What a Dalmuti table shows, worked out by the rules: the cards and their copies, the merchants
who may swap, the revolutions a hand may see.

Pure functions of plain values (the pages word them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import JESTER, RANKS, deck
from .options import house_rules
from .ranks import REVOLUTION_KINDS, greater_revolution_by, roles_of
from .shapes import Card


def card_copies(rules: Mapping[str, Any]) -> list[tuple[Card, int, bool]]:
    """Return each card, best first and the jester last, with its copies in a full deck and
    whether the house rules take it out of this table's deck (``removed_ranks``)."""
    full = deck()
    removed: set[Card] = set(house_rules(rules).removed_ranks)
    cards: tuple[Card, ...] = (*RANKS, JESTER)
    return [(card, full[card], card in removed) for card in cards]


def merchants_trading(ranks: Sequence[str], rules: Mapping[str, Any]) -> list[str]:
    """Return the merchants who may swap a card blind this hand, in rank order.

    None unless the ``merchant_trade`` house rule is on and two merchants or more sit at the table.
    """
    roles = roles_of(ranks)
    merchants = [name for name in ranks if roles[name] == "merchant"]
    return merchants if house_rules(rules).merchant_trade and len(merchants) >= 2 else []


def revolution_choices(ranks: Sequence[str], rules: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the revolutions a hand may see: plain, and greater when someone may declare one."""
    return REVOLUTION_KINDS if greater_revolution_by(ranks, rules) else REVOLUTION_KINDS[:1]
