"""How a hand is dealt at four to seven seats: hand and kitty sizes, the deck, kills and rests.

Every hand has 10 tricks among four active players (four seats) or five (five to seven seats).
Six and seven seats either kill (6마, 7마: smaller hands, a larger kitty, the boss names cards
whose holders are out) or rest players in turn. The project's account of it is the
heading "Four, six and seven seats" of the Mighty rules in docs/rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ...errors import RuleViolation
from ..cards import DECK, HAND_SIZE, Face

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

#: the plain game's table: five seats, five in every hand (the other sizes are told from it)
PLAIN_SEATS = 5
#: the table that plays a smaller deck (4마): four seats, all four in every hand
SMALL_DECK_SEATS = 4
#: the seat counts Mighty is played at (five is the plain game)
SEAT_COUNTS = (SMALL_DECK_SEATS, PLAIN_SEATS, 6, 7)
#: the option that says how a table of six or seven plays, by seat count
SEAT_RULES = {6: "six_player_rule", 7: "seven_player_rule"}
#: the ranks a table of four plays without (its 3s but the joker-call cards go too)
FOUR_SEAT_OUT = ("2", "4")
#: the hand as dealt under a kill, by seat count; the kitty is the rest of the 53 cards
#: (6 x 8 + 5, 7 x 7 + 4), and the kill's sharing brings every hand back to HAND_SIZE
KILL_HANDS = {6: 8, 7: 7}
#: the kitty when every hand is HAND_SIZE cards: 5 x 10 + 3 are the 53 cards, 4 x 10 + 3 the 43
KITTY_SIZE = 3


class TableDeal(NamedTuple):
    """A hand as dealt at a table: who is out of it and how many cards go where."""

    seats: int
    kills: int  # cards the boss names after the auction (each holder is out of the hand)
    sitters: int  # players who rest this hand (neither bid nor play)
    hand_size: int  # each hand as dealt, before a kill shares the killed hands out
    kitty_size: int
    deck_size: int

    @property
    def active_count(self) -> int:
        """Return how many players play the hand's tricks: four or five."""
        return self.seats - self.kills - self.sitters

    @property
    def names_sitters(self) -> bool:
        """Return True when more than one rests, so the hand names them (seven seats: the last
        hand's boss and friend); the one who rests at six is the dealer."""
        return self.sitters > 1

    @property
    def share(self) -> int:
        """Return the cards each player but the boss takes up when a kill shares the killed
        hands and the kitty out (0 without a kill): back to a hand of HAND_SIZE."""
        return HAND_SIZE - self.hand_size

    @property
    def boss_share(self) -> int:
        """Return the cards the boss takes up after the deal (the kill's share, or the kitty):
        HAND_SIZE and a kitty's worth to bury."""
        return HAND_SIZE + KITTY_SIZE - self.hand_size


def deal_for(rules: MightyRules, seats: int) -> TableDeal:
    """Return how a hand is dealt at this many seats under the table's rules."""
    deck = len(DECK) - len(out_of_deck(rules, seats))
    if seats in SEAT_RULES and rules[SEAT_RULES[seats]] == "kill":
        hand = KILL_HANDS[seats]
        return TableDeal(seats, seats - PLAIN_SEATS, 0, hand, deck - seats * hand, deck)
    return TableDeal(seats, 0, max(seats - PLAIN_SEATS, 0), HAND_SIZE, KITTY_SIZE, deck)


def out_of_deck(rules: MightyRules, seats: int) -> frozenset[str]:
    """Return the cards a table of this size plays without: at four seats the 2s, the 4s and the
    3s but the joker-call cards (the three of clubs and the table's alternative); else none."""
    if seats != SMALL_DECK_SEATS:
        return frozenset()
    calls = {"C3", rules.alt_joker_call}
    return frozenset(
        card
        for card in DECK
        if card[1:] in FOUR_SEAT_OUT or (card[1:] == "3" and card not in calls)
    )


def check_in_deck(card: str, where: str, absent: frozenset[str]) -> str:
    """Return the card, or raise ``card_not_in_deck`` for one a table of four plays without."""
    if card in absent:
        raise RuleViolation(
            "card_not_in_deck",
            "{card} is not in the deck at a table of four: it plays without the 2s, the 4s "
            "and the 3s other than the joker-call cards.",
            where,
            card=Face(card),
        )
    return card
