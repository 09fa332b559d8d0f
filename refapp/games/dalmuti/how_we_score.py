"""What a Dalmuti table's house rules mean, said in sentences topic by topic ("How we score").

Each option's effective value at this table becomes a sentence (a default is said plainly too);
the topics are the game's own (``Dalmuti.topics``).
"""

from __future__ import annotations

from ..game import Account, Table
from ..registry import get_game
from .cards import cards_text, deck_size
from .ranks import LESSER_PAIR_FROM, role_name
from .rules import DalmutiRules, house_rules
from .tax import lesser_tax

#: the game's slug: its registered ``Game`` says the seat range (``player_range``)
SLUG = "dalmuti"


def how_we_score(table: Table) -> list[tuple[str, Account]]:
    """Return (topic key, sentences) for every topic: the deal, revolutions, the tax, points."""
    rules = house_rules(table.rules)
    count = len(table.players)
    return [
        ("deal", say_deal(rules)),
        ("revolution", say_revolutions(rules)),
        ("tax", say_tax_rules(rules, count)),
        ("points", say_points(rules, count)),
    ]


def titles() -> dict[str, str]:
    """Return the four single roles' titles as ``_t`` values (gd_t, ld_t, lp_t, gp_t)."""
    return {
        "gd_t": role_name("greater_dalmuti"),
        "ld_t": role_name("lesser_dalmuti"),
        "lp_t": role_name("lesser_peasant"),
        "gp_t": role_name("greater_peasant"),
    }


def say_deal(rules: DalmutiRules) -> Account:
    """Say the table size, the deck, who gets the extra cards and how draw ties are broken."""
    account = Account()
    least, most = get_game(SLUG).player_range(rules)
    account.say("The game is played by {least} to {most} players.", least=least, most=most)
    size = deck_size(rules)
    if rules.removed_ranks:
        account.say(
            "Ranks {ranks} are left out of the deck, so {size} cards are dealt.",
            ranks=cards_text(rules.removed_ranks),
            size=size,
        )
    else:
        account.say("The whole deck is dealt: {size} cards.", size=size)
    if rules.extra_cards_to == "greater_peasant_first":
        account.say(
            "When the cards do not divide evenly, the extra ones go to the {gp_t} first, then "
            "up the ranks.",
            **titles(),
        )
    else:
        account.say(
            "When the cards do not divide evenly, the extra ones go to the {gd_t} first, then "
            "down the ranks.",
            **titles(),
        )
    if rules.draw_ties == "redraw":
        account.say(
            "In the seating draw for the first hand, a player who draws a rank someone already "
            "drew draws again until the rank is theirs alone; their last card places them."
        )
    else:
        account.say(
            "In the seating draw for the first hand, tied players draw again only to order "
            "themselves: they stay below everyone who drew better and above everyone who drew "
            "worse."
        )
    return account


def say_revolutions(rules: DalmutiRules) -> Account:
    """Say what both jesters allow: a plain revolution, and who may reverse the ranks."""
    account = Account()
    account.say(
        "A player dealt both jesters may declare a revolution: no tribute is paid and the "
        "ranks stay."
    )
    if rules.greater_revolution:
        account.say(
            "The {gp_t} dealt both jesters may declare a greater revolution instead: every rank "
            "reverses for the hand, and no tribute is paid.",
            **titles(),
        )
    if rules.lesser_peasant_revolution:
        account.say(
            "The {lp_t} dealt both jesters may reverse every rank but the {gp_t}'s, who stays "
            "last.",
            **titles(),
        )
    if not rules.greater_revolution and not rules.lesser_peasant_revolution:
        account.say("Nobody may reverse the ranks: there is no greater revolution.")
    elif rules.gp_may_choose_plain:
        account.say(
            "A peasant who may reverse the ranks may keep them and only cancel the tribute."
        )
    else:
        account.say("A peasant who may reverse the ranks must do so: both jesters reverse them.")
    return account


