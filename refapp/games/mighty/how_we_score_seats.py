"""What "How we score" says about the table's size: how four, six or seven play and deal."""

from __future__ import annotations

from ..game import Account
from .deal import deal_for
from .rules import MightyRules


def say_seats(rules: MightyRules, seats: int) -> Account:
    """Say how a table of this size plays: the deal, the kills or who rests, who scores 0."""
    account = Account()
    say = account.say
    deal = deal_for(rules, seats)
    if seats == 4:
        say(
            "Four play: 43 cards (no 2s, no 4s, no 3s but the joker-call cards), hands of 10 and "
            "a kitty of 3. With a friend it is two against two: boss m, friend m, each "
            "opponent -m; a boss alone gets 3m."
        )
    elif deal.kills == 1:
        say(
            "Six play 6마: hands of 8 and a kitty of 5. After the auction the boss names a card "
            "and its holder is killed: out of the hand, scoring 0; the killed hand and the kitty "
            "are shared, the boss +5 cards, each other player +2."
        )
    elif deal.kills == 2:
        say(
            "Seven play 7마: hands of 7 and a kitty of 4. After the auction the boss names two "
            "cards and their holders are killed: out of the hand, scoring 0; the killed hands and "
            "the kitty are shared, the boss +6 cards, each other player +3."
        )
    elif deal.sitters == 1:
        say("Six at the table, five play: the dealer rests each hand and scores 0.")
    elif deal.sitters == 2:
        say(
            "Seven at the table, five play: the previous hand's boss and friend rest and score "
            "0; in the first hand, or after a hand without a friend, the table names the two."
        )
    else:
        say("Five play every hand: hands of 10 and a kitty of 3.")
    if deal.kills:
        say(
            "A named card in the kitty or in the boss's own hand is a miss: the boss names "
            "another, without penalty. A killed player may deal and bid in the next hand."
        )
    return account
