"""The Great Dalmuti's play: what a legal play is, and the verdict the check-a-play page shows.

A play is cards of one number (jesters join it) that match the count of the play immediately
before it and beat its number; nothing of a trick is stored, so only single plays are judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypedDict

from ..errors import N_, RuleViolation
from .cards import JESTER_RANK, cards_text, check_supply, parse_cards, sort_cards
from .shapes import Card

#: what holds too many copies of a card, in check_supply's message
THESE_CARDS = N_("These cards")
PLAY_BEFORE = N_("The play before")
THE_HAND = N_("The hand")


def play_rank(cards: Sequence[int | str], where: str = "play") -> int:
    """Return the rank of a set of cards, or raise ``mixed_ranks``.

    Jesters join the number of the other cards; jesters alone count 13.
    """
    numbers = sorted({card for card in cards if isinstance(card, int)})
    if len(numbers) > 1:
        raise RuleViolation(
            "mixed_ranks",
            "A play is cards of one rank (jesters join them), not {value}.",
            where,
            value=cards_text(sort_cards(cards)),
        )
    return numbers[0] if numbers else JESTER_RANK


def check_play(
    previous: object,
    play: object,
    hand: object = None,
    where: str = "play",
    *,
    removed: Iterable[int] = (),
) -> int:
    """Check one play against the play immediately before it (None or [] to lead); return its rank.

    Raises ``mixed_ranks``, ``wrong_play_count`` (not as many cards as the play before),
    ``play_not_better`` (not a strictly lower number), ``supply_exceeded`` (more copies than
    the deck without the ``removed`` ranks holds) and, when the player's current hand is given,
    ``card_not_in_hand``.
    """
    cards = parse_cards(play, where)
    if not cards:
        raise RuleViolation(
            "wrong_play_count", "A play is one or more cards; an empty play is a pass.", where
        )
    rank = play_rank(cards, where)
    if previous:
        before = parse_cards(previous, "previous")
        if len(cards) != len(before):
            raise RuleViolation(
                "wrong_play_count",
                "Cards in the play before: {want}, so this one must have {want} too, not "
                "{count} (played: {value}).",
                where,
                want=len(before),
                count=len(cards),
                value=cards_text(cards),
            )
        if rank >= play_rank(before, "previous"):
            raise RuleViolation(
                "play_not_better",
                "{value} does not beat {before}: a play needs a strictly lower number than the "
                "play immediately before it.",
                where,
                value=cards_text(sort_cards(cards)),
                before=cards_text(sort_cards(before)),
            )
    check_supply(Counter(cards), removed, where, THESE_CARDS)
    if hand is not None:
        held = Counter(parse_cards(hand, "hand"))
        missing = Counter(cards) - held
        if missing:
            raise RuleViolation(
                "card_not_in_hand",
                "{value} is not in the hand ({hand}).",
                where,
                value=cards_text(sort_cards(missing.elements())),
                hand=cards_text(sort_cards(held.elements())),
            )
    return rank


class Verdict(TypedDict):
    """A play judged legal: its cards and rank, the play before's, and the hand left after it."""

    cards: list[Card]
    rank: int
    before: list[Card] | None
    before_rank: int | None
    left: list[Card] | None


def judge_play(
    previous: Sequence[object],
    play: Sequence[object],
    hand: Sequence[object] | None,
    removed: Iterable[int],
) -> Verdict:
    """Judge a play for the check-a-play page: its cards and rank, the play before's, the rest."""
    removed = list(removed)
    # check_play's errors first, then each field alone against the deck without removed ranks
    rank = check_play(previous or None, play, hand)
    cards = sort_cards(parse_cards(play, "play"))
    given: tuple[tuple[str, str, Sequence[object]], ...] = (
        ("previous", PLAY_BEFORE, previous),
        ("play", THESE_CARDS, play),
        ("hand", THE_HAND, hand or []),
    )
    for field, what, value in given:
        counted = Counter(parse_cards(value, field))
        check_supply(counted, removed, field, what)
    before: list[Card] | None = None
    before_rank: int | None = None
    left: list[Card] | None = None
    if previous:
        before = sort_cards(parse_cards(previous, "previous"))
        before_rank = play_rank(before, "previous")
    if hand is not None:
        rest = Counter(parse_cards(hand, "hand")) - Counter(cards)
        left = sort_cards(rest.elements())
    return {
        "cards": cards,
        "rank": rank,
        "before": before,
        "before_rank": before_rank,
        "left": left,
    }
