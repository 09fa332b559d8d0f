"""The misdeal: a dealt hand's value, and who may throw their hand in for it.

The ``misdeal`` option says how a hand is counted and the most it may be worth; a table's own
``misdeal_at_most`` (a number in steps of 0.5) replaces that most, counted the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...errors import N_, MalformedInput, Refusal, RuleViolation, quote
from ...inputs import mapping, require, sequence
from ...options import RuleOption
from ..cards import HAND_SIZE, JOKER, Face, is_point_card, parse_card
from ..seats.deal import check_in_deck
from ..shapes import Misdeal

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules, MightyTable

#: the value a hand may have at most to be thrown in, by the ``misdeal`` option's counting
MISDEAL_LIMITS = {
    "point_cards": N_("0 or less (point cards 1, ♠A 0, joker -1)"),
    "half_ten": N_("less than 1 (A K Q J 1, ♠A 0, tens 0.5, joker -1)"),
    "half_ten_strict": N_("less than 0.5 (A K Q J 1, ♠A 0, tens 0.5, joker -1)"),
}
#: each counting's limit and its card values apart, for a sentence that ends with the values in
#: brackets (a Korean particle then follows the limit, not the bracket)
MISDEAL_BOUNDS = {
    "point_cards": N_("0 or less"),
    "half_ten": N_("less than 1"),
    "half_ten_strict": N_("less than 0.5"),
}
MISDEAL_COUNTINGS = {
    "point_cards": N_("point cards 1, ♠A 0, joker -1"),
    "half_ten": N_("A K Q J 1, ♠A 0, tens 0.5, joker -1"),
    "half_ten_strict": N_("A K Q J 1, ♠A 0, tens 0.5, joker -1"),
}
#: the most a hand may be worth by each counting: a hand's value goes in halves, so "less than
#: 1" is at most 0.5 and "less than 0.5" at most 0
MODE_MOST = {"point_cards": 0, "half_ten": 0.5, "half_ten_strict": 0}
#: the lowest and highest a table's own limit (``misdeal_at_most``) may be
AT_MOST_RANGE = (-1, 10)


class HalfStepOption(RuleOption):
    """A house rule that takes a number in steps of 0.5 (2, 2.5), between minimum and maximum."""

    def check(self, value: object) -> int | float | None:
        """Return the number (a whole one as an int), or raise ``invalid_rules`` quoting it."""
        if value is None and self.nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._bad(
                value, "The house rule “{rule_t}” must be a number in steps of 0.5, not {value}."
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise self._bad(
                value, "The house rule “{rule_t}” must be a number in steps of 0.5, not {value}."
            )
        self._within(value)  # a whole number of any size is compared as it is, never as a float
        if not float(value * 2).is_integer():
            raise self._bad(
                value, "The house rule “{rule_t}” must be a number in steps of 0.5, not {value}."
            )
        return int(value) if float(value).is_integer() else float(value)


#: the ``misdeal_at_most`` option: the table's own most a hand may be worth to be thrown in
MISDEAL_AT_MOST = HalfStepOption(
    "misdeal_at_most",
    "half",
    None,
    N_(
        "The most a hand may be worth to be thrown in, counted as the throw-in rule counts, in "
        "steps of 0.5 (e.g. 1, or 2.5 for \u201cunder 3\u201d); empty: the throw-in rule's own."
    ),
    minimum=AT_MOST_RANGE[0],
    maximum=AT_MOST_RANGE[1],
    nullable=True,
    label=N_("Most a hand may be worth for a throw-in (파토)"),
    group="misdeal",
)


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


def misdeal_allowed(value: float, method: str, at_most: float | None = None) -> bool:
    """Return True when a hand of this value may be thrown in: at most the ``misdeal`` option's
    most, or the table's own ``misdeal_at_most`` when it has one (never when misdeals are off)."""
    if method not in MODE_MOST:
        return False
    return value <= (MODE_MOST[method] if at_most is None else at_most)


