"""Mighty's house rules for four, six and seven seats: how six and seven play, the friend cards
a boss may not call, and the defaults that change with the seat count."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import N_
from ...options import RuleOption, RuleValue
from ..seats.deal import SMALL_DECK_SEATS

#: the friend cards ``friend_forbidden`` may list, as the option writes them
FORBIDDABLE = ("mighty", "joker")
#: the options' defaults that differ at four seats (the 4마 rules: a smaller deck, a higher floor)
FOUR_SEAT_DEFAULTS: Mapping[str, RuleValue] = {"min_bid": 14, "friend_forbidden": ["joker"]}

#: the options only a table of four, six or seven plays, in the order a form lists them
SEAT_OPTIONS = (
    RuleOption(
        "six_player_rule",
        "choice",
        "kill",
        "How a table of six plays: in 6마 the boss names a card each hand and its holder is out "
        "(killed); otherwise five play and the dealer rests each hand.",
        choices=("kill", "dealer_sits_out"),
        label=N_("A table of six"),
        group="seats",
        choice_labels=(
            N_("6마 (the boss kills one)"),
            N_("The dealer rests"),
        ),
        seats=(6,),
    ),
    RuleOption(
        "seven_player_rule",
        "choice",
        "kill",
        "How a table of seven plays: in 7마 the boss names two cards each hand and their holders "
        "are out (killed); otherwise five play and the previous hand's boss and friend rest.",
        choices=("kill", "ruling_side_sits_out"),
        label=N_("A table of seven"),
        group="seats",
        choice_labels=(
            N_("7마 (the boss kills two)"),
            N_("Last boss and friend rest"),
        ),
        seats=(7,),
    ),
    RuleOption(
        "friend_forbidden",
        "choices",
        [],
        "Friend cards the boss may not call (at a table of four the joker, unless the table "
        "says otherwise).",
        choices=FORBIDDABLE,
        label=N_("Friend cards the boss may not call"),
        group="friend",
        choice_labels=(N_("The mighty"), N_("The joker")),
    ),
)


def seat_defaults(seats: int | None) -> Mapping[str, RuleValue]:
    """Return the options whose default changes at this seat count (four seats only)."""
    return FOUR_SEAT_DEFAULTS if seats == SMALL_DECK_SEATS else {}
