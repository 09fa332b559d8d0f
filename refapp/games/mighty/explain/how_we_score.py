"""What a Mighty table's house rules mean, said in sentences topic by topic ("How we score").

Each sentence states the effective rule in the game's words, never an option's key; a rule
whose value changes nothing at this table (the self friend when no card may be called) is left
unsaid. The scoring topic is ``explain.how_we_score_points``.
"""

from __future__ import annotations

from collections.abc import Callable

from ...game import Account
from ..bidding.auction import MAX_BID, next_floor
from ..bidding.friend import friend_words
from ..bidding.friend_card import FORBIDDEN_WORDS
from ..bidding.misdeal import MODE_MOST, misdeal_most
from ..cards import card_words
from ..house_rules.rules import MightyRules
from ..seats.deal import PLAIN_SEATS, deal_for
from ..seats.dealer import ROTATION_WORDS, ROTATIONS
from .how_we_score_points import say_scoring
from .how_we_score_seats import say_seats


def say_throw_in(rules: MightyRules, size: int) -> Account:
    """Say whether a weak hand may be thrown in, how it is counted and the most its ``size``
    dealt cards may be worth."""
    account = Account()
    say = account.say
    most = misdeal_most(rules)
    if most is None:
        say("Nobody may throw a hand in (파토) at this table: every dealt hand is played.")
        return account
    if rules.misdeal == "point_cards":
        say(
            "A dealt hand is counted for a throw-in (파토) as: each point card 1, ♠A 0, the "
            "joker -1, every other card 0."
        )
    else:
        say(
            "A dealt hand is counted for a throw-in (파토) as: A K Q J 1 each (♠A 0), each 10 "
            "0.5, the joker -1, every other card 0."
        )
    say(
        "A player whose {size} dealt cards are worth at most {most} may throw them in before the "
        "auction; nobody scores and that player deals the next hand.",
        size=size,
        most=most,
    )
    if rules.misdeal_at_most is not None:
        say(
            "That is the table's own limit: the counting alone would allow at most {usual}.",
            usual=MODE_MOST[rules.misdeal],
        )
    say(
        "When the hand is shown to the table, the throw-in may be recorded without its cards: "
        "the table has judged its value."
    )
    return account


def say_auction(rules: MightyRules) -> Account:
    """Say the auction's range, how bids beat each other, when it ends, and who deals."""
    account = Account()
    say = account.say
    say(
        "Each bid names a count of point cards from {min_bid} to {most} and a trump or no-trump; "
        "the highest bid wins the auction.",
        min_bid=rules.min_bid,
        most=MAX_BID,
    )
    if rules.no_trump_beats_same_number:
        say("At the same count no-trump beats a suit.")
    else:
        say("At the same count no-trump does not beat a suit: a higher bid needs a higher count.")
    if rules.pass_is_final:
        say("A player who passed may not bid again in that auction.")
    else:
        say("A player who passed may still bid again later in the same auction.")
    if rules.bid20_ends_auction:
        say("A bid of {most} ends the auction at once.", most=MAX_BID)
    else:
        say(
            "A bid of {most} does not end the auction by itself: the others still get their turn.",
            most=MAX_BID,
        )
    if rules.all_pass == "open_kitty":
        say(
            "If everyone passes, the kitty is turned up and the auction starts again from "
            "{floor}; if everyone passes again, nobody scores and the same dealer deals again.",
            floor=next_floor(rules, reopen=True),
        )
    else:
        say("If everyone passes, nobody scores and the same dealer deals again.")
    say_dealer(account, rules)
    return account


def say_dealer(account: Account, rules: MightyRules) -> None:
    """Say who deals the hand after a played one, in the rotation's words (``ROTATION_WORDS``)."""
    words = ROTATION_WORDS.get(rules.next_dealer, ROTATION_WORDS[ROTATIONS[0]])
    account.say("After a played hand, {why_t}.", why_t=words.why)


def say_contract(rules: MightyRules) -> Account:
    """Say how the boss may change the contract after the kitty, and what each change costs."""
    account = Account()
    say = account.say
    say(
        "After taking the kitty the boss may keep the winning bid or raise it, never lower it; "
        "keeping the trump, any raise is allowed."
    )
    if rules.to_no_trump_cost:
        say(
            "Changing a suit to no-trump needs a contract at least {n} higher than the winning "
            "bid.",
            n=rules.to_no_trump_cost,
        )
    else:
        say("Changing a suit to no-trump needs no raise.")
    say(
        "Changing the trump to another suit needs a contract at least {n} higher than the "
        "winning bid, or {most}.",
        n=max(rules.suit_change_cost, 1),
        most=MAX_BID,
    )
    say(
        "Changing no-trump to a suit needs a contract at least {n} higher than the winning bid, "
        "or {most}.",
        n=max(rules.from_no_trump_cost, 1),
        most=MAX_BID,
    )
    if rules.allow_no_trump_at_20:
        say(
            "A winning bid of {most} locks the trump, but a suit {most} may still become "
            "no-trump {most}.",
            most=MAX_BID,
        )
    else:
        say("A winning bid of {most} locks the trump.", most=MAX_BID)
    return account


def say_friend(rules: MightyRules) -> Account:
    """Say the ways the boss may name a friend, and whether a card the boss holds may be called."""
    account = Account()
    say = account.say
    say(
        "The boss may name the friend in these ways: {ways_t}.",
        ways_t=friend_words(rules.friend_types),
    )
    if "card" not in rules.friend_types:
        return account
    for kind in rules.friend_forbidden:
        say("The boss may not call {kind_t} as the friend card.", kind_t=FORBIDDEN_WORDS[kind])
    if rules.friend_card_in_own_hand == "self_friend":
        say(
            "The boss may call a card they hold or discarded to the kitty: they are then their "
            "own friend (셀프 프렌드) and play alone."
        )
    else:
        say("The boss may not call a card they hold or discarded to the kitty.")
    return account


def say_play(rules: MightyRules) -> Account:
    """Say which cards are the mighty and the joker call, and who may trump the first trick."""
    account = Account()
    say = account.say
    say(
        "The mighty is ♠A; when spades are trump it is {card_t}.",
        card_t=card_words(rules.alt_mighty),
    )
    say(
        "The joker call card (조커콜) is ♣3; when clubs are trump it is {card_t}.",
        card_t=card_words(rules.alt_joker_call),
    )
    if rules.trick1_trump == "none":
        say("Nobody may play trump in the first trick.")
    else:
        say(
            "In the first trick the boss may not lead trump; the others may play trump when they "
            "cannot follow suit."
        )
    return account


#: the topics in the order the page shows them, each with what it says
SECTIONS: tuple[tuple[str, Callable[[MightyRules], Account]], ...] = (
    ("auction", say_auction),
    ("contract", say_contract),
    ("friend", say_friend),
    ("play", say_play),
    ("scoring", say_scoring),
)


def how_we_score(rules: MightyRules, seats: int = PLAIN_SEATS) -> list[tuple[str, Account]]:
    """Return what a table's house rules mean: (topic key, its sentences), in the page's order;
    the table's size first."""
    typed = MightyRules.of(rules)
    size = deal_for(typed, seats).hand_size
    first = [("seats", say_seats(typed, seats)), ("misdeal", say_throw_in(typed, size))]
    return first + [(topic, said(typed)) for topic, said in SECTIONS]
