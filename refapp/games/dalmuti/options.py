"""The Great Dalmuti's house rules: the options a session may set (typed in ``rules``, named
sets in ``presets``)."""

from __future__ import annotations

from ..errors import N_
from ..options import RuleOption, label_of

OPTIONS = (
    RuleOption(
        "allow_any_count",
        "bool",
        False,
        "Allow 3 to 10 players instead of 4 to 8.",
        label=N_("3 to 10 players"),
        group="deal",
    ),
    RuleOption(
        "removed_ranks",
        "int_list",
        [],
        "Ranks taken out of the deck for a small table, e.g. 11 and 12 with 4 players, 12 with 5.",
        minimum=1,
        maximum=12,
        label=N_("Ranks left out of the deck"),
        group="deal",
    ),
    RuleOption(
        "extra_cards_to",
        "choice",
        "greater_dalmuti_first",
        "Who gets one card more when the deck does not divide evenly among the players: the "
        "Greater Dalmuti first, then down the ranks (the official rule), or the Greater Peasant "
        "first, then up the ranks (a Korean custom).",
        choices=("greater_dalmuti_first", "greater_peasant_first"),
        label=N_("Who gets the extra cards"),
        group="deal",
        choice_labels=(
            N_("Greater Dalmuti first (official)"),
            N_("Greater Peasant first (Korean)"),
        ),
    ),
    RuleOption(
        "draw_ties",
        "choice",
        "among_tied",
        "How ties in the first hand's seating draw are broken: the tied players draw again only to "
        "order themselves (a Korean custom), or a rank already drawn is drawn again until it is "
        "nobody else's (the Hungarian rules).",
        choices=("among_tied", "redraw"),
        label=N_("Ties in the seating draw"),
        group="deal",
        choice_labels=(
            N_("Tied players redraw (Korean)"),
            N_("Redraw until unique (Hungarian)"),
        ),
    ),
    RuleOption(
        "greater_revolution",
        "bool",
        True,
        "A Greater Peasant dealt both jesters may reverse every rank for the hand.",
        label=N_("Greater revolution"),
        group="revolution",
    ),
    RuleOption(
        "gp_may_choose_plain",
        "bool",
        True,
        "A peasant entitled to a greater revolution may declare a plain one instead.",
        label=N_("A plain revolution instead of a greater one"),
        group="revolution",
    ),
    RuleOption(
        "lesser_peasant_revolution",
        "bool",
        False,
        "A Lesser Peasant dealt both jesters reverses every rank but the Greater Peasant's, "
        "who stays last.",
        label=N_("Lesser Peasant's revolution (Korean house rule)"),
        group="revolution",
    ),
    RuleOption(
        "tax",
        "bool",
        True,
        "The peasants pay tribute to the Dalmutis each hand.",
        label=N_("Tax (tribute)"),
        group="tax",
    ),
    RuleOption(
        "tax_first_hand",
        "bool",
        True,
        "The tax is paid in the first hand too.",
        label=N_("Tax in the first hand"),
        group="tax",
    ),
    RuleOption(
        "tax_timing",
        "choice",
        "simultaneous",
        "Whether a Dalmuti picks the cards to give back before picking up the tribute (the "
        "official rule) or after (a Korean reading).",
        choices=("simultaneous", "sequential"),
        label=N_("When the Dalmutis choose the cards they give back"),
        group="tax",
        choice_labels=(
            N_("Before the tribute (official)"),
            N_("After the tribute (Korean)"),
        ),
    ),
    RuleOption(
        "lesser_tax_min_players",
        "int",
        4,
        "Below this many players only the Greater Peasant and the Greater Dalmuti exchange cards.",
        minimum=1,
        label=N_("Fewest players for the Lesser pair's tax"),
        group="tax",
    ),
    RuleOption(
        "dalmuti_may_return_jester",
        "bool",
        False,
        "The Dalmutis may give a jester back to the peasants in the tax.",
        label=N_("The Dalmutis may give back a jester"),
        group="tax",
    ),
    RuleOption(
        "merchant_trade",
        "bool",
        False,
        "Merchants may swap one card each, blind, by agreement; the app only records it.",
        label=N_("Merchants' swap (Korean house rule)"),
        group="tax",
    ),
    RuleOption(
        "scoring",
        "choice",
        "players_below",
        "How many points each finishing place earns at the end of a hand: one per player below "
        "you, that plus one, or a chip per role: 4, 3, 2 for each merchant, 1, 0 (a Korean club "
        "custom).",
        choices=("players_below", "players_below_plus_one", "role_chips"),
        label=N_("Points per hand"),
        group="points",
        choice_labels=(
            N_("1 per player below"),
            N_("1 per player below, plus 1"),
            N_("Chips per role (Korean club)"),
        ),
    ),
    RuleOption(
        "rising_bonus",
        "bool",
        False,
        "The hand's Greater (Lesser) Dalmuti gets +1 per place its Greater (Lesser) Peasant rose.",
        label=N_("Bonus for a rising peasant"),
        group="points",
    ),
    RuleOption(
        "hands_to_play",
        "int",
        None,
        "The session ends after this many hands; with none, it ends when the table finishes it.",
        minimum=1,
        nullable=True,
        label=N_("Hands to play"),
        group="points",
    ),
)


def option_label(key: str) -> str:
    """Return a Dalmuti house rule's name as players read it (untranslated), given its key."""
    return label_of(OPTIONS, key)
