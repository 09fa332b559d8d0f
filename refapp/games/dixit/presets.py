"""Dixit's named sets of house rules a session may start from, the default (every default) first."""

from __future__ import annotations

from ..errors import N_
from ..options import Preset

PRESETS = (
    Preset(
        "classic",
        N_("Classic"),
        N_("The 2021 base game for 3 to 8 players: every default."),
    ),
    Preset(
        "odyssey",
        N_("Odyssey"),
        N_(
            "3 to 12 players; vote bonus capped at 3; from 7 players each votes for one or "
            "two cards."
        ),
        {"two_votes_large_game": True},
    ),
)
