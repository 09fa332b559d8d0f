"""The hot writes' reads below the ORM: a session taken for a write (or read for a correction's
plan) with its seats and players, the state before a round, and the figures and pairs rows a
write counts in, all by SQLAlchemy Core into ``rows``' objects.

The locks are the ORM path's: the session's row (PostgreSQL ``FOR UPDATE``; SQLite: the write
transaction, ``BEGIN IMMEDIATE``), then the players' figures rows in (player, game) order and the
pairs' rows in key order, each read fresh in a statement of its own after the session's lock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import BindParameter, Select, and_, bindparam, select

from ..club import current_group_id
from ..extensions import db
from . import prepared, sessions, writes
from .figures import Key
from .keyed_rows import keyed_values
from .rows import (
    FIGURES,
    PAIRS,
    PLAYER,
    ROUND,
    SEAT,
    SESSION,
    FiguresLike,
    FiguresRow,
    PairLike,
    PairRow,
    PlayerRow,
    SeatLike,
    SeatRow,
    SessionRow,
    write_group,
)
from .standings import PairKey
from .values import not_found, stored_id

#: the session's row, taken for a write (FOR UPDATE on PostgreSQL; nothing on SQLite)
TAKEN = select(SESSION).where(SESSION.c.id == bindparam("id")).with_for_update()
#: on SQLite, the session's row with the state stored with its last round: the write
#: transaction (BEGIN IMMEDIATE) is taken, so nothing read in it changes until it ends
TAKEN_WITH_STATE = select(
    SESSION,
    select(ROUND.c.state)
    .where(ROUND.c.session_id == SESSION.c.id, ROUND.c.number == SESSION.c.round_count)
    .scalar_subquery(),
).where(SESSION.c.id == bindparam("id"))
#: the session's row, read (a correction's plan, worked out before the lock)
READ = select(SESSION).where(SESSION.c.id == bindparam("id"))
#: the session's seats in seat order, each with its player's name
SEATS = (
    select(SEAT, PLAYER.c.name.label("player_name"))
    .join(PLAYER, PLAYER.c.id == SEAT.c.player_id)
    .where(SEAT.c.session_id == bindparam("id"))
    .order_by(SEAT.c.seat)
)
#: on SQLite, the seats as ``SEATS`` reads them, each with its player's figures row of the
#: session's game (its columns None where there is none yet): what the settle counts in, read
#: in the take's transaction (nothing read in it changes until it ends) when the session counts
SEATS_WITH_FIGURES = (
    select(SEAT, PLAYER.c.name.label("player_name"), FIGURES)
    .join(PLAYER, PLAYER.c.id == SEAT.c.player_id)
    .join(SESSION, SESSION.c.id == SEAT.c.session_id)
    .outerjoin(
        FIGURES, and_(FIGURES.c.player_id == SEAT.c.player_id, FIGURES.c.game == SESSION.c.game)
    )
    .where(SEAT.c.session_id == bindparam("id"))
    .order_by(SEAT.c.seat)
)
#: the columns of a session's row and of a seat's, in the tables' order (as read)
SESSION_COLUMNS = tuple(SESSION.c.keys())
SEAT_COLUMNS = tuple(SEAT.c.keys())
FIGURES_COLUMNS = tuple(FIGURES.c.keys())
#: the columns of a figures row and of a pair's row
FIGURES_KEY = ("player_id", "game")
PAIRS_KEY = ("game", "first_id", "second_id")


def take(session_id: object) -> SessionRow:
    """Take one session for a write and read it fresh with its seats (``writes.lock_session``'s
    lock, below the ORM); objects this request read before are read again when next used."""
    wanted = stored_id(session_id)
    writes.begin_hot_write()
    if db.session.registry.has():  # objects this request read before are read again
        db.session.expire_all()
    if prepared.connection().dialect.name == "sqlite":  # one write at a time: read as taken
        return session_of(session_id, wanted, TAKEN_WITH_STATE)
    return session_of(session_id, wanted, TAKEN)


def read(session_id: object) -> SessionRow:
    """Read a session with its seats, taking nothing (a correction's plan)."""
    return session_of(session_id, stored_id(session_id), READ)


def session_of(session_id: object, wanted: int, query: Select[Any]) -> SessionRow:
    """Return the session of id ``wanted`` read by ``query``, with its seats, or refuse it."""
    kind = "taken" if query is TAKEN else "stated" if query is TAKEN_WITH_STATE else "read"
    read = prepared.run(f"session {kind}", query, {"id": wanted})
    values = (
        dict(zip(SESSION_COLUMNS, read[0][: len(SESSION_COLUMNS)], strict=True)) if read else {}
    )
    if values.get("group_id") != current_group_id():  # none, or another group's: the same 404
        raise not_found(session_id)
    session = SessionRow(**values)
    session.loaded = values.copy()
    if query is TAKEN_WITH_STATE:
        session.last_state, session.state_read = read[0][-1], True
        session.figures_read = {}
    # the figures rows with the seats only where the write counts in them: a write while the
    # session runs changes none (figures.owe)
    if query is not TAKEN_WITH_STATE or not session.counted:
        for row in prepared.run("seats", SEATS, {"id": wanted}):
            seated(session, row)
        return session
    for row in prepared.run("seats with figures", SEATS_WITH_FIGURES, {"id": wanted}):
        figures = dict(zip(FIGURES_COLUMNS, row[len(SEAT_COLUMNS) + 1 :], strict=True))
        if figures["player_id"] is not None:
            session.figures_read[(figures["player_id"], figures["game"])] = figures
        seated(session, row[: len(SEAT_COLUMNS) + 1])
    return session


def seated(session: SessionRow, row: Sequence[Any]) -> None:
    """Add a seat read (its columns, then its player's name) to the session."""
    *stored, name = row
    columns = dict(zip(SEAT_COLUMNS, stored, strict=True))
    seat = SeatRow(**columns, player=PlayerRow(columns["player_id"], name))
    seat.loaded = columns.copy()
    session.seats.append(seat)


def state_before(session: SessionRow, number: int) -> dict[str, Any]:
    """Return the game state before round ``number`` (``sessions.state_before``), from what the
    take read with the session when it is the state after its last round."""
    if session.state_read and number == session.round_count + 1:
        state = session.last_state
        return dict(session.initial_state if number <= 1 or state is None else state)
    return sessions.state_before(session, number)


def state_after(session: SessionRow) -> dict[str, Any] | None:
    """Return the state after the session's last round when the write knows it - the take read
    it with the session (SQLite) and nothing changed it since, or a correction or an undo set
    it as stored - else None: to be read."""
    return state_before(session, session.round_count + 1) if session.state_read else None


def figures_rows(keys: Sequence[Key], read: Mapping[Key, dict[str, Any]]) -> dict[Key, FiguresRow]:
    """Return the figures rows of these (player, game) pairs, locked, adding the missing ones
    (``read``: those the take read with the seats, used when every one of them is there)."""
    found: dict[Key, FiguresRow] = {}
    known = all(key in read for key in keys)
    for values in [read[key] for key in keys] if known else figures_values(keys):
        row = FiguresRow(**values)
        row.loaded.update(values)
        found[(row.player_id, row.game)] = row
    return found


def figures_values(keys: Sequence[Key]) -> list[dict[str, Any]]:
    """Return the figures rows of these keys as values: of one game's players, one statement
    (SQLite's cursor, ``prepared``) when every row is there; else ``keyed_values``."""
    games = {game for _, game in keys}
    players = sorted({player for player, _ in keys})
    if len(games) == 1 and prepared.connection().dialect.name == "sqlite":
        given = {"game": next(iter(games)), **{f"p{at}": id for at, id in enumerate(players)}}
        read = prepared.run(f"figures {len(players)}", of_players(len(players)), given)
        if len(read) == len(players):
            return [dict(zip(FIGURES_COLUMNS, row, strict=True)) for row in read]
    connection = prepared.connection()
    return list(keyed_values(FIGURES, FIGURES_KEY, keys, {"tally": {}}, connection).values())


#: the reads of one game's figures rows of N players, made so far
OF_PLAYERS: dict[int, Select[Any]] = {}


def of_players(count: int) -> Select[Any]:
    """Return the read of one game's figures rows of ``count`` players (``p0``...), made once."""
    found = OF_PLAYERS.get(count)
    if found is None:
        wanted: list[BindParameter[Any]] = [bindparam(f"p{at}") for at in range(count)]
        found = (
            select(FIGURES)
            .where(FIGURES.c.game == bindparam("game"), FIGURES.c.player_id.in_(wanted))
            .order_by(FIGURES.c.player_id)
        )
        OF_PLAYERS[count] = found
    return found


def pair_rows(keys: Sequence[PairKey]) -> dict[PairKey, PairRow]:
    """Return the pairs' rows of these keys, locked in key order, adding the missing ones."""
    found: dict[PairKey, PairRow] = {}
    connection = prepared.connection()
    for values in keyed_values(PAIRS, PAIRS_KEY, keys, {"tally": {}}, connection).values():
        row = PairRow(**values)
        row.loaded.update(values)
        found[(row.game, row.first_id, row.second_id)] = row
    return found


class CoreRows:
    """Where a settle below the ORM reads its figures and pairs rows, and writes what it changed
    in them and in the seats (``figures.settle``'s ``store``)."""

    def __init__(self, session: SessionRow | None = None) -> None:
        self.pairs_read: list[PairRow] = []
        #: the figures rows the take read with the session's seats (used once)
        self.figures_read = {} if session is None else session.figures_read
        if session is not None:
            session.figures_read = {}

    def figures(self, keys: Sequence[Key]) -> Mapping[Key, FiguresLike]:
        """Return the figures rows of these keys (locked, missing ones added)."""
        read, self.figures_read = self.figures_read, {}
        return figures_rows(keys, read)

    def pairs(self, keys: Sequence[PairKey]) -> Mapping[PairKey, PairLike]:
        """Return the pairs' rows of these keys (locked, missing ones added)."""
        found = pair_rows(keys)
        self.pairs_read.extend(found.values())
        return found

    def settled(self, seats: Sequence[SeatLike], figures: Sequence[FiguresLike]) -> None:
        """Write the seats', figures' and pairs' changed columns: seats and figures each in one
        statement setting every column any of them changed (as the ORM path's ``one_update``),
        each pair its own changed tally."""
        write_group(SEAT, [seat for seat in seats if isinstance(seat, SeatRow)], ("id",), True)
        mine = [row for row in figures if isinstance(row, FiguresRow)]
        write_group(FIGURES, mine, FIGURES_KEY, True)
        write_group(PAIRS, self.pairs_read, PAIRS_KEY, False)
        self.pairs_read = []
