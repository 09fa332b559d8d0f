"""What "How we score" says about the table's size: how four, six or seven play and deal.

Every count in these sentences comes from the deal (``deal.deal_for``: its sizes and the kill's
shares) and ``tricks.trick.TRICKS``.
"""

from __future__ import annotations

from ...game import Account
from ..house_rules.rules import MightyRules
from ..seats.deal import PLAIN_SEATS, SMALL_DECK_SEATS, deal_for
from ..tricks.trick import TRICKS


def say_seats(rules: MightyRules, seats: int) -> Account:
    """Say how a table of this size plays: the deal, the kills or who rests, who scores 0."""
    account = Account()
    say = account.say
    deal = deal_for(rules, seats)
    counts = {
        "size": deal.hand_size,
        "kitty": deal.kitty_size,
        "deck": deal.deck_size,
        "boss": deal.boss_share,
        "each": deal.share,
    }
    if seats == SMALL_DECK_SEATS:
        say(
            "Four play: {deck} cards (no 2s, no 4s, no 3s but the joker-call cards), hands of "
            "{size} and a kitty of {kitty}. With a friend it is two against two: boss m, friend "
            "m, each opponent -m; a boss alone gets 3m.",
            **counts,
        )
    elif deal.kills == 1:
        say(
            "Six play with a kill (6마): hands of {size} and a kitty of {kitty}. After the "
            "auction the boss names a card and its holder is killed: out of the hand, scoring 0; "
            "the killed hand and the kitty are shared, the boss +{boss} cards, each other player "
            "+{each}.",
            **counts,
        )
    elif deal.kills == 2:
        say(
            "Seven play with two kills (7마): hands of {size} and a kitty of {kitty}. After the "
            "auction the boss names two cards and their holders are killed: out of the hand, "
            "scoring 0; the killed hands and the kitty are shared, the boss +{boss} cards, each "
            "other player +{each}.",
            **counts,
        )
    elif deal.sitters == 1:
        say("Six at the table, five play: the dealer rests each hand and scores 0.")
    elif deal.sitters == 2:
        say(
            "Seven at the table, five play: the previous hand's boss and friend rest and score "
            "0; in the first hand, or after a hand without a friend, the table names the two."
        )
    if deal.sitters or seats == PLAIN_SEATS:
        say("Each dealt hand is {size} cards and the kitty {kitty}.", **counts)
    say(
        "{players} players play each hand: {tricks} tricks, each player one card a trick.",
        players=deal.active_count,
        tricks=TRICKS,
    )
    if deal.kills:
        say(
            "A named card in the kitty or in the boss's own hand is a miss: the boss names "
            "another, without penalty. A killed player may deal and bid in the next hand."
        )
    return account
