"""What a Mighty table's scoring rules mean, in sentences: each formula, doubling and loss."""

from __future__ import annotations

from ...game import Account
from ..bidding.auction import MAX_BID
from ..cards import POINT_CARDS
from ..house_rules.rules import MightyRules
from ..scoring.score import BACK_RUN_BOSS_TIMES, BACK_RUN_MOST, FIXED_RUN_M, WIN_LESS


def say_scoring(rules: MightyRules) -> Account:
    """Say how a hand's points are shared, what a win and an exact bid are worth, each doubling."""
    account = Account()
    say = account.say
    say(
        "The boss wins a hand's points twice and the friend once, while each opposition player "
        "loses them; a boss without a friend wins them four times; after a loss it is the other "
        "way round."
    )
    if rules.win_formula == "taken_minus_10":
        say("A win is worth the point cards taken minus {less}, before doubling.", less=WIN_LESS)
    elif rules.win_formula == "pagat":
        say(
            "A win is worth 2 × (the bid - {min_bid}) plus the point cards taken over the bid, "
            "before doubling.",
            min_bid=rules.min_bid,
        )
    else:
        say("A win is worth the bid minus {less}, before doubling.", less=WIN_LESS)
    if rules.critic == "draw":
        say("When the ruling side takes exactly its bid (크리틱), nobody scores.")
    elif rules.critic == "win":
        say("When the ruling side takes exactly its bid (크리틱), it is scored as an ordinary win.")
    else:
        say("When the ruling side takes exactly its bid (크리틱), it wins 1 point, never doubled.")
    say_win_doublings(account, rules)
    say_loss(account, rules)
    return account


def say_win_doublings(account: Account, rules: MightyRules) -> None:
    """Say what taking all 20 point cards does to a win, and which wins double."""
    say = account.say
    if rules.run == "fixed_20":
        say(
            "Taking all {cards} point cards (런) makes a win worth {m} before its other doublings.",
            cards=POINT_CARDS,
            m=FIXED_RUN_M,
        )
    elif rules.run == "none":
        say("Taking all {cards} point cards (런) adds nothing to a win.", cards=POINT_CARDS)
    else:
        say("Taking all {cards} point cards (런) doubles a win.", cards=POINT_CARDS)
    if rules.declared_run_double:
        say(
            "A bid of {most} that takes all {cards} point cards doubles once more.",
            most=MAX_BID,
            cards=POINT_CARDS,
        )
    else:
        say(
            "A bid of {most} that takes all {cards} point cards does not double again.",
            most=MAX_BID,
            cards=POINT_CARDS,
        )
    if rules.double_no_trump:
        say("A no-trump win doubles.")
    else:
        say("A no-trump win does not double.")
    if rules.double_no_mighty:
        say("A win without the mighty doubles.")
    else:
        say("A win without the mighty does not double.")
    if rules.double_no_joker:
        say("A win without the joker doubles.")
    else:
        say("A win without the joker does not double.")
    if rules.double_no_friend:
        say("A win after declaring no friend doubles; a hidden self friend does not.")
    else:
        say("A win after declaring no friend does not double.")
    if not (rules.double_no_mighty or rules.double_no_joker):
        return  # what "without" means changes nothing when neither doubles
    if rules.no_card_means == "buried_only":
        say("A win counts as without the mighty or the joker only when it was buried in the kitty.")
    else:
        say("A win counts as without the mighty or the joker when the ruling side did not hold it.")


def say_loss(account: Account, rules: MightyRules) -> None:
    """Say what a loss gives the opposition, which lost contracts double, and a heavy loss."""
    say = account.say
    if rules.lose_formula == "shortfall":
        say("A loss gives the opposition the point cards missing from the bid.")
    else:
        say("A loss gives the opposition twice the point cards missing from the bid.")
    if "no_trump" in rules.loss_multipliers:
        say("A lost no-trump contract doubles what the opposition wins.")
    if "no_friend" in rules.loss_multipliers:
        say("A lost contract after declaring no friend doubles what the opposition wins.")
    if not rules.loss_multipliers:
        say("A lost contract is never doubled for being no-trump or without a friend.")
    if rules.back_run_when in BACK_RUN_MOST:
        say(
            "A lost hand is a heavy loss (백런) when the ruling side takes {most} point cards or "
            "fewer.",
            most=BACK_RUN_MOST[rules.back_run_when],
        )
    else:
        say(
            "A lost hand is a heavy loss (백런) when the opposition takes as many point cards "
            "as the bid, or more."
        )
    if rules.back_run == "double":
        say("A heavy loss (백런) doubles what the opposition wins.")
    elif rules.back_run == "seed_penalty":
        say(
            "A heavy loss (백런) costs the boss {times} × the bid and the friend the bid instead "
            "of their share; the opposition still wins its points, so the scores do not add up "
            "to 0.",
            times=BACK_RUN_BOSS_TIMES,
        )
    else:
        say("A heavy loss (백런) is only noted: it scores as an ordinary loss.")
