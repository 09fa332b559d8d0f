"""Dixit's house rules: the options a session may set, and their values typed."""

from __future__ import annotations

from ..errors import N_
from ..options import HouseRules, RuleOption

OPTIONS = (
    RuleOption(
        "target_score",
        "int",
        30,
        "The game ends after the turn in which someone reaches this score; with none, it "
        "has no target.",
        minimum=1,
        nullable=True,
        label=N_("Target score"),
        group="end",
    ),
    RuleOption(
        "bonus_cap",
        "int",
        None,
        "The most points a player may get in one turn for votes on their cards; none means "
        "no cap, and Odyssey plays with 3.",
        minimum=0,
        nullable=True,
        label=N_("Vote bonus cap"),
        group="voting",
    ),
    RuleOption(
        "two_votes_large_game",
        "bool",
        False,
        "Odyssey rule for 7 to 12 players: one or two votes each, a lone correct vote +1, "
        "bonus capped at 3.",
        label=N_("Two votes in a large game (Odyssey)"),
        group="voting",
    ),
    RuleOption(
        "deck_exhausted",
        "choice",
        "reshuffle",
        "When the draw pile cannot refill every hand: reshuffle the discards, or end the game.",
        choices=("reshuffle", "end"),
        label=N_("When the draw pile runs out"),
        group="end",
        choice_labels=(N_("Reshuffle the discards"), N_("The game ends")),
    ),
)


class DixitRules(HouseRules):
    """The house rules in force at a Dixit table, defaults filled once."""

    options = OPTIONS
    __slots__ = ()
    target_score: int | None
    bonus_cap: int | None
    two_votes_large_game: bool
    deck_exhausted: str
