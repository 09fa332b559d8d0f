"""The called card the boss held (option ``friend_card_in_own_hand``).

By default a card call whose card the boss held - in hand, or discarded to the kitty - makes a
self friend (셀프 프렌드). Under ``"forbidden"`` (many online rule sets: no fake friend) such a
call is refused with ``friend_card_held_by_boss``. The boss discards before calling, so a called
card in the kitty was the boss's too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import N_, RuleViolation
from ..cards import JOKER, Face, mighty_card
from ..seats.deal import check_in_deck
from ..shapes import Friend

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

#: the ``friend_card_in_own_hand`` house rule's choices, the default first
OWN_CARD_RULES = ("self_friend", "forbidden")


def friend_card_held(friend: Friend | None, boss: str | None) -> str | None:
    """Return where the boss held the called card: ``"kitty"``, ``"hand"``, or None.

    friend is the friend as entered (or as the tricks settled it): ``{"card": C, "kitty": true}``
    was discarded by the boss; ``{"card": C, "player": boss}`` was in the boss's hand. A call
    whose holder is not known yet, and the other forms (none, first trick), tell nothing.
    """
    if not friend or "card" not in friend:
        return None
    if friend.get("kitty") is True:
        return "kitty"
    if boss is not None and friend.get("player") == boss:
        return "hand"
    return None


def check_friend_card_held(rules: MightyRules, friend: Friend | None, boss: str | None) -> None:
    """Raise ``friend_card_held_by_boss`` when the table forbids calling the boss's own card.

    Does nothing under the default ``self_friend``, or when the parts sent do not tell (a dry
    run without the contract still refuses a called card in the kitty).
    """
    if rules.friend_card_in_own_hand != "forbidden" or not friend:
        return
    where = friend_card_held(friend, boss)
    if where == "kitty":
        raise RuleViolation(
            "friend_card_held_by_boss",
            "{card} went to the kitty, so the boss held it when calling it; this table does "
            "not allow calling a card the boss holds (no fake friend).",
            "friend.kitty",
            card=Face(friend["card"]),
        )
    if where == "hand":
        raise RuleViolation(
            "friend_card_held_by_boss",
            "The boss {boss} held {card} when calling it; this table does not allow calling "
            "a card the boss holds (no fake friend).",
            "friend.player",
            boss=boss,
            card=Face(friend["card"]),
        )


#: what each ``friend_forbidden`` choice forbids, in words for "How we score"
FORBIDDEN_WORDS = {"mighty": N_("the mighty"), "joker": N_("the joker")}


def check_friend_card_allowed(
    rules: MightyRules,
    friend: Friend | None,
    trump: str | None,
    absent: frozenset[str] = frozenset(),
) -> None:
    """Refuse a called card the table plays without (``card_not_in_deck``) or one the house rule
    ``friend_forbidden`` forbids calling (``friend_card_forbidden``; the mighty by the trump)."""
    if not friend or "card" not in friend:
        return
    card = check_in_deck(friend["card"], "friend.card", absent)
    forbidden = rules.friend_forbidden
    for kind in forbidden:
        if kind == "mighty" and trump is None:
            continue
        if kind == "joker" and card == JOKER:
            raise RuleViolation(
                "friend_card_forbidden",
                "At this table the boss may not call the joker as the friend card.",
                "friend.card",
            )
        if kind == "mighty" and card == mighty_card(trump or "NT", rules):
            raise RuleViolation(
                "friend_card_forbidden",
                "At this table the boss may not call the mighty ({card}) as the friend card.",
                "friend.card",
                card=Face(card),
            )
