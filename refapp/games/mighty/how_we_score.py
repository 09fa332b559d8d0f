"""What a Mighty table's house rules mean, said in sentences topic by topic ("How we score").

Each sentence states the effective rule in the game's words, never an option's key; a rule
whose value changes nothing at this table (the self friend when no card may be called, what
"without the mighty" means when neither doubles) is left unsaid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import N_
from ..game import Account
from .auction import MAX_BID, next_floor
from .cards import card_words
from .friend import friend_words
from .misdeal import AT_MOST_WORDS, MODE_MOST, misdeal_most
from .rules import MightyRules

#: how a dealt hand is counted for a throw-in, by the ``misdeal`` option
COUNTING = {
    "point_cards": N_(
        "A dealt hand is counted for a throw-in (파토) as: each point card 1, ♠A 0, the joker "
        "-1, every other card 0."
    ),
    "half_ten": N_(
        "A dealt hand is counted for a throw-in (파토) as: A K Q J 1 each (♠A 0), each 10 0.5, "
        "the joker -1, every other card 0."
    ),
}
#: a rule that is on or off: the sentence when on, the sentence when off
FLAGS = {
    "no_trump_beats_same_number": (
        N_("At the same count no-trump beats a suit."),
        N_("At the same count no-trump does not beat a suit: a higher bid needs a higher count."),
    ),
    "pass_is_final": (
        N_("A player who passed may not bid again in that auction."),
        N_("A player who passed may still bid again later in the same auction."),
    ),
    "bid20_ends_auction": (
        N_("A bid of 20 ends the auction at once."),
        N_("A bid of 20 does not end the auction by itself: the others still get their turn."),
    ),
    "allow_no_trump_at_20": (
        N_("A winning bid of 20 locks the trump, but a suit 20 may still become no-trump 20."),
        N_("A winning bid of 20 locks the trump."),
    ),
    "declared_run_double": (
        N_("A bid of 20 that takes all 20 point cards doubles once more."),
        N_("A bid of 20 that takes all 20 point cards does not double again."),
    ),
    "double_no_trump": (N_("A no-trump win doubles."), N_("A no-trump win does not double.")),
    "double_no_mighty": (
        N_("A win without the mighty doubles."),
        N_("A win without the mighty does not double."),
    ),
    "double_no_joker": (
        N_("A win without the joker doubles."),
        N_("A win without the joker does not double."),
    ),
    "double_no_friend": (
        N_("A win after declaring no friend doubles; a hidden self friend does not."),
        N_("A win after declaring no friend does not double."),
    ),
}
#: the rules that double a win, in the order they apply
WIN_DOUBLES = (
    "declared_run_double",
    "double_no_trump",
    "double_no_mighty",
    "double_no_joker",
    "double_no_friend",
)
#: a rule with several values: the sentence for each value
CHOICES = {
    "all_pass": {
        "redeal": N_("If everyone passes, nobody scores and the same dealer deals again."),
        "open_kitty": N_(
            "If everyone passes, the kitty is turned up and the auction starts again from "
            "{floor}; if everyone passes again, nobody scores and the same dealer deals again."
        ),
    },
    "next_dealer": {
        "previous_friend": N_(
            "The previous hand's friend deals the next hand (its boss when there was no friend)."
        ),
        "clockwise": N_(
            "The player after the previous dealer, in the order of play, deals the next hand."
        ),
        "boss_if_won_else_friend": N_(
            "The boss deals the next hand when the ruling side won or took exactly its bid, the "
            "friend after a loss (the boss when there was no friend)."
        ),
    },
    "friend_card_in_own_hand": {
        "self_friend": N_(
            "The boss may call a card they hold or discarded to the kitty: they are then their "
            "own friend (셀프 프렌드) and play alone."
        ),
        "forbidden": N_("The boss may not call a card they hold or discarded to the kitty."),
    },
    "trick1_trump": {
        "no_lead": N_(
            "In the first trick the boss may not lead trump; the others may play trump when they "
            "cannot follow suit."
        ),
        "none": N_("Nobody may play trump in the first trick."),
    },
    "win_formula": {
        "bid_minus_10": N_("A win is worth the bid minus 10, before doubling."),
        "taken_minus_10": N_("A win is worth the point cards taken minus 10, before doubling."),
        "pagat": N_(
            "A win is worth 2 × (the bid - {min_bid}) plus the point cards taken over the bid, "
            "before doubling."
        ),
    },
    "critic": {
        "ruling_plus_one": N_(
            "When the ruling side takes exactly its bid (크리틱), it wins 1 point, never doubled."
        ),
        "draw": N_("When the ruling side takes exactly its bid (크리틱), nobody scores."),
        "win": N_(
            "When the ruling side takes exactly its bid (크리틱), it is scored as an ordinary win."
        ),
    },
    "lose_formula": {
        "twice_shortfall": N_(
            "A loss gives the opposition twice the point cards missing from the bid."
        ),
        "shortfall": N_("A loss gives the opposition the point cards missing from the bid."),
    },
    "run": {
        "double": N_("Taking all 20 point cards (런) doubles a win."),
        "fixed_20": N_(
            "Taking all 20 point cards (런) makes a win worth 20 before its other doublings."
        ),
        "none": N_("Taking all 20 point cards (런) adds nothing to a win."),
    },
    "no_card_means": {
        "not_held_by_ruling": N_(
            "A win counts as without the mighty or the joker when the ruling side did not hold it."
        ),
        "buried_only": N_(
            "A win counts as without the mighty or the joker only when it was buried in the kitty."
        ),
    },
    "back_run_when": {
        "opposition_reaches_bid": N_(
            "A lost hand is a heavy loss (백런) when the opposition takes as many point cards "
            "as the bid, or more."
        ),
        "ruling_under_10": N_(
            "A lost hand is a heavy loss (백런) when the ruling side takes 9 point cards or fewer."
        ),
        "ruling_10_or_less": N_(
            "A lost hand is a heavy loss (백런) when the ruling side takes 10 point cards or fewer."
        ),
    },
    "back_run": {
        "flag": N_("A heavy loss (백런) is only noted: it scores as an ordinary loss."),
        "double": N_("A heavy loss (백런) doubles what the opposition wins."),
        "seed_penalty": N_(
            "A heavy loss (백런) costs the boss 10 × the bid and the friend the bid instead of "
            "their share; the opposition still wins its points, so the scores do not add up to 0."
        ),
    },
}
#: each lost contract ``loss_multipliers`` may double, and the sentence saying it does
LOSS_DOUBLES = {
    "no_trump": N_("A lost no-trump contract doubles what the opposition wins."),
    "no_friend": N_("A lost contract after declaring no friend doubles what the opposition wins."),
}


def say_flag(account: Account, rules: MightyRules, key: str) -> None:
    """Say what an on-or-off rule means at this table."""
    on, off = FLAGS[key]
    account.say(on if rules[key] else off)


def say_choice(account: Account, rules: MightyRules, key: str, **params: Any) -> None:
    """Say what a rule with several values means at this table."""
    account.say(CHOICES[key][rules[key]], **params)


def say_throw_in(rules: MightyRules) -> Account:
    """Say whether a weak hand may be thrown in, how it is counted and the most it may be worth."""
    account = Account()
    most = misdeal_most(rules)
    if most is None:
        account.say("Nobody may throw a hand in (파토) at this table: every dealt hand is played.")
        return account
    account.say(COUNTING["point_cards" if rules.misdeal == "point_cards" else "half_ten"])
    account.say(
        "A player whose ten dealt cards are worth {limit_t} may throw them in before the "
        "auction; nobody scores and that player deals the next hand.",
        limit_t=AT_MOST_WORDS[most],
    )
    if rules.misdeal_at_most is not None:
        account.say(
            "That is the table's own limit: the counting alone would allow {usual_t}.",
            usual_t=AT_MOST_WORDS[MODE_MOST[rules.misdeal]],
        )
    return account


def say_auction(rules: MightyRules) -> Account:
    """Say the auction's range, how bids beat each other, when it ends, and who deals."""
    account = Account()
    account.say(
        "Each bid names a count of point cards from {min_bid} to {most} and a trump or no-trump; "
        "the highest bid wins the auction.",
        min_bid=rules.min_bid,
        most=MAX_BID,
    )
    for key in ("no_trump_beats_same_number", "pass_is_final", "bid20_ends_auction"):
        say_flag(account, rules, key)
    say_choice(account, rules, "all_pass", floor=next_floor(rules, reopen=True))
    say_choice(account, rules, "next_dealer")
    return account


