"""The sentences about who was out of a hand at four, six or seven seats: killed by which card
(after which misses), or resting and why; each scores 0.

Worded once, like explain/hand.py: the English templates are the translation catalogs' keys.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import N_
from ...game import Account
from ..cards import card_words
from ..shapes import Kill

#: why players rest, by the rest rule that has them rest (``six_player_rule`` rests one, the
#: dealer; ``seven_player_rule`` two, the previous hand's ruling side)
REST_WHY = {
    "dealer_sits_out": N_("the dealer rests at a table of six"),
    "ruling_side_sits_out": N_("the previous hand's boss and friend rest at a table of seven"),
}


def say_kills(account: Account, boss: str, kills: Sequence[Kill]) -> None:
    """Say each card the boss named, the misses first, and who was killed by it."""
    for kill in kills:
        for miss in kill.get("misses", []):
            account.say(
                "{boss} named {card_t}: a miss (it was in the kitty or in the boss's own hand).",
                boss=boss,
                card_t=card_words(miss),
            )
        account.say(
            "{boss} named {card_t}, held by {player}: {player} is killed, out of the hand, and "
            "scores 0.",
            boss=boss,
            card_t=card_words(kill["card"]),
            player=kill["player"],
        )


def say_resting(account: Account, resting: Sequence[str], named: bool) -> None:
    """Say who rested this hand and why (named: the hand named them, the rule could not)."""
    if not resting:
        return
    if len(resting) == 1:
        account.say(
            "{player} rests this hand ({why_t}) and scores 0.",
            player=resting[0],
            why_t=REST_WHY["dealer_sits_out"],
        )
    elif named:
        account.say(
            "{first} and {second} rest this hand (named by the table: the previous hand had no "
            "friend, or this is the first hand) and score 0.",
            first=resting[0],
            second=resting[1],
        )
    else:
        account.say(
            "{first} and {second} rest this hand ({why_t}) and score 0.",
            first=resting[0],
            second=resting[1],
            why_t=REST_WHY["ruling_side_sits_out"],
        )


def say_out(
    account: Account, boss: str, kills: Sequence[Kill], resting: Sequence[str], named: bool
) -> None:
    """Say who was out of a scored hand: the kills, then the players resting."""
    say_kills(account, boss, kills)
    say_resting(account, resting, named)
