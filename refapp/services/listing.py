"""The sessions list: filtered by game, player, status and dates, one page at a time.

A page costs a fixed number of queries however many sessions match: the rows read the summary
(round count, totals) the writers keep on each session, and the count is one more query.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..games.game import leaders
from ..models import GameSession, Player, SessionPlayer
from .sessions import iso


@dataclass
class SessionFilter:
    """What the sessions list is narrowed to: game, a player's name, status, dates, page.

    The pages and the API read it from the query string (``refapp/web/filters.py``).
    """

    game: str | None = None
    player: str | None = None
    finished: bool | None = None
    date_from: date | None = None
    date_to: date | None = None
    page: int = 1
    per_page: int = 50
    #: the pages list active sessions first, by latest activity; the API newest first
    active_first: bool = False


@dataclass
class SessionList:
    """One page of the sessions list: its rows, how many sessions match, how many pages."""

    sessions: list[dict[str, Any]]
    total: int
    pages: int


def list_sessions(wanted: SessionFilter | None = None) -> SessionList:
    """Return one page of sessions and how many match, in a fixed number of queries."""
    wanted = wanted or SessionFilter()
    query = select(GameSession)
    if wanted.game:
        query = query.where(GameSession.game == wanted.game)
    if wanted.finished is not None:
        query = query.where(GameSession.finished == wanted.finished)
    if wanted.player:
        seated = (
            select(SessionPlayer.session_id)
            .join(Player, Player.id == SessionPlayer.player_id)
            .where(Player.name == wanted.player)
        )
        query = query.where(GameSession.id.in_(seated))
    if wanted.date_from:
        query = query.where(GameSession.created_at >= day_start(wanted.date_from))
    if wanted.date_to and wanted.date_to < date.max:  # the last day there is bounds nothing
        query = query.where(GameSession.created_at < day_start(wanted.date_to + timedelta(days=1)))
    if wanted.active_first:
        order = [GameSession.finished, GameSession.updated_at.desc(), GameSession.id.desc()]
    else:
        order = [GameSession.created_at.desc(), GameSession.id.desc()]
    page = db.paginate(
        query.order_by(*order),
        page=max(wanted.page, 1),
        per_page=wanted.per_page,
        max_per_page=None,
        error_out=False,  # a page past the last is empty, not a 404
    )
    total = page.total or 0
    return SessionList([session_row(session) for session in page], total, max(1, page.pages))


def day_start(day: date) -> datetime:
    """Return midnight UTC at the start of a day."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def session_row(session: GameSession) -> dict[str, Any]:
    """Return a session as the lists show it: game, players, rounds, leaders or winners."""
    players = session.players
    totals = {name: session.totals.get(name, 0) for name in players}
    top = leaders(totals) if session.round_count else []
    return {
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "players": players,
        "created_at": iso(session.created_at),
        "updated_at": iso(session.updated_at),
        "rounds": session.round_count,
        "finished": session.finished,
        "totals": totals,
        "leaders": top,
        "winners": leaders(totals) if session.finished else [],
    }
