"""A session's export (JSON, what an import replays) and its CSV of per-round deltas."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from sqlalchemy import select

from ...extensions import db
from ...games.game import leaders, running_totals
from ...models import AuditEntry, GameSession, Round, WriteKey, utcnow
from ..sessions import PlayedRound, iso, load_session, round_dict

FORMAT = "refapp-session"
VERSION = 1
#: rows read from the database at a time, and the text sent on at a time
BATCH = 200
CHUNK = 256 * 1024
#: spreadsheet formula starters a cell must not begin with (CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: what a spreadsheet may split a cell at: a locale's list separator (, or ;), a tab, a pipe
CELL_SEPARATOR = re.compile(r"[,;\t|]")


def export(session_id: Any) -> dict[str, Any]:
    """Return a stored session's export as a dict (for a small session: tests, scripts)."""
    data: dict[str, Any] = json.loads(
        "".join(export_chunks(load_session(session_id, with_rounds=False)))
    )
    return data


def export_session(session: GameSession) -> dict[str, Any]:
    """Return a session's export as a dict (for a small session: tests, scripts)."""
    data: dict[str, Any] = json.loads("".join(export_chunks(session)))
    return data


def dumps(value: Any) -> str:
    """Write a value as the API writes JSON: compact, ASCII (every other character escaped)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def read_snapshot() -> None:
    """Make this request's reads see the database as of one moment, however many queries.

    An export (or a backup) reads its rounds and trail in batches: a write landing between two
    of them must not show in one and not the other. SQLite: a read transaction (WAL keeps its
    snapshot); PostgreSQL: REPEATABLE READ. Nothing has been written in this request yet.
    """
    db.session.rollback()
    connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        driver = connection.connection.driver_connection
        assert driver is not None  # an open connection has its driver's connection
        if not driver.in_transaction:
            connection.exec_driver_sql("BEGIN")
    else:
        connection.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


def export_chunks(session: GameSession) -> Iterator[str]:
    """Yield a session's export as JSON text, a batch of rounds or audit entries at a time.

    What an import needs, plus results, totals and winners for a reader. The rounds and the
    trail are read in batches (``yield_per``) and written as they come, so an export holds
    about one batch in memory whatever the session's length: the largest session streams in a
    few tens of MB (docs/deployment.md). Call ``read_snapshot`` first for a consistent read.
    """
    players = session.players
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(utcnow()),
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "location": session.location,
        "players": players,
        "preset": session.preset,
        "rules": dict(session.rules),
        "setup": dict(session.setup or {}),
        "created_at": iso(session.created_at),
        "updated_at": iso(session.updated_at),
        "session_version": session.version,
        "finished": session.finished,
        "finished_by": session.finished_by,
        "finished_at": iso(session.finished_at),
    }
    out = Batches()
    out.add(dumps(head)[:-1] + ',"rounds":[')
    totals = dict.fromkeys(players, 0)
    rounds = select(
        Round.number, Round.input, Round.result, Round.recorded_at, Round.corrected_at
    ).where(Round.session_id == session.id)
    for index, row in enumerate(streamed(rounds.order_by(Round.number))):
        played = PlayedRound(*row)
        totals = running_totals(totals, [played.result["deltas"]])
        out.add(("," if index else "") + dumps(round_dict(played)))
        yield from out.full()
    winners = leaders(totals) if session.finished else []
    out.add(f'],"totals":{dumps(totals)},"winners":{dumps(winners)},"audit":[')
    entries = select(
        AuditEntry.at,
        AuditEntry.action,
        AuditEntry.round_number,
        AuditEntry.before,
        AuditEntry.after,
    ).where(AuditEntry.session_id == session.id)
    for index, (at, action, number, before, after) in enumerate(
        streamed(entries.order_by(AuditEntry.id))
    ):
        entry = {"at": iso(at), "action": action, "round": number, "before": before, "after": after}
        out.add(("," if index else "") + dumps(entry))
        yield from out.full()
    out.add('],"keys":[')
    for index, kept in enumerate(kept_keys(session.id)):
        out.add(("," if index else "") + dumps(kept))
    out.add("]}")
    yield from out.rest()


def kept_keys(session_id: int) -> Iterator[dict[str, Any]]:
    """Yield a session's kept write keys (``services.idempotency``) as exported, oldest first."""
    query = (
        select(WriteKey.key, WriteKey.digest, WriteKey.action, WriteKey.round_number, WriteKey.at)
        .where(WriteKey.session_id == session_id)
        .order_by(WriteKey.id)
    )
    for key, digest, action, number, at in db.session.execute(query):
        yield {"key": key, "digest": digest, "action": action, "round": number, "at": iso(at)}


def streamed(query: Any) -> Iterator[Any]:
    """Yield a query's rows a batch at a time (the database's cursor, not a list)."""
    yield from db.session.execute(query.execution_options(yield_per=BATCH))


class Batches:
    """Pieces of text sent on when they add up to a chunk worth a write."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def add(self, text: str) -> None:
        """Keep a piece."""
        self.parts.append(text)
        self.size += len(text)

    def full(self) -> Iterator[str]:
        """Yield the kept pieces as one chunk once they are large enough."""
        if self.size >= CHUNK:
            yield from self.rest()

    def rest(self) -> Iterator[str]:
        """Yield whatever is kept as one chunk."""
        if self.parts:
            yield "".join(self.parts)
        self.parts, self.size = [], 0


def cell(text: str) -> str:
    """Return text safe for a spreadsheet cell: quoted with ' if a formula could start in it.

    A formula may start at the cell's beginning or after any separator a spreadsheet might split
    at (``x;=1+1`` in a semicolon locale), spaces before it ignored.
    """
    parts = CELL_SEPARATOR.split(text)
    risky = any(part.lstrip().startswith(FORMULA_START) for part in parts)
    return "'" + text if risky else text
