"""The sentences that say who is the boss with what contract, and who the friend is.

Worded once, like explain/hand.py: the English templates are the translation catalogs' keys.
"""

from __future__ import annotations

from ...game import Account
from ..bidding.auction import Bid
from ..cards import card_words
from ..shapes import MightyInput


def _friend_form(entered: MightyInput, where: str | None = None) -> tuple[str, dict[str, str]]:
    """Return how the friend was named and the values a sentence about them needs.

    The forms: none, self_first_trick, first_trick, self_kitty (the called card was in the
    kitty), self_hand (the boss held it), unknown_card and card; the values are ``friend`` (a
    name) and ``card_t`` (the card as players write it). where (scoring.facts.FriendFact's) tells a
    called card's place when the tricks showed it.
    """
    friend = entered["friend"]
    boss = entered["contract"]["boss"] if "contract" in entered else None
    if "none" in friend:
        return "none", {}
    if "first_trick" in friend:
        player = friend["first_trick"]
        return ("self_first_trick" if player == boss else "first_trick"), {"friend": player}
    card_t = {"card_t": card_words(friend["card"])}
    if "kitty" in friend or where == "kitty":
        return "self_kitty", card_t
    if friend.get("player") == boss:
        return "self_hand", card_t
    if "player" not in friend:  # a dry run's tricks have not shown the card yet
        return "unknown_card", card_t
    return "card", {"friend": friend["player"], **card_t}


def say_friend(account: Account, entered: MightyInput) -> None:
    """Say who the friend is (a dry run's line)."""
    form, values = _friend_form(entered)
    if form == "none":
        account.say("Friend: declared no friend.")
    elif form == "self_first_trick":
        account.say(
            "Friend: the winner of trick 1 was the boss {friend} (a self friend).", **values
        )
    elif form == "first_trick":
        account.say("Friend: {friend}, who won trick 1.", **values)
    elif form == "self_kitty":
        account.say("Friend: {card_t}; the friend card was in the kitty (a self friend).", **values)
    elif form == "self_hand":
        account.say("Friend: {card_t}, in the boss's own hand (a self friend).", **values)
    elif form == "unknown_card":
        account.say("Friend: whoever holds {card_t}; it has not been played yet.", **values)
    else:
        account.say("Friend: {friend}, who holds {card_t}.", **values)


def say_contract(account: Account, entered: MightyInput, where: str | None = None) -> None:
    """Say who is the boss with what contract, and who the friend is (a hand's first line)."""
    contract = entered["contract"]
    form, friend_values = _friend_form(entered, where)
    bid = Bid(contract["bid"], contract["trump"]).words()
    values: dict[str, object] = {**friend_values, "boss": contract["boss"], **bid}
    if form == "none":
        account.say(
            "{boss} is the boss with {count} {trump_t}; friend: declared no friend.", **values
        )
    elif form == "self_first_trick":
        account.say(
            "{boss} is the boss with {count} {trump_t}; friend: the winner of trick 1 was "
            "the boss {friend} (a self friend).",
            **values,
        )
    elif form == "first_trick":
        account.say(
            "{boss} is the boss with {count} {trump_t}; friend: {friend}, who won trick 1.",
            **values,
        )
    elif form == "self_kitty":
        account.say(
            "{boss} is the boss with {count} {trump_t}; friend: {card_t}; the friend card was "
            "in the kitty (a self friend).",
            **values,
        )
    elif form == "self_hand":
        account.say(
            "{boss} is the boss with {count} {trump_t}; friend: {card_t}, in the boss's own "
            "hand (a self friend).",
            **values,
        )
    else:
        account.say(
            "{boss} is the boss with {count} {trump_t}; friend: {friend}, who holds {card_t}.",
            **values,
        )
