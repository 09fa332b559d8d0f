"""Dixit's house rules typed: the values a table plays by, defaults filled once."""

from __future__ import annotations

from ..options import HouseRules
from .options import OPTIONS


class DixitRules(HouseRules):
    """The house rules in force at a Dixit table, defaults filled once."""

    options = OPTIONS
    target_score: int | None
    end_after_rounds: int | None
    bonus_cap: int | None
    two_votes_large_game: bool
    large_table: bool
    deck_exhausted: str
