"""What a Dixit table shows, worked out by the rules: who tells the next story, and how many votes
each player casts."""

from __future__ import annotations

from collections.abc import Mapping

from ..game import Table
from .deck import cards_laid, hand_size, position_count
from .ending import end_reasons, turns_left
from .shapes import DixitState

#: the smallest table at which two_votes_large_game gives each voter a second vote: the Odyssey
#: rulebook hands out the second voting token only from 7 players
TWO_VOTES_FROM = 7


def two_votes(rules: Mapping[str, object], players: int) -> bool:
    """Return True if each voter may vote for one or two cards: the Odyssey rule at 7 or more."""
    return bool(rules["two_votes_large_game"]) and players >= TWO_VOTES_FROM


def votes_each(rules: Mapping[str, object], players: int | None = None) -> int:
    """Return how many cards each player but the storyteller votes for at a table of players.

    Two under ``two_votes_large_game`` at 7 or more players, else one. Without players it is
    the most any table under these rules allows (callers should pass the table's size).
    """
    if players is None:
        return 2 if rules["two_votes_large_game"] else 1
    return 2 if two_votes(rules, players) else 1


def next_storyteller(table: Table, state: DixitState) -> str | None:
    """Return who tells the next story: left of the last storyteller (None before the first)."""
    last = state.get("last_storyteller")
    return table.left_of(last) if last else None


def public_view(table: Table, state: DixitState, totals: Mapping[str, int]) -> dict[str, object]:
    """Return what the table needs before the next turn: the storyteller, the deck, the end."""
    coming = next_storyteller(table, state)
    ended = end_reasons(table.rules, state, totals, table.size)
    return {
        "next_storyteller": coming,
        "storyteller_free": coming is None,
        "target_score": table.rules["target_score"],
        "hand_size": hand_size(table.size),
        "cards_per_player": cards_laid(table.size),
        "positions": position_count(table.size),
        "draw_pile": state["draw_pile"],
        "discard_pile": state["discard_pile"],
        "reshuffles": state.get("reshuffles", 0),
        "deck_exhausted": state.get("deck_exhausted", False),
        "turns": state.get("turns", 0),
        "full_rounds": state.get("turns", 0) // table.size,
        "turns_left": 0 if ended else turns_left(table.rules, state, table.size),
        "end_reasons": ended,
    }
