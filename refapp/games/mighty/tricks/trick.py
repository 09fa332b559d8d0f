"""One trick of the play: a play's form, and who takes the trick.

Strength: the mighty, then a live joker, then the highest trump, then the highest card of the led
suit; other cards are dead. A led joker names the suit to follow; the joker is dead in tricks 1
and 10 and when called (the joker-call card led with ``call``, which has no power in trick 1).
When a dead joker was led and nothing qualifies, its leader takes the trick. Checking a whole
hand's tricks (turns, revokes, the joker call, trick 1) is ``tricks.checks``; what ten tricks tell
(points, friend, holders) is ``tricks.totals``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import MalformedInput, quote
from ...inputs import mapping
from ..cards import (
    JOKER,
    RANKS,
    Face,
    is_point_card,
    joker_call_card,
    mighty_card,
    parse_card,
    parse_trump,
)
from ..seats.deal import PLAIN_SEATS
from ..shapes import PlayInput

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

#: tricks in a hand, and the most plays in a trick: one card from each active player, who are
#: the plain game's five at most (a table's own count is ``seats.deal.deal_for(...).active_count``)
TRICKS = 10
PLAYS = PLAIN_SEATS
#: why a trick went to its winner
REASONS = ("mighty", "joker", "trump", "lead", "leader_by_default")

#: turns a play's ``player`` into a name (a seated player), or None where names are optional
Namer = Callable[[object, str], "str | None"]


@dataclass(frozen=True)
class Play:
    """One card played: by whom, the suit a led joker names, and a led joker-call's ``call``."""

    player: str | None
    card: str
    suit: str | None = None
    call: bool = False

    @property
    def seated(self) -> str:
        """Return the player, whom every play of a hand's tricks names (unlike a judged trick)."""
        if self.player is None:
            raise ValueError(f"the play of {self.card} names no player")
        return self.player

    def as_dict(self) -> PlayInput:
        """Return the play as the input writes it (canonical cards, the flags only when set)."""
        written: PlayInput = {"card": self.card}
        if self.player is not None:
            written = {"player": self.player, "card": self.card}
        if self.suit is not None:
            written["suit"] = self.suit
        if self.call:
            written["call"] = True
        return written


@dataclass(frozen=True)
class Specials:
    """The cards that play by their own rules under one trump: the mighty and the joker call."""

    trump: str
    mighty: str
    joker_call: str

    @classmethod
    def of(cls, trump: str, rules: MightyRules) -> Specials:
        """Return the special cards under trump and the table's rules."""
        return cls(trump, mighty_card(trump, rules), joker_call_card(trump, rules))

    def free(self, card: str) -> bool:
        """Return True for the mighty and the joker: playable at any time instead of following."""
        return card in (JOKER, self.mighty)

    def is_trump(self, card: str) -> bool:
        """Return True for a card of the trump suit (the mighty and the joker are not)."""
        return self.trump != "NT" and not self.free(card) and card[0] == self.trump


@dataclass(frozen=True)
class Decision:
    """Who took a trick: the winning play's index, player and card, why, and its point cards."""

    index: int
    winner: str | None
    card: str
    reason: str
    points: tuple[str, ...]


def suit_of(card: str) -> str | None:
    """Return a card's suit (the mighty's is its own); the joker has none."""
    return None if card == JOKER else card[0]


def led_suit(lead: Play) -> str:
    """Return the suit to follow: the led card's, or the suit a led joker names."""
    return lead.suit if lead.card == JOKER and lead.suit else lead.card[0]


def call_has_power(number: int, lead: Play, specials: Specials) -> bool:
    """Return True when trick number's lead calls the joker (a call in trick 1 has no power)."""
    return number > 1 and lead.call and lead.card == specials.joker_call


def dead_joker(number: int, lead: Play, specials: Specials) -> str | None:
    """Return why the joker is powerless in a trick: ``called``, ``first_or_last`` or None."""
    if call_has_power(number, lead, specials):
        return "called"
    if number in (1, TRICKS):
        return "first_or_last"
    return None


def joker_is_dead(number: int, lead: Play, specials: Specials) -> bool:
    """Return True when the joker has no power: in tricks 1 and 10, and when called."""
    return dead_joker(number, lead, specials) is not None


def decide_trick(trump: str, number: int, plays: Sequence[Play], rules: MightyRules) -> Decision:
    """Return who takes trick number (1..10) of plays (the leader's first) and why."""
    specials = Specials.of(trump, rules)
    index, reason = _winning_play(specials, number, plays)
    won = plays[index]
    points = tuple(play.card for play in plays if is_point_card(play.card))
    return Decision(index, won.player, won.card, reason, points)


def _winning_play(specials: Specials, number: int, plays: Sequence[Play]) -> tuple[int, str]:
    """Return the index of the winning play and the reason (one of REASONS)."""
    cards = [play.card for play in plays]
    if specials.mighty in cards:
        return cards.index(specials.mighty), "mighty"
    if JOKER in cards and not joker_is_dead(number, plays[0], specials):
        return cards.index(JOKER), "joker"
    trump = specials.trump if specials.trump != "NT" else None
    for reason, suit in (("trump", trump), ("lead", led_suit(plays[0]))):
        ranked = [
            (RANKS.index(card[1:]), index)
            for index, card in enumerate(cards)
            if suit is not None and card != JOKER and card[0] == suit
        ]
        if ranked:
            return min(ranked)[1], reason
    return 0, "leader_by_default"


def read_play(raw: object, where: str, index: int, specials: Specials, name: Namer) -> Play:
    """Return play number index (0: the lead) of a trick, its form checked.

    A led joker must name a suit (``missing_field``); ``suit`` anywhere else, or ``call`` on a
    card that is not the joker-call card led, is ``invalid_value``; a bad card is
    ``invalid_card``.
    """
    given = mapping(raw, where)
    player = name(given.get("player"), f"{where}.player")
    card_given = given.get("card")
    if card_given is None:
        raise MalformedInput(
            "missing_field", "The field {path} is required.", f"{where}.card", path=f"{where}.card"
        )
    card = parse_card(card_given, f"{where}.card")
    suit = _named_suit(given.get("suit"), f"{where}.suit", index, card)
    call = _call(given.get("call"), f"{where}.call", index, card, specials)
    return Play(player, card, suit, call)


def _named_suit(value: object, where: str, index: int, card: str) -> str | None:
    """Return the suit a led joker names; refuse it missing, or given on any other play."""
    if index == 0 and card == JOKER:
        if value is None:
            raise MalformedInput(
                "missing_field",
                "A led joker names the suit to follow: the field {path} is required.",
                where,
                path=where,
            )
        suit = parse_trump(value, where)
        if suit == "NT":
            raise MalformedInput(
                "invalid_value",
                "{value} is not a suit the joker can name: write S, H, D or C.",
                where,
                value=quote(value),
            )
        return suit
    if value is not None:
        raise MalformedInput(
            "invalid_value",
            "Only a led joker names a suit; {where} cannot be given with {card}.",
            where,
            where=where,
            card=Face(card),
        )
    return None


def _call(value: object, where: str, index: int, card: str, specials: Specials) -> bool:
    """Return True for a joker call; refuse ``call`` that is not a boolean, or misplaced."""
    if value is None or value is False:
        return False
    if value is not True:
        raise MalformedInput(
            "invalid_value",
            "{where} must be true or false, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    if index != 0 or card != specials.joker_call:
        raise MalformedInput(
            "invalid_value",
            "Only the joker-call card {call_card}, led, calls the joker; {card} cannot call it.",
            where,
            call_card=Face(specials.joker_call),
            card=Face(card),
        )
    return True
