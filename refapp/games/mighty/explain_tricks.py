"""The sentences of the play: each trick's winner and why, who played the friend card, the
mighty and the joker, where the opposition's points came from, and the next play.

Worded once, like explain.py: the English templates are the translation catalogs' keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import N_
from ..game import Account
from .cards import JOKER, TRUMP_NAMES, card_face, card_words, cards_words
from .tricks import Decision

if TYPE_CHECKING:  # the referee of the tricks words its sentences here
    from .trick_checks import PlayLog
    from .trick_totals import Totals

#: why a trick went to its winner, in words
REASON_WORDS = {
    "mighty": N_("the mighty"),
    "joker": N_("the joker"),
    "trump": N_("the highest trump"),
    "lead": N_("the highest card of the led suit"),
    "leader_by_default": N_("a dead joker led, and nothing followed its suit"),
}
#: who held the mighty or the joker, in words
HOLDER_WORDS = {
    "boss": N_("the boss"),
    "friend": N_("the friend"),
    "opposition": N_("the opposition"),
}


def say_trick(account: Account, number: int, decision: Decision) -> None:
    """Say who took a trick, with which card and why, and its point cards."""
    values = {
        "number": number,
        "winner": decision.winner,
        "card_t": card_words(decision.card),
        "reason_t": REASON_WORDS[decision.reason],
        "points": cards_words(decision.points),
    }
    if decision.points:
        account.say(
            "Trick {number}: {winner} takes it with {card_t} ({reason_t}); point cards: {points}.",
            **values,
        )
    else:
        account.say(
            "Trick {number}: {winner} takes it with {card_t} ({reason_t}); no point cards.",
            **values,
        )


def say_judged_trick(account: Account, number: int, decision: Decision) -> None:
    """Say which card takes one trick judged alone, and why (the players may be unnamed)."""
    values = {
        "number": number,
        "card_t": card_words(decision.card),
        "reason_t": REASON_WORDS[decision.reason],
        "points": cards_words(decision.points),
    }
    if decision.points:
        account.say("{card_t} takes trick {number} ({reason_t}); point cards: {points}.", **values)
    else:
        account.say("{card_t} takes trick {number} ({reason_t}); no point cards.", **values)


def say_tricks(account: Account, log: PlayLog) -> None:
    """Say each finished trick's winner, in order."""
    for trick in log.finished:
        say_trick(account, trick.number, trick.decision)


def say_totals(account: Account, log: PlayLog, totals: Totals, entered: Mapping[str, Any]) -> None:
    """Say what ten tricks show: the friend, the opposition's points, the mighty and the joker."""
    friend = entered["friend"]
    if "card" in friend:
        _say_friend_card(account, log, friend["card"])
    if totals.opposition_tricks:
        account.say(
            "The tricks give the opposition {points} point cards, in tricks {tricks}.",
            points=totals.opposition_points,
            tricks=", ".join(str(number) for number in totals.opposition_tricks),
        )
    else:
        account.say("The opposition took no point cards in any trick.")
    _say_special(account, log, log.specials.mighty, totals.mighty_holder)
    _say_special(account, log, JOKER, totals.joker_holder)
    _say_kitty(account, totals.kitty)


def _say_kitty(account: Account, kitty: Sequence[str]) -> None:
    """Say the kitty's cards as players write them, the joker by its name."""
    cards = cards_words(card for card in kitty if card != JOKER)
    if JOKER not in kitty:
        account.say("The kitty holds {cards}.", cards=cards)
    elif cards:
        account.say("The kitty holds {cards} and the joker.", cards=cards)
    else:
        account.say("The kitty holds the joker.")


def _say_friend_card(account: Account, log: PlayLog, card: str) -> None:
    """Say who played the friend card, which makes them the friend (or the boss alone)."""
    seen = log.played.get(card)
    if seen is None:
        account.say(
            "Nobody played {card_t}: it is in the kitty, a self friend.", card_t=card_words(card)
        )
    elif seen[1] == log.boss:
        account.say(
            "{card_t} was played by the boss {player} in trick {trick}: a self friend.",
            card_t=card_words(card),
            player=seen[1],
            trick=seen[0] + 1,
        )
    else:
        account.say(
            "{card_t} was played by {player} in trick {trick}, so {player} is the friend.",
            card_t=card_words(card),
            player=seen[1],
            trick=seen[0] + 1,
        )


def _say_special(account: Account, log: PlayLog, card: str, holder: str) -> None:
    """Say who played the mighty or the joker, for which side, or that it is in the kitty."""
    seen = log.played.get(card)
    if seen is None and card == JOKER:
        account.say("Nobody played the joker: it is in the kitty.")
    elif seen is None:
        account.say("Nobody played the mighty {card}: it is in the kitty.", card=card_face(card))
    elif card == JOKER:
        account.say(
            "The joker was played by {player} ({holder_t}) in trick {trick}.",
            player=seen[1],
            holder_t=HOLDER_WORDS[holder],
            trick=seen[0] + 1,
        )
    else:
        account.say(
            "The mighty {card} was played by {player} ({holder_t}) in trick {trick}.",
            card=card_face(card),
            player=seen[1],
            holder_t=HOLDER_WORDS[holder],
            trick=seen[0] + 1,
        )


def say_next_play(account: Account, log: PlayLog) -> None:
    """Say who plays next in a dry run's unfinished tricks, and what they must play."""
    values: dict[str, Any] = {"player": log.next_player, "trick": len(log.finished) + 1}
    if not log.current:
        account.say("Next: {player} leads trick {trick}.", **values)
        return
    follow = [must["follow"] for must in log.must_play if "follow" in must]
    called = any("joker_if_held" in must for must in log.must_play)
    if follow:
        values["suit_t"] = TRUMP_NAMES[follow[0]]
    if follow and called:
        account.say(
            "Next: {player} in trick {trick}: the joker if they hold it (it was called), "
            "else {suit_t} if they can.",
            **values,
        )
    elif follow:
        account.say("Next: {player} in trick {trick}, following {suit_t} if they can.", **values)
    elif called:
        account.say(
            "Next: {player} in trick {trick}: the joker if they hold it (it was called).",
            **values,
        )
    else:
        account.say(
            "Next: {player} in trick {trick}; the tricks show they cannot follow, so any card.",
            **values,
        )