def misdeal_most(rules: MightyRules) -> float | None:
    """Return the most a hand may be worth to be thrown in at this table (None: misdeals off)."""
    method = rules.misdeal
    if method not in MODE_MOST:
        return None
    at_most = rules.misdeal_at_most
    return MODE_MOST[method] if at_most is None else at_most


def declare_misdeal(
    table: MightyTable, raw: object, size: int = HAND_SIZE, absent: frozenset[str] = frozenset()
) -> tuple[Misdeal, float | None]:
    """Check a declared misdeal and return it as stored with the hand's value (None: the hand
    was shown to the table and not entered, so only who may declare is checked).

    ``table`` is the hand's bidders; size the hand as dealt (8 or 7 under a kill); absent the
    cards a table of four plays without.
    """
    given = mapping(raw, "misdeal")
    player = table.player(require(given, "player", "misdeal.player"), "misdeal.player")
    shown = shown_flag(given)
    if given.get("hand") is None:
        if not shown:
            raise MalformedInput(
                "missing_field",
                "Enter the {size} cards {player} was dealt, or record that the table saw the "
                "hand (shown).",
                "misdeal.hand",
                size=size,
                player=player,
            )
        misdeals_on(table.rules)
        return {"player": player, "shown": True}, None
    hand = dealt_hand(given["hand"], size)
    for index, card in enumerate(hand, 1):
        check_in_deck(card, f"misdeal.hand.{index}", absent)
    misdeals_on(table.rules)
    value = misdeal_value(hand, table.rules.misdeal)
    check_value(table.rules, player, value)
    declared: Misdeal = {"player": player, "hand": hand}
    if shown:
        declared["shown"] = True
    return declared, value


def shown_flag(given: Mapping[str, object]) -> bool:
    """Return True when the misdeal says the table saw the hand (``shown``: only ``true``)."""
    shown = given.get("shown")
    if shown is None:
        return False
    if shown is not True:
        raise MalformedInput(
            "invalid_value",
            "{where} must be true (the table saw the hand), not {value}; leave it out to "
            "enter the cards.",
            "misdeal.shown",
            where="misdeal.shown",
            value=quote(shown),
        )
    return True


def misdeals_on(rules: MightyRules) -> None:
    """Refuse any misdeal at a table whose ``misdeal`` house rule is off."""
    if rules.misdeal == "off":
        raise RuleViolation("misdeal_not_allowed", "Misdeals are off at this table.", "misdeal")


def check_value(rules: MightyRules, player: str, value: float) -> None:
    """Refuse a hand worth more than this table's most for a misdeal (``misdeal_not_allowed``)."""
    method = rules.misdeal
    at_most = rules.misdeal_at_most
    if at_most is not None and not misdeal_allowed(value, method, at_most):
        raise RuleViolation(
            "misdeal_not_allowed",
            "{player}'s hand is worth {value}; a misdeal at this table needs at most {most}.",
            "misdeal.hand",
            player=player,
            value=value,
            most=at_most,
        )
    if not misdeal_allowed(value, method, at_most):
        raise RuleViolation(
            "misdeal_not_allowed",
            "{player}'s hand is worth {value}; a misdeal needs {limit_t}.",
            "misdeal.hand",
            player=player,
            value=value,
            limit_t=misdeal_limit(rules),
        )


def dealt_hand(value: object, size: int = HAND_SIZE) -> list[str]:
    """Return a misdeal hand as ``size`` distinct canonical cards, else raise ``invalid_hand``."""
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
    if len(hand) != size:
        raise MalformedInput(
            "invalid_hand",
            "A dealt hand has {size} cards, not {count}.",
            "misdeal.hand",
            size=size,
            count=len(hand),
        )
    return hand


def _hand_card(text: object, index: int) -> str:
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


def misdeal_limit(rules: MightyRules) -> str:
    """Return the limit the ``misdeal`` option's counting sets, in words marked for translation
    (a table's own ``misdeal_at_most`` is a number, said by the sentence that names it)."""
    return MISDEAL_LIMITS[rules.misdeal]
