"""Rows the hot writes (record, correct, undo) read and write below the ORM.

A session, its seats and players, the players' figures and pairs' rows are read by SQLAlchemy
Core into these small objects, with the attribute names the models have, so the services'
counting (figures, standings, marks, ratings, limits) works on either. Each keeps the values it
was read with (``loaded``); a write sends the columns whose values it changed, as the ORM's
flush would, in one Core statement per table (``changed``), and no unit of work runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, Update, bindparam, insert, update

from ..games.game import Table as RulesTable
from ..models import (
    AuditEntry,
    GameSession,
    PairFigures,
    Player,
    PlayerFigures,
    Round,
    SessionPlayer,
    utcnow,
)
from . import prepared


def table_of(model: type[Any]) -> Table:
    """Return a mapped class's table."""
    found = model.__table__
    assert isinstance(found, Table)
    return found


SESSION = table_of(GameSession)
SEAT = table_of(SessionPlayer)
PLAYER = table_of(Player)
FIGURES = table_of(PlayerFigures)
PAIRS = table_of(PairFigures)
ROUND = table_of(Round)
AUDIT = table_of(AuditEntry)


@dataclass(slots=True, eq=False)
class PlayerRow:
    """A seated player: id and name."""

    id: int
    name: str


@dataclass(slots=True, eq=False)
class SeatRow:
    """A seat as stored (``SessionPlayer``) with its player."""

    id: int
    session_id: int
    player_id: int
    seat: int
    tally: dict[str, int] | None
    won: bool
    place: int | None
    seconds: int
    paid: dict[str, int] | None
    player: PlayerRow
    loaded: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class SessionRow:
    """A session as stored (``GameSession``) with its seats in seat order."""

    id: int
    game: str
    name: str
    rules: dict[str, object]
    setup: dict[str, object]
    initial_state: dict[str, object]
    created_at: datetime
    updated_at: datetime
    finished: bool
    round_count: int
    totals: dict[str, int]
    finished_by: str | None
    finished_at: datetime | None
    version: int
    preset: str | None
    audit_count: int
    stored_bytes: int
    first_round_at: datetime | None
    last_round_at: datetime | None
    played_seconds: int
    counted: bool
    rating_due: bool
    figures_due: bool
    marked: int
    location: str | None
    group_id: int
    archived: bool
    seats: list[SeatRow] = field(default_factory=list)
    loaded: dict[str, Any] = field(default_factory=dict)
    #: the state stored with its last round, when read with the session (``hot_rows.take``) or
    #: set by the write that changed its last round (a correction, an undo)
    last_state: dict[str, Any] | None = None
    state_read: bool = False
    #: the seated players' figures rows of its game, read with the seats (``hot_rows.take``)
    figures_read: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    #: the rules' view of its seats and house rules, once worked out (``sessions.table_of``)
    table: RulesTable | None = None

    @property
    def players(self) -> list[str]:
        """Return the seated players' names in seat order."""
        return [seat.player.name for seat in self.seats]


@dataclass(slots=True, eq=False)
class FiguresRow:
    """A player's figures in one game (``PlayerFigures``)."""

    player_id: int
    game: str
    tally: dict[str, int]
    last_played: datetime | None
    streak_current: int
    streak_longest: int
    streak_longest_session: int | None
    last_counted_at: datetime | None
    last_counted_session: int | None
    streaks_due: bool
    loaded: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class PairRow:
    """Two players' head-to-head in one game (``PairFigures``)."""

    game: str
    first_id: int
    second_id: int
    tally: dict[str, int]
    loaded: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecordedRound:
    """A round a record just stored: what its answer is made of, and the state after it."""

    number: int
    input: dict[str, Any]
    result: dict[str, Any]
    state: dict[str, Any]
    recorded_at: datetime
    corrected_at: datetime | None = None


#: a session, seat, player, figures or pair row: the ORM's object, or one read here
SessionLike = GameSession | SessionRow
SeatLike = SessionPlayer | SeatRow
FiguresLike = PlayerFigures | FiguresRow
PairLike = PairFigures | PairRow
#: a row read here, whose changed columns a write sends
Tracked = SessionRow | SeatRow | FiguresRow | PairRow


