"""Dixit's house rules: the options a session may set (typed in ``rules``, named sets in
``presets``)."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import N_, MalformedInput
from ..options import RuleOption, label_of

OPTIONS = (
    RuleOption(
        "target_score",
        "int",
        30,
        "The game ends after the turn in which someone reaches this score; none leaves only "
        "the rounds to play as the end.",
        minimum=1,
        nullable=True,
        label=N_("Target score"),
        group="end",
    ),
    RuleOption(
        "end_after_rounds",
        "int",
        None,
        "The game also ends after the turn in which every player has been the storyteller this "
        "many times, whichever end comes first; none means no such end.",
        minimum=1,
        nullable=True,
        label=N_("Rounds of storytellers to play"),
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
        "Odyssey rule: the vote bonus is capped at 3, and from 7 to 12 players each votes for "
        "one or two cards, a lone correct vote +1.",
        label=N_("Two votes in a large game (Odyssey)"),
        group="voting",
    ),
    RuleOption(
        "large_table",
        "bool",
        False,
        "The base game with a second box for up to 12 players: 168 cards, one vote each, no "
        "cap of its own.",
        label=N_("Large table (two boxes)"),
        group="table",
    ),
    RuleOption(
        "deck_exhausted",
        "choice",
        "reshuffle",
        "When the draw pile runs out: reshuffle the discards, or end the game after the turn "
        "that takes its last card (or, as refapp counted before, the turn whose refill falls "
        "short).",
        choices=("reshuffle", "end", "end_when_short"),
        label=N_("When the draw pile runs out"),
        group="end",
        choice_labels=(
            N_("Reshuffle the discards"),
            N_("The game ends"),
            N_("The game ends on a short refill"),
        ),
    ),
)


def check_ending(rules: Mapping[str, object]) -> None:
    """Refuse new rules without a target score or rounds to play: the game would never end."""
    if rules["target_score"] is None and rules["end_after_rounds"] is None:
        raise MalformedInput(
            "invalid_rules",
            "The house rule “{rule_t}” may be none only with “{other_t}” set: without "
            "either the game would never end.",
            "rules.target_score",
            rule_t=label_of(OPTIONS, "target_score"),
            other_t=label_of(OPTIONS, "end_after_rounds"),
        )