def say_contract(rules: MightyRules) -> Account:
    """Say how the boss may change the contract after the kitty, and what each change costs."""
    account = Account()
    account.say(
        "After taking the kitty the boss may keep the winning bid or raise it, never lower it; "
        "keeping the trump, any raise is allowed."
    )
    if rules.to_no_trump_cost:
        account.say(
            "Changing a suit to no-trump needs a contract at least {n} higher than the winning "
            "bid.",
            n=rules.to_no_trump_cost,
        )
    else:
        account.say("Changing a suit to no-trump needs no raise.")
    account.say(
        "Changing the trump to another suit needs a contract at least {n} higher than the "
        "winning bid, or 20.",
        n=max(rules.suit_change_cost, 1),
    )
    account.say(
        "Changing no-trump to a suit needs a contract at least {n} higher than the winning bid, "
        "or 20.",
        n=max(rules.from_no_trump_cost, 1),
    )
    say_flag(account, rules, "allow_no_trump_at_20")
    return account


def say_friend(rules: MightyRules) -> Account:
    """Say the ways the boss may name a friend, and whether a card the boss holds may be called."""
    account = Account()
    account.say(
        "The boss may name the friend in these ways: {ways_t}.",
        ways_t=friend_words(rules.friend_types),
    )
    if "card" in rules.friend_types:
        say_choice(account, rules, "friend_card_in_own_hand")
    return account