def loaded_from(row: Tracked, values: Mapping[str, Any]) -> None:
    """Keep the values a row was read with (what ``changed`` compares with)."""
    row.loaded.update(values)


def changed(row: Tracked) -> list[str]:
    """Return the columns whose values the write changed (compared as the ORM's flush does)."""
    return [name for name, was in row.loaded.items() if getattr(row, name) != was]


def write_group(table: Table, rows: Sequence[Tracked], key: Sequence[str], every: bool) -> None:
    """Send the changes of rows of one table by their key columns.

    ``every``: each column any row changed is set in every row (one executemany statement, as
    ``figures.one_update`` makes the ORM send); else each row sends its own changed columns,
    rows changing the same columns in one statement.
    """
    for names, group in grouped(table, rows, every).items():
        made = update_of(table, tuple(key), names)
        params = []
        for row in group:
            values = [row.loaded.get(name, getattr(row, name)) for name in key]
            values.extend([getattr(row, name) for name in names])
            params.append(dict(zip(made.bound, values, strict=True)))
        prepared.run(made.key, made.statement, params)
        for row in group:
            row.loaded.update(zip(names, [getattr(row, name) for name in names], strict=True))


def grouped(
    table: Table, rows: Sequence[Tracked], every: bool
) -> dict[tuple[str, ...], list[Tracked]]:
    """Return the rows by the columns each sends (``write_group``'s ``every``)."""
    groups: dict[tuple[str, ...], list[Tracked]] = {}
    if every:
        columns: set[str] = set()
        for row in rows:
            columns.update(changed(row))
        if columns:
            groups[tuple(c for c in column_order(table) if c in columns)] = list(rows)
        return groups
    for row in rows:
        moved = changed(row)
        if moved:
            groups.setdefault(tuple(moved), []).append(row)
    return groups


#: each table's column names in the table's order, by table name (read once)
ORDER: dict[str, tuple[str, ...]] = {}


def column_order(table: Table) -> tuple[str, ...]:
    """Return a table's column names in its order."""
    found = ORDER.get(table.name)
    if found is None:
        found = ORDER[table.name] = tuple(table.c.keys())
    return found


@dataclass(frozen=True, slots=True)
class Made:
    """An UPDATE made once: the statement, the key it is prepared by and its bound names
    (``key_<name>`` for the key columns, then ``new_<name>`` for those it sets)."""

    statement: Update
    key: str
    bound: tuple[str, ...]


#: the UPDATE statements made so far, by table, key and columns (each is made once)
UPDATES: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Made] = {}


def update_of(table: Table, key: tuple[str, ...], names: tuple[str, ...]) -> Made:
    """Return the UPDATE of these columns of a table by its key columns, made once."""
    found = UPDATES.get((table.name, key, names))
    if found is None:
        where = [table.c[name] == bindparam(f"key_{name}") for name in key]
        statement = (
            update(table)
            .where(*where)
            .values({name: bindparam(f"new_{name}", type_=table.c[name].type) for name in names})
        )
        bound = (*[f"key_{name}" for name in key], *[f"new_{name}" for name in names])
        found = Made(statement, f"update {table.name} {key} {names}", bound)
        UPDATES[(table.name, key, names)] = found
    return found


def write_session(session: SessionRow) -> None:
    """Send the session's changed columns in one UPDATE."""
    write_group(SESSION, [session], ("id",), False)


#: an audit entry's INSERT (made once)
INSERT_AUDIT = insert(AUDIT)


def insert_audit(
    session_id: int, action: str, number: int | None, before: object, after: object
) -> None:
    """Insert one audit entry, stamped now."""
    entry = {
        "session_id": session_id,
        "at": utcnow(),
        "action": action,
        "round_number": number,
        "before": before,
        "after": after,
    }
    prepared.run("audit", INSERT_AUDIT, entry, list(entry))
