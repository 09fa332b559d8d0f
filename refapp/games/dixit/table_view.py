"""What a Dixit table shows, worked out by the rules: who tells the next story, and how many votes
each player casts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Table

#: the smallest table at which two_votes_large_game gives each voter a second vote: the Odyssey
#: rulebook hands out the second voting token only from 7 players
TWO_VOTES_FROM = 7


def two_votes(rules: Mapping[str, Any], players: int) -> bool:
    """Return True if each voter may vote for one or two cards: the Odyssey rule at 7 or more."""
    return bool(rules["two_votes_large_game"]) and players >= TWO_VOTES_FROM


def votes_each(rules: Mapping[str, Any], players: int | None = None) -> int:
    """Return how many cards each player but the storyteller votes for at a table of players.

    Two under ``two_votes_large_game`` at 7 or more players, else one. Without players it is
    the most any table under these rules allows (callers should pass the table's size).
    """
    if players is None:
        return 2 if rules["two_votes_large_game"] else 1
    return 2 if two_votes(rules, players) else 1


def next_storyteller(table: Table, state: Mapping[str, Any]) -> str | None:
    """Return who tells the next story: left of the last storyteller (None before the first)."""
    last = state.get("last_storyteller")
    return table.left_of(last) if last else None
