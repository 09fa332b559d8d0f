"""What a Mighty table shows, worked out by the rules: what comes next (who deals, and why; the
auction's floor), the suits' symbols, the auction's counts, the bids the pad offers, what the
misdeal grid adds up, and whether a hand is zero-sum.

Pure functions of plain values (the pages word them); the phases' modules stay the referee.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from .bidding.auction import MAX_BID, Auction, Bid, auction_floor, beats
from .bidding.misdeal import misdeal_most, misdeal_value
from .cards import DECK, JOKER, SUIT_SYMBOLS, TRUMPS
from .seats.deal import PLAIN_SEATS, deal_for, out_of_deck
from .seats.dealer import DealerReason, reason_for
from .shapes import MightyState

if TYPE_CHECKING:
    from .house_rules.rules import MightyRules


class NextHand(NamedTuple):
    """What comes next at a Mighty table: who deals and why, the auction's floor, the kitty."""

    dealer: DealerReason
    floor: int
    kitty_open: bool


def next_hand(rules: MightyRules, state: MightyState) -> NextHand:
    """Return what comes next after ``state`` (a game state, or the public state shown from it)."""
    return NextHand(
        reason_for(rules, state),
        auction_floor(rules, state),
        bool(state.get("kitty_open", False)),
    )


def seat_state(
    rules: MightyRules, seats: int, state: MightyState, dealer: str | None
) -> dict[str, object]:
    """Return what the API's state adds about the deal: the sizes, kills, who rests next."""
    deal = deal_for(rules, seats)
    sitters = state.get("sits_out") if deal.names_sitters else (dealer if deal.sitters else None)
    return {
        "seats": seats,
        "kills": deal.kills,
        "sitters": deal.sitters,
        "sits_out": sitters,
        "sits_out_free": bool(deal.sitters) and not sitters,
        "hand_size": deal.hand_size,
        "kitty_size": deal.kitty_size,
        "deck_size": deal.deck_size,
        "active_count": deal.active_count,
        "friend_forbidden": forbidden_cards(rules),
        "out_of_deck": sorted(out_of_deck(rules, seats), key=DECK.index),
    }


def forbidden_cards(rules: MightyRules) -> list[str]:
    """Return the friend cards the boss may not call, by ``friend_forbidden`` (the mighty as
    spades-or-not: both cards that can be it)."""
    cards = []
    if "mighty" in rules.friend_forbidden:
        cards += ["SA", rules.alt_mighty]
    if "joker" in rules.friend_forbidden:
        cards.append(JOKER)
    return cards


def trump_symbol(trump: str) -> str:
    """Return a trump as the table writes it: "♥" for hearts, "NT" for no-trump."""
    return SUIT_SYMBOLS.get(trump, trump)


def bid_counts(rules: MightyRules) -> list[int]:
    """Return every count a bid or a contract may name at this table, lowest first."""
    return list(range(auction_floor(rules), MAX_BID + 1))


def bid_rows(auction: Auction, rules: MightyRules) -> list[tuple[int, tuple[str, ...]]]:
    """Return the bids the next bidder may make, as (count, trumps allowed at it) from the lowest
    count up to 20: the auction pad's grid, one tap per bid (none once the auction is over)."""
    if auction.finished or auction.lowest_next is None:
        return []
    rows = []
    for count in range(auction.lowest_next[0], MAX_BID + 1):
        high = auction.highest
        trumps = tuple(t for t in TRUMPS if high is None or beats(Bid(count, t), high, rules))
        rows.append((count, trumps))
    return rows


def misdeal_counts(rules: MightyRules, seats: int = PLAIN_SEATS) -> dict[str, object]:
    """Return what the misdeal card grid adds up: each card's value under the ``misdeal`` house
    rule, the most a hand may be worth to be thrown in (None when misdeals are off) and the
    hand's size as dealt at this many seats (8 or 7 under a kill)."""
    values = {card: misdeal_value([card], rules.misdeal) for card in DECK}
    size = deal_for(rules, seats).hand_size
    return {"card_values": values, "most": misdeal_most(rules), "size": size}


def misdeals_played(rules: MightyRules) -> bool:
    """Return True unless the ``misdeal`` house rule is off."""
    misdeal: str = rules.misdeal
    return misdeal != "off"


def is_zero_sum(deltas: Mapping[str, int]) -> bool:
    """Return True when a hand's deltas cancel out (the seed's back-run penalty does not)."""
    return sum(deltas.values()) == 0
