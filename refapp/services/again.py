"""The same table again: a new session like an earlier one, and the tables a game has seen."""

from __future__ import annotations

from typing import Any

from ..models import GameSession
from .listing import SessionFilter, list_sessions
from .rule_sets import preset_of

#: the most sessions read to find a game's recent tables (a fixed bound, however many there are)
READ_MOST = 30


def same_table(session: GameSession) -> dict[str, Any]:
    """Return the body of a new session with an earlier one's game, seats and house rules."""
    return {
        "game": session.game,
        "players": list(session.players),
        "preset": preset_of(session),
        "rules": dict(session.rules or {}),
    }


def recent_tables(game: str, most: int = 5) -> list[dict[str, Any]]:
    """Return the latest sessions of a game, one per set of seats, newest first (a bounded read)."""
    seen: set[tuple[str, ...]] = set()
    found = []
    for row in list_sessions(SessionFilter(game=game, per_page=READ_MOST)).sessions:
        seats = tuple(row["players"])
        if seats not in seen:
            seen.add(seats)
            found.append(row)
        if len(found) == most:
            break
    return found
