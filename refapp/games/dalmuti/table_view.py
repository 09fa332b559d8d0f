"""What a Dalmuti table shows, worked out by the rules: what comes next (the hand's number, who
deals and who leads), the cards and their copies, the merchants who may swap, the revolutions a
hand may see.

Pure functions of plain values (the pages word them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..game import Table
from .cards import JESTER, RANKS, deck, deck_size
from .ranks import hand_sizes, hands_played_in, ranks_in, role_name, roles_of
from .revolution import REVOLUTION_KINDS, greater_revolution_by
from .rules import house_rules
from .scoring import hands_count
from .shapes import Card, DalmutiState
from .tax import public_exchanges, tax_due, tribute_due


class NextHand(NamedTuple):
    """What comes next at a Dalmuti table: the hand's number and count, who deals, who leads."""

    number: int
    hands_played: int
    total: int | None  # hands_to_play; None when the table decides when to stop
    left: int | None
    dealer: str  # the lowest rank deals
    leader: str  # the Greater Dalmuti is dealt the first card and leads the first trick


def next_hand(table: Table, state: Mapping[str, object]) -> NextHand:
    """Return what comes next after ``state`` (a game state, or the public state shown from it)."""
    ranks = ranks_in(table, state)
    hands_played = hands_played_in(state)
    counts = hands_count(table.rules, hands_played)
    return NextHand(
        hands_played + 1,
        hands_played,
        counts["hands_total"],
        counts["hands_left"],
        ranks[-1],
        ranks[0],
    )


def card_copies(rules: Mapping[str, object]) -> list[tuple[Card, int, bool]]:
    """Return each card, best first and the jester last, with its copies in a full deck and
    whether the house rules take it out of this table's deck (``removed_ranks``)."""
    full = deck()
    removed: set[Card] = set(house_rules(rules).removed_ranks)
    cards: tuple[Card, ...] = (*RANKS, JESTER)
    return [(card, full[card], card in removed) for card in cards]


def merchants_trading(ranks: Sequence[str], rules: Mapping[str, object]) -> list[str]:
    """Return the merchants who may swap a card blind this hand, in rank order.

    None unless the ``merchant_trade`` house rule is on and two merchants or more sit at the table.
    """
    roles = roles_of(ranks)
    merchants = [name for name in ranks if roles[name] == "merchant"]
    return merchants if house_rules(rules).merchant_trade and len(merchants) >= 2 else []


def revolution_choices(ranks: Sequence[str], rules: Mapping[str, object]) -> tuple[str, ...]:
    """Return the revolutions a hand may see: plain, and greater when someone may declare one."""
    return REVOLUTION_KINDS if greater_revolution_by(ranks, rules) else REVOLUTION_KINDS[:1]


def public_view(table: Table, state: DalmutiState) -> dict[str, object]:
    """Return what the table needs before the next hand: ranks, dealer, hand sizes, the tax."""
    rules = house_rules(table.rules)
    ranks = ranks_in(table, state)
    coming = next_hand(table, state)
    hands_played = coming.hands_played
    roles = roles_of(ranks)
    return {
        "ranks": ranks,
        "roles": roles,
        "role_titles": {name: role_name(role) for name, role in roles.items()},
        "dealer": coming.dealer,
        "leader": coming.leader,
        "deck_size": deck_size(rules),
        "removed_ranks": list(rules.removed_ranks),
        "hand_sizes": hand_sizes(ranks, rules),
        "tax_due": tax_due(rules, hands_played),
        "tribute_due": public_exchanges(tribute_due(ranks, rules, hands_played)),
        "greater_revolution_by": greater_revolution_by(ranks, rules),
        "hands_played": hands_played,
        "hands_total": coming.total,
        "hands_left": coming.left,
    }
