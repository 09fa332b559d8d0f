"""The sessions list: filtered by game, player, status and dates, one page at a time.

A page costs a fixed number of queries however many sessions match: the rows read the summary
(round count, totals) the writers keep on each session, and the count is one more query.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TypedDict, Unpack

from sqlalchemy import select

from ..club import current_group_id
from ..extensions import db
from ..games.errors import MalformedInput, quote
from ..games.game import leaders
from ..games.inputs import digits_number
from ..models import GameSession, Player, SessionPlayer
from .location import location_text
from .sessions import iso
from .values import has_control

#: the statuses a list may be narrowed to (``status``, or ``finished`` as the API first named it)
STATUSES = {"active": False, "false": False, "finished": True, "true": True}
#: the most pages and rows a page a list may be asked for (``page``, ``per_page``)
MOST_PAGES = 100_000
MOST_PER_PAGE = 500


@dataclass
class SessionFilter:
    """What the sessions list is narrowed to: game, a player's name, status, dates, page.

    The pages and the API read it from the query string (``read_filter``).
    """

    game: str | None = None
    player: str | None = None
    #: where it was played (as stored: trimmed, spaces collapsed, NFC)
    location: str | None = None
    finished: bool | None = None
    date_from: date | None = None
    date_to: date | None = None
    page: int = 1
    per_page: int = 50
    #: the pages list active sessions first, by latest activity; the API newest first
    active_first: bool = False


class FilterDefaults(TypedDict, total=False):
    """What a caller's sessions list starts from before its query string: the page size, and
    whether active sessions come first (the pages) or the newest (the API)."""

    per_page: int
    active_first: bool


class SessionRow(TypedDict):
    """A session as the lists show it (the API's ``sessions``, the index page's rows)."""

    id: int
    game: str
    name: str
    players: list[str]
    created_at: str | None
    updated_at: str | None
    #: the play log: where, when its first round was played, for how long, whether it counts
    location: str | None
    played_at: str | None
    played_seconds: int
    counted: bool
    rounds: int
    finished: bool
    totals: dict[str, int]
    leaders: list[str]
    winners: list[str]


def read_filter(args: Mapping[str, str], **defaults: Unpack[FilterDefaults]) -> SessionFilter:
    """Return the filter a query string asks for over ``defaults``, or refuse the first bad
    parameter (``invalid_value``, field = the parameter) in the order game, player, location,
    status, from, to, page, per_page."""
    game, player = _text(args, "game"), _text(args, "player")
    place = location_text(_text(args, "location"))
    status = (args.get("status") or args.get("finished") or "").strip().lower()
    if status and status not in STATUSES:
        raise bad_parameter("status", status, "active or finished")
    date_from, date_to = _day(args, "from"), _day(args, "to")
    page = _whole(args, "page", MOST_PAGES)
    per_page = _whole(args, "per_page", MOST_PER_PAGE)
    wanted = SessionFilter(**defaults)
    wanted.game = game or None
    wanted.player = unicodedata.normalize("NFC", player) or None
    wanted.location = place
    if status:
        wanted.finished = STATUSES[status]
    wanted.date_from = date_from or wanted.date_from
    wanted.date_to = date_to or wanted.date_to
    wanted.page = page or wanted.page
    wanted.per_page = per_page or wanted.per_page
    return wanted


def bad_parameter(key: str, value: str, wanted: str) -> MalformedInput:
    """Return the refusal of a query parameter, quoting it."""
    return MalformedInput(
        "invalid_value",
        "The filter {key} must be {wanted}, not {value}.",
        key,
        key=key,
        wanted=wanted,
        value=quote(value),
    )


def _text(args: Mapping[str, str], key: str) -> str:
    """Return a parameter's text, trimmed ("" when absent), refused when not printable."""
    text = (args.get(key) or "").strip()
    if has_control(text):
        raise bad_parameter(key, text, "printable text")
    return text


def _day(args: Mapping[str, str], key: str) -> date | None:
    """Return the day a parameter names in ISO 8601 (2026-11-27), or None when absent."""
    text = (args.get(key) or "").strip()
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        raise bad_parameter(key, text, "a date like 2026-11-27") from None


def _whole(args: Mapping[str, str], key: str, most: int) -> int | None:
    """Return a parameter's whole number from 1 to ``most`` (ASCII digits), or None."""
    text = (args.get(key) or "").strip()
    number = digits_number(text)
    if text and not 1 <= (number or 0) <= most:
        raise bad_parameter(key, text, f"a whole number from 1 to {most}")
    return number


@dataclass
class SessionList:
    """One page of the sessions list: its rows, how many sessions match, how many pages."""

    sessions: list[SessionRow]
    total: int
    pages: int


def list_sessions(wanted: SessionFilter | None = None) -> SessionList:
    """Return one page of sessions and how many match, in a fixed number of queries."""
    wanted = wanted or SessionFilter()
    query = select(GameSession).where(
        GameSession.group_id + 0 == current_group_id(), GameSession.archived.is_(False)
    )
    if wanted.game:
        query = query.where(GameSession.game == wanted.game)
    if wanted.finished is not None:
        query = query.where(GameSession.finished == wanted.finished)
    if wanted.location:
        query = query.where(GameSession.location == wanted.location)
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


def newest_players() -> list[str]:
    """Return the players of the group's newest listed session (none: []), in one read that
    stops at the first row (no count of the group's sessions)."""
    newest = db.session.scalars(
        select(GameSession)
        .where(GameSession.group_id + 0 == current_group_id(), GameSession.archived.is_(False))
        .order_by(GameSession.created_at.desc(), GameSession.id.desc())
        .limit(1)
    ).first()
    return list(newest.players) if newest is not None else []


def day_start(day: date) -> datetime:
    """Return midnight UTC at the start of a day."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def session_row(session: GameSession) -> SessionRow:
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
        "location": session.location,
        "played_at": iso(session.first_round_at),
        "played_seconds": session.played_seconds,
        "counted": session.counted,
        "rounds": session.round_count,
        "finished": session.finished,
        "totals": totals,
        "leaders": top,
        "winners": leaders(totals) if session.finished else [],
    }
