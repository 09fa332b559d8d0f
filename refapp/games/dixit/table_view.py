"""What a Dixit table shows, worked out by the rules: how many votes each player casts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def votes_each(rules: Mapping[str, Any]) -> int:
    """Return how many cards each player but the storyteller votes for: two under the Odyssey
    rule ``two_votes_large_game``, else one."""
    return 2 if rules["two_votes_large_game"] else 1
