"""Mighty's house rules: every option, its default (the seed's rule) and its alternatives.

The helpers' descriptions are translation keys too: the Makefile's KEYWORDS find them as
``_choice:3``, ``_flag:3`` and ``_cost:3``, so keep these names.
"""

from __future__ import annotations

from ..options import RuleOption, house_rules
from .auction import MAX_BID
from .friend import FRIEND_FORMS


def _choice(key: str, default: str, description: str, *choices: str) -> RuleOption:
    """Return an option with one of several values, the default first."""
    return RuleOption(key, "choice", default, description, choices=(default, *choices))


def _flag(key: str, default: bool, description: str) -> RuleOption:
    """Return an option that is on or off."""
    return RuleOption(key, "bool", default, description)


def _cost(key: str, default: int, description: str) -> RuleOption:
    """Return a trump change's price in point cards: at most 9, so that a bid of 11 can pay it."""
    return RuleOption(key, "int", default, description, minimum=0, maximum=MAX_BID - 11)


#: the options in the order a new session's form lists them
OPTIONS = (
    RuleOption(
        "min_bid",
        "int",
        13,
        "The lowest bid of an auction (point cards promised).",
        minimum=11,
        maximum=MAX_BID,
    ),
    _choice("alt_mighty", "DA", "The mighty when spades are trump (otherwise SA).", "CA", "HA"),
    _choice(
        "alt_joker_call", "S3", "The joker-call card when clubs are trump (otherwise C3).", "H3"
    ),
    _choice(
        "misdeal",
        "point_cards",
        "Who may throw in a hand: point_cards (value <= 0), half_ten (tens 0.5, < 1), "
        "half_ten_strict (< 0.5) or off.",
        "half_ten",
        "half_ten_strict",
        "off",
    ),
    _flag("no_trump_beats_same_number", True, "A no-trump bid beats a suit bid of the same count."),
    _flag("pass_is_final", True, "A player who passed may not bid again in that auction."),
    _choice(
        "all_pass",
        "redeal",
        "When everyone passes: redeal (a zero round) or open_kitty (turn the kitty up, bid "
        "again from min_bid + 2).",
        "open_kitty",
    ),
    _flag("bid20_ends_auction", False, "A bid of 20 ends the auction at once."),
    _cost("to_no_trump_cost", 1, "Points the boss adds to change a suit contract to NT."),
    _cost("suit_change_cost", 2, "Points the boss adds to change to another suit."),
    _cost("from_no_trump_cost", 2, "Points the boss adds to change NT to a suit."),
    _flag("allow_no_trump_at_20", False, "A suit 20 won at auction may become NT 20."),
    RuleOption(
        "friend_types",
        "choices",
        ["card", "none"],
        "How the boss may name a friend: card, none (declared no friend), first_trick.",
        choices=FRIEND_FORMS,
    ),
    _choice(
        "trick1_trump",
        "no_lead",
        "Trump in trick 1: no_lead (the boss may not lead it) or none (nobody may play it).",
        "none",
    ),
    _choice(
        "win_formula",
        "bid_minus_10",
        "A win is worth bid - 10, taken_minus_10 (taken - 10) or pagat (2(bid-13) + over).",
        "taken_minus_10",
        "pagat",
    ),
    _choice(
        "critic",
        "ruling_plus_one",
        "Taking exactly the bid: the ruling side wins 1 (ruling_plus_one), a draw, or a win.",
        "draw",
        "win",
    ),
    _choice(
        "lose_formula",
        "twice_shortfall",
        "A loss is worth 2 x the shortfall, or the shortfall.",
        "shortfall",
    ),
    _choice(
        "run",
        "double",
        "All 20 point cards: double, fixed_20 (m = 20) or none.",
        "fixed_20",
        "none",
    ),
    _flag("declared_run_double", True, "A bid of 20 made doubles again."),
    _flag("double_no_trump", True, "A no-trump win doubles."),
    _flag("double_no_mighty", True, "A win without the mighty doubles."),
    _flag("double_no_joker", True, "A win without the joker doubles."),
    _flag("double_no_friend", True, "A win with a declared no friend doubles."),
    _choice(
        "no_card_means",
        "not_held_by_ruling",
        "'Without the mighty/joker' means not held by the ruling side, or buried_only (in "
        "the kitty).",
        "buried_only",
    ),
    _choice(
        "back_run",
        "flag",
        "The opposition taking the bid or more: flag only, double the loss, or seed_penalty "
        "(boss -10 x bid, friend -bid; not zero-sum).",
        "double",
        "seed_penalty",
    ),
)


#: the house rules in force at a Mighty table, defaults filled once
MightyRules = house_rules("MightyRules", OPTIONS)