def say_play(rules: MightyRules) -> Account:
    """Say which cards are the mighty and the joker call, and who may trump the first trick."""
    account = Account()
    account.say(
        "The mighty is ♠A; when spades are trump it is {card_t}.",
        card_t=card_words(rules.alt_mighty),
    )
    account.say(
        "The joker call card (조커콜) is ♣3; when clubs are trump it is {card_t}.",
        card_t=card_words(rules.alt_joker_call),
    )
    say_choice(account, rules, "trick1_trump")
    return account


def say_scoring(rules: MightyRules) -> Account:
    """Say what a win, an exact bid and a loss are worth, every doubling, and how it is shared."""
    account = Account()
    account.say(
        "The boss wins a hand's points twice and the friend once, while each opposition player "
        "loses them; a boss without a friend wins them four times; after a loss it is the other "
        "way round."
    )
    say_choice(account, rules, "win_formula", min_bid=rules.min_bid)
    say_choice(account, rules, "critic")
    say_choice(account, rules, "run")
    for key in WIN_DOUBLES:
        say_flag(account, rules, key)
    if rules.double_no_mighty or rules.double_no_joker:
        say_choice(account, rules, "no_card_means")
    say_choice(account, rules, "lose_formula")
    for name in rules.loss_multipliers:
        account.say(LOSS_DOUBLES[name])
    if not rules.loss_multipliers:
        account.say("A lost contract is never doubled for being no-trump or without a friend.")
    say_choice(account, rules, "back_run_when")
    say_choice(account, rules, "back_run")
    return account


#: the topics in the order the page shows them, each with what it says
SECTIONS: tuple[tuple[str, Callable[[MightyRules], Account]], ...] = (
    ("misdeal", say_throw_in),
    ("auction", say_auction),
    ("contract", say_contract),
    ("friend", say_friend),
    ("play", say_play),
    ("scoring", say_scoring),
)


def how_we_score(rules: Mapping[str, Any]) -> list[tuple[str, Account]]:
    """Return what a table's house rules mean: (topic key, its sentences), in the page's order."""
    typed = MightyRules.of(rules)
    return [(topic, say(typed)) for topic, say in SECTIONS]