def say_tax_rules(rules: DalmutiRules, count: int) -> Account:
    """Say who pays tribute to whom, when, what a Dalmuti may give back, and merchants' swaps."""
    account = Account()
    if not rules.tax:
        account.say("No tribute is paid: every player keeps the cards they were dealt.")
        return account
    if rules.tax_first_hand:
        account.say("Tribute is paid every hand, the first one too, unless a revolution stops it.")
    else:
        account.say(
            "Tribute is paid from the second hand on, unless a revolution stops it; the first "
            "hand has none."
        )
    account.say("The {gp_t} gives the {gd_t} their 2 best cards and gets any 2 back.", **titles())
    least = max(LESSER_PAIR_FROM, rules.lesser_tax_min_players)
    if lesser_tax(count, rules):
        account.say(
            "With {count} players (the Lesser pair's tribute needs {least} or more), the {lp_t} "
            "gives the {ld_t} their best card and gets any 1 back.",
            least=least,
            count=count,
            **titles(),
        )
    elif count >= LESSER_PAIR_FROM:
        account.say(
            "The {lp_t} and the {ld_t} exchange no cards: the Lesser pair pays tribute only with "
            "{least} players or more, and {count} sit here.",
            least=least,
            count=count,
            **titles(),
        )
    else:
        account.say(
            "With {count} players there is no {lp_t} or {ld_t}: only the Greater pair exchanges.",
            count=count,
            **titles(),
        )
    if rules.tax_timing == "sequential":
        account.say(
            "A Dalmuti chooses the cards to give back after picking up the tribute, so they may "
            "pass on cards it brought."
        )
    else:
        account.say(
            "A Dalmuti chooses the cards to give back from the hand they were dealt, before "
            "picking up the tribute."
        )
    if rules.dalmuti_may_return_jester:
        account.say("A Dalmuti may give a jester back; a peasant never gives one.")
    else:
        account.say("Jesters never change hands in the tribute.")
    if rules.merchant_trade:
        account.say(
            "Merchants may swap one card each, blind, by agreement; the referee only records it."
        )
    return account


def say_points(rules: DalmutiRules, count: int) -> Account:
    """Say each hand's points at this table's size, the rising bonus and how long the game is."""
    account = Account()
    if rules.scoring == "role_chips":
        say_chips(account, count)
    elif rules.scoring == "players_below_plus_one":
        account.say(
            "Each hand a player scores one point for every player who finished below them, "
            "plus one: the first out {top} points, the last 1.",
            top=count,
        )
    else:
        account.say(
            "Each hand a player scores one point for every player who finished below them: the "
            "first out {top} points, the last 0.",
            top=count - 1,
        )
    if rules.rising_bonus:
        account.say(
            "The hand's {gd_t} also scores a point for every place their {gp_t} rose, and the "
            "{ld_t} likewise for the {lp_t}.",
            **titles(),
        )
    else:
        account.say("No points for a rising peasant.")
    total = rules.hands_to_play
    if total is None:
        account.say("The game goes on until the table ends it; the highest total wins.")
    elif total == 1:
        account.say("The game lasts {hands} hand; the highest total wins.", hands=total)
    else:
        account.say("The game lasts {hands} hands; the highest total wins.", hands=total)
    return account


def say_chips(account: Account, count: int) -> None:
    """Say the chip of each finishing role at this table's size (``role_chips``)."""
    if count == 3:
        account.say(
            "Each hand a player scores the chip of the role they finish in: {gd_t} 4, the "
            "middle seat 3, {gp_t} 0.",
            **titles(),
        )
    elif count == LESSER_PAIR_FROM:
        account.say(
            "Each hand a player scores the chip of the role they finish in: {gd_t} 4, {ld_t} 3, "
            "{lp_t} 1, {gp_t} 0.",
            **titles(),
        )
    else:
        account.say(
            "Each hand a player scores the chip of the role they finish in: {gd_t} 4, {ld_t} 3, "
            "every merchant 2, {lp_t} 1, {gp_t} 0.",
            **titles(),
        )
