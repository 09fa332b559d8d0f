"""The Great Dalmuti's house rules: the options a session may set, and their effective values.

Kept apart from the package's ``__init__`` because every phase module reads the house rules
through ``settings`` (the Game class there only publishes ``OPTIONS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..options import RuleOption, house_rules

OPTIONS = (
    RuleOption("allow_any_count", "bool", False, "Allow 3 to 10 players instead of 4 to 8."),
    RuleOption(
        "removed_ranks",
        "int_list",
        [],
        "Ranks taken out of the deck for small tables (4 players: [11, 12]; 5: [12]).",
        minimum=1,
        maximum=12,
    ),
    RuleOption(
        "extra_cards_to",
        "choice",
        "greater_dalmuti_first",
        "Who holds the larger hands when the deck does not divide evenly: ranks 1, 2, ... "
        "(official) or the Greater Peasant upwards (Korean custom).",
        choices=("greater_dalmuti_first", "greater_peasant_first"),
    ),
    RuleOption(
        "greater_revolution",
        "bool",
        True,
        "A Greater Peasant dealt both jesters may reverse every rank for the hand.",
    ),
    RuleOption(
        "gp_may_choose_plain",
        "bool",
        True,
        "A peasant entitled to a greater revolution may declare a plain one instead.",
    ),
    RuleOption(
        "lesser_peasant_revolution",
        "bool",
        False,
        "Korean house rule: the Lesser Peasant dealt both jesters reverses ranks 1..N-1; "
        "the Greater Peasant stays last.",
    ),
    RuleOption("tax", "bool", True, "The peasants pay tribute to the Dalmutis each hand."),
    RuleOption("tax_first_hand", "bool", True, "The tax is paid in the first hand too."),
    RuleOption(
        "tax_timing",
        "choice",
        "simultaneous",
        "A Dalmuti picks the cards to give back before picking up the tribute (official) "
        "or after (Korean reading).",
        choices=("simultaneous", "sequential"),
    ),
    RuleOption(
        "merchant_trade",
        "bool",
        False,
        "Korean house rule: merchants may swap one card each, blind, by agreement (recorded only).",
    ),
    RuleOption(
        "scoring",
        "choice",
        "players_below",
        "Points per hand: one per player below you, or that plus one.",
        choices=("players_below", "players_below_plus_one"),
    ),
    RuleOption(
        "rising_bonus",
        "bool",
        False,
        "The hand's Greater (Lesser) Dalmuti gets +1 per place its Greater (Lesser) Peasant rose.",
    ),
    RuleOption(
        "hands_to_play",
        "int",
        None,
        "The session ends after this many hands (none: when the table finishes it).",
        minimum=1,
        nullable=True,
    ),
)


#: the house rules in force at a Dalmuti table, defaults filled once
DalmutiRules = house_rules("DalmutiRules", OPTIONS)


def settings(rules: Mapping[str, Any]) -> DalmutiRules:
    """Return the table's house rules typed, defaults filled in (the engine reads only this)."""
    return rules if isinstance(rules, DalmutiRules) else DalmutiRules(rules)
