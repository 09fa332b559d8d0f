"""The sentences of the play: each trick's winner and why (and the suit a led joker named), what
ten tricks show (the friend card, the mighty and the joker: explain.facts), where the
opposition's points came from, the kitty, and the next play.

Worded once, like explain/hand.py: the English templates are the translation catalogs' keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import N_
from ...game import Account
from ..cards import JOKER, TRUMP_NAMES, card_words, cards_words
from ..plurals import TRICKS_GIVE, in_tricks
from ..scoring.facts import card_fact, friend_fact
from ..shapes import MightyInput
from ..tricks.trick import Decision, Play
from .facts import say_cards, say_friend_reveal

if TYPE_CHECKING:  # the referee of the tricks words its sentences here
    from ..tricks.log import PlayLog
    from ..tricks.totals import Totals

#: why a trick went to its winner, in words
REASON_WORDS = {
    "mighty": N_("the mighty"),
    "joker": N_("the joker"),
    "trump": N_("the highest trump"),
    "lead": N_("the highest card of the led suit"),
    "leader_by_default": N_("a dead joker led, and nothing followed its suit"),
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


def say_judged_trick(
    account: Account, number: int, decision: Decision, lead: Play | None = None
) -> None:
    """Say which card takes one trick judged alone and why (a led joker's suit first)."""
    if lead is not None and lead.card == JOKER and lead.suit is not None:
        account.say(
            "Trick {number}: the joker was led, naming {suit_t}.",
            number=number,
            suit_t=TRUMP_NAMES[lead.suit],
        )
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
    """Say each finished trick's winner, in order, and the suit a led joker named."""
    for trick in log.finished:
        lead = trick.plays[0]
        if lead.card == JOKER and lead.suit is not None:
            account.say(
                "Trick {number}: {leader} led the joker, naming {suit_t}.",
                number=trick.number,
                leader=trick.leader,
                suit_t=TRUMP_NAMES[lead.suit],
            )
        say_trick(account, trick.number, trick.decision)


def say_totals(account: Account, log: PlayLog, totals: Totals, entered: MightyInput) -> None:
    """Say what ten tricks show: the friend, the opposition's points, the mighty and the joker."""
    friend = friend_fact(entered["friend"], log.boss, log)
    say_friend_reveal(account, friend, log.boss)
    say_points(account, totals)
    mighty = card_fact(log.specials.mighty, totals.mighty_holder, log.boss, friend, log)
    joker = card_fact(JOKER, totals.joker_holder, log.boss, friend, log)
    say_cards(account, log.specials.trump, mighty, joker)
    say_kitty(account, totals.kitty)


def say_points(account: Account, totals: Totals) -> None:
    """Say the opposition's point cards the tricks give, and in which tricks."""
    if totals.opposition_tricks:
        account.say(
            in_tricks(TRICKS_GIVE, totals.opposition_points, len(totals.opposition_tricks)),
            points=totals.opposition_points,
            tricks=", ".join(str(number) for number in totals.opposition_tricks),
        )
    else:
        account.say("The opposition took no point cards in any trick.")


def say_kitty(account: Account, kitty: Sequence[str]) -> None:
    """Say the kitty's cards as players write them, the joker by its name."""
    cards = cards_words(card for card in kitty if card != JOKER)
    if JOKER not in kitty:
        account.say("The kitty holds {cards}.", cards=cards)
    elif cards:
        account.say("The kitty holds {cards} and the joker.", cards=cards)
    else:
        account.say("The kitty holds the joker.")


def say_next_play(account: Account, log: PlayLog) -> None:
    """Say who plays next in a dry run's unfinished tricks, and what they must play."""
    values: dict[str, object] = {"player": log.next_player, "trick": len(log.finished) + 1}
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
