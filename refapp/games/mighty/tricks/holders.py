"""What a played hand reports: the opposition's point cards, and who held the mighty and joker.

These are cross-checked against the friend and the points: a holder that
contradicts them is ``holder_conflict``.
"""

from __future__ import annotations

from ...errors import N_, MalformedInput, Refusal, RuleViolation, quote
from ...inputs import whole_number
from ..bidding.friend import friend_player
from ..cards import JOKER, POINT_CARDS, Face, mighty_card
from ..house_rules.rules import MightyTable
from ..round_form import need
from ..shapes import Contract, Friend, HolderKey, MightyInput

#: where the mighty or the joker ended up: a side's hand, or buried in the kitty
HOLDERS = ("boss", "friend", "opposition", "kitty")
#: the input keys naming a special card's holder
HOLDER_KEYS: tuple[HolderKey, ...] = ("mighty_holder", "joker_holder")
#: each holder in words, for a sentence ("it ended with the kitty")
HOLDER_WORDS = {
    "boss": N_("the boss"),
    "friend": N_("the friend"),
    "opposition": N_("the opposition"),
    "kitty": N_("the kitty"),
}
#: the card each holder key is about, in words
HELD_CARD_WORDS = {"mighty_holder": N_("the mighty"), "joker_holder": N_("the joker")}
#: a card whose holder key is not one of HOLDER_KEYS, in words
SOME_CARD = N_("the card")


def holder_words(holder: str) -> str:
    """Return a holder in words for a message's ``_t`` value (an unknown one quoted as sent)."""
    return HOLDER_WORDS.get(holder, quote(holder))


def read_points(sent: object, partial: bool) -> int | None:
    """Return the point cards the opposition took, 0 to 20; None if a dry run left it out."""
    if partial and sent is None:
        return None
    value = need(sent, "opposition_points")
    try:
        points = whole_number(value, "opposition_points")
    except Refusal:
        points = None
    if points is None or not 0 <= points <= POINT_CARDS:
        raise MalformedInput(
            "invalid_points",
            "The opposition's point cards are a whole number from 0 to {most}, not {value}.",
            "opposition_points",
            most=POINT_CARDS,
            value=quote(value),
        )
    return points


def read_holder(value: object, key: str) -> str:
    """Return who held a special card (boss, friend, opposition or kitty), in lower case."""
    holder = value.strip().lower() if isinstance(value, str) else value
    if holder not in HOLDERS:
        raise MalformedInput(
            "invalid_value",
            "Who ended with {card_t}: the boss, the friend, the opposition or the kitty, "
            "not {value}.",
            key,
            card_t=HELD_CARD_WORDS.get(key, SOME_CARD),
            value=quote(value),
        )
    return holder


def check_holders(table: MightyTable, entered: MightyInput) -> None:
    """Refuse holders that contradict the friend card, a missing friend or the points."""
    friend = entered.get("friend")
    contract = entered.get("contract")
    has_friend = _has_friend(friend, contract)
    cards = {"joker_holder": JOKER}
    if contract is not None:
        cards["mighty_holder"] = mighty_card(contract["trump"], table.rules)
    for key in HOLDER_KEYS:
        _check_holder(key, entered.get(key), cards.get(key), friend, has_friend)
    if entered.get("mighty_holder") == "opposition" and entered.get("opposition_points") == 0:
        raise RuleViolation(
            "holder_conflict",
            "The opposition held the mighty, which wins its trick and is itself a point "
            "card, so the opposition's point cards cannot be 0.",
            "opposition_points",
        )


def _has_friend(friend: Friend | None, contract: Contract | None) -> bool | None:
    """Return whether the hand has a real friend: None while the parts sent do not tell."""
    if friend is not None and "none" in friend:
        return False
    if friend is not None and "card" in friend and not {"player", "kitty"} & friend.keys():
        return None  # a card call whose holder the unfinished tricks have not shown yet
    if friend is not None and contract is not None:
        return friend_player(friend, contract["boss"]) is not None
    return None


def _check_holder(
    key: str,
    holder: str | None,
    card: str | None,
    friend: Friend | None,
    has_friend: bool | None,
) -> None:
    """Refuse a holder of card that the friend (or the lack of one) rules out."""
    if holder == "friend" and has_friend is False:
        raise RuleViolation(
            "holder_conflict",
            "This hand has no friend, so {card_t} cannot have ended with the friend.",
            key,
            card_t=HELD_CARD_WORDS[key],
        )
    if holder is None or card is None or friend is None or friend.get("card") != card:
        return
    if has_friend and holder not in ("boss", "friend"):
        raise RuleViolation(
            "holder_conflict",
            "{card} is the friend card, so the friend {player} holds it for the ruling "
            "side; it cannot have ended with {value_t}.",
            key,
            card=Face(card),
            player=friend["player"],
            value_t=holder_words(holder),
        )
    if has_friend is False and holder not in ("boss", "kitty"):
        raise RuleViolation(
            "holder_conflict",
            "{card} is the friend card and the boss is their own friend, so it is in the "
            "boss's hand or the kitty; it cannot have ended with {value_t}.",
            key,
            card=Face(card),
            value_t=holder_words(holder),
        )
