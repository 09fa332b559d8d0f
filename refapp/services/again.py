"""The same table again: a new session like an earlier one, recent tables, known names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from sqlalchemy import select

from ..club import current_group_id
from ..extensions import db
from ..models import GameSession, Player, SessionPlayer
from .listing import SessionRow
from .rule_sets import preset_of


class NewTable(TypedDict):
    """A new session's body: the game, the seats in order, the preset, the house rules and
    where the table plays."""

    game: str
    players: list[str]
    preset: str | None
    rules: dict[str, object]
    location: str | None


def same_table(session: GameSession) -> NewTable:
    """Return the body of a new session with an earlier one's game, seats, house rules and
    place."""
    return {
        "game": session.game,
        "players": list(session.players),
        "preset": preset_of(session),
        "rules": dict(session.rules or {}),
        "location": session.location,
    }


def recent_tables(rows: Iterable[SessionRow], most: int = 5) -> list[SessionRow]:
    """Return the sessions of a list's rows that seat a new table: one per game and set of seats,
    in the list's order (the sessions page's own rows: no query of its own)."""
    seen: set[tuple[str, ...]] = set()
    found = []
    for row in rows:
        seats = (row["game"], *row["players"])
        if seats not in seen:
            seen.add(seats)
            found.append(row)
        if len(found) == most:
            break
    return found


#: how many seats the known names are read from, whatever the history (a bounded read)
KNOWN_SEATS = 60


def known_names(most: int = 16) -> list[str]:
    """Return the names at the latest tables (latest first, in seat order), read in one query."""
    rows = db.session.execute(
        select(Player.name)
        .join(SessionPlayer, SessionPlayer.player_id == Player.id)
        .join(GameSession, GameSession.id == SessionPlayer.session_id)
        .where(GameSession.group_id + 0 == current_group_id())
        .order_by(GameSession.updated_at.desc(), GameSession.id.desc(), SessionPlayer.seat)
        .limit(KNOWN_SEATS)
    ).scalars()
    return list(dict.fromkeys(rows))[:most]
