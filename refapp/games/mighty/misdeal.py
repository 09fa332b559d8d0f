"""The misdeal: a dealt hand's value, and who may throw their hand in for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import N_, MalformedInput, Refusal, RuleViolation
from ..game import Table
from ..inputs import mapping, require, sequence
from .cards import HAND_SIZE, JOKER, Face, is_point_card, parse_card

#: the value a hand may have at most to be thrown in, by the ``misdeal`` option's counting
MISDEAL_LIMITS = {
    "point_cards": N_("0 or less (point cards 1, ♠A 0, joker -1)"),
    "half_ten": N_("less than 1 (A K Q J 1, ♠A 0, tens 0.5, joker -1)"),
    "half_ten_strict": N_("less than 0.5 (A K Q J 1, ♠A 0, tens 0.5, joker -1)"),
}


def misdeal_value(cards: Sequence[str], method: str) -> float:
    """Return a dealt hand's misdeal value under the ``misdeal`` option's counting.

    ``point_cards``: point cards 1, SA 0, joker -1. The ``half_ten`` counts: A K Q J 1 (SA 0),
    tens 0.5, joker -1. Counted in halves so that the comparisons stay exact.
    """
    halves = 0
    for card in cards:
        if card == JOKER:
            halves -= 2
        elif card == "SA" or not is_point_card(card):
            continue
        elif card[1:] == "10" and method != "point_cards":
            halves += 1
        else:
            halves += 2
    return halves // 2 if halves % 2 == 0 else halves / 2


def misdeal_allowed(value: float, method: str) -> bool:
    """Return True when a hand of this value may be thrown in under the ``misdeal`` option."""
    if method == "point_cards":
        return value <= 0
    if method == "half_ten":
        return value < 1
    if method == "half_ten_strict":
        return value < 0.5
    return False


def declare_misdeal(table: Table, raw: Any) -> tuple[str, list[str], float]:
    """Check a declared misdeal and return (declarer, hand, value): a low hand may be thrown in."""
    given = mapping(raw, "misdeal")
    player = table.player(require(given, "player", "misdeal.player"), "misdeal.player")
    hand = dealt_hand(require(given, "hand", "misdeal.hand"))
    method = table.rules["misdeal"]
    value = misdeal_value(hand, method)
    if method == "off":
        raise RuleViolation("misdeal_not_allowed", "Misdeals are off at this table.", "misdeal")
    if not misdeal_allowed(value, method):
        raise RuleViolation(
            "misdeal_not_allowed",
            "{player}'s hand is worth {value}; a misdeal needs {limit_t}.",
            "misdeal.hand",
            player=player,
            value=value,
            limit_t=MISDEAL_LIMITS[method],
        )
    return player, hand, value


def dealt_hand(value: Any) -> list[str]:
    """Return a misdeal hand as 10 distinct canonical cards, else raise ``invalid_hand``."""
    cards = sequence(value, "misdeal.hand")
    hand: list[str] = []
    for index, text in enumerate(cards, 1):
        card = _hand_card(text, index)
        if card in hand:
            raise MalformedInput(
                "invalid_hand",
                "The hand holds {card} twice.",
                f"misdeal.hand.{index}",
                card=Face(card),
            )
        hand.append(card)
    if len(hand) != HAND_SIZE:
        raise MalformedInput(
            "invalid_hand",
            "A dealt hand has {size} cards, not {count}.",
            "misdeal.hand",
            size=HAND_SIZE,
            count=len(hand),
        )
    return hand


def _hand_card(text: Any, index: int) -> str:
    """Return the hand's card at index (from 1), refusing a non-card as ``invalid_hand``."""
    try:
        return parse_card(text, f"misdeal.hand.{index}")
    except Refusal as bad:
        # the same words as parse_card's invalid_card, led by the card's place
        raise MalformedInput(
            "invalid_hand",
            "Card {index} of the hand: {value} is not a card; write a suit S H D C and a "
            "rank A K Q J 10 9 .. 2 (e.g. 'H10'), or 'JK' for the joker.",
            bad.field,
            index=index,
            **bad.params,
        ) from None


def misdeal_limit(rules: Mapping[str, Any]) -> str:
    """Return the limit a misdeal needs at this table, in words marked for translation."""
    return MISDEAL_LIMITS[rules["misdeal"]]
