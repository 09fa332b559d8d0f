"""Print what a recorded round's own statements cost, below refapp, beside refapp's record.

Usage: python bench/record_parts.py

On a copy of one database (a Dixit session of 30 rounds) it times, interleaved, the statements
refapp's record sends (``BEGIN IMMEDIATE``; the session, its seats and the last round's state;
the round, the session's summary, the players' figures, the seats' tallies and the audit entry;
``COMMIT``) through sqlite3 itself and through SQLAlchemy Core, and the whole record through
refapp's API in this process (rules, ORM and Flask). Each sample's rows are deleted again,
untimed. The statements alone, without any Python around them, show how close to floor B
(``bench/read_session.py``: one round, one session update and one audit entry) a record can get.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from floors import connect
from read_session import build, turn
from sqlalchemy import create_engine, text
from timing import median_ms, read

ROUNDS = 30
PASSES = 200
#: refapp's record, statement by statement (what ``services.record_round`` sends)
STATEMENTS = [
    ("SELECT * FROM game_session WHERE id = :sid", False),
    (
        "SELECT * FROM session_player JOIN player ON player.id = session_player.player_id "
        "WHERE session_id = :sid",
        False,
    ),
    ("SELECT state FROM round WHERE session_id = :sid AND number = :last", False),
    (
        "INSERT INTO round (session_id, number, input, result, state, recorded_at, answer, "
        "running) VALUES (:sid, :number, :input, :result, :state, datetime('now'), :answer, "
        ":running)",
        False,
    ),
    (
        "UPDATE game_session SET updated_at = datetime('now'), version = version + 1, "
        "round_count = :number, totals = :running, audit_count = audit_count + 1, "
        "stored_bytes = stored_bytes + 1000 WHERE id = :sid",
        False,
    ),
    ("SELECT * FROM player_figures WHERE player_id IN (1, 2, 3, 4) AND game = 'dixit'", False),
    ("UPDATE player_figures SET tally = :tally WHERE player_id = :player AND game = 'dixit'", True),
    (
        "INSERT INTO audit_entry (session_id, at, action, round_number, before, after) "
        "VALUES (:sid, datetime('now'), 'record_round', :number, NULL, :input)",
        False,
    ),
    (
        "UPDATE session_player SET tally = :tally WHERE session_id = :sid AND player_id = :player",
        True,
    ),
]


def values(database: sqlite3.Connection, sid: int) -> dict[str, object]:
    """Return a stored round's texts (the sizes a record writes) as the statements' values."""
    row = database.execute(
        "SELECT input, result, state, answer, running FROM round WHERE session_id = ? "
        "ORDER BY number DESC LIMIT 1",
        (sid,),
    ).fetchone()
    (tally,) = database.execute("SELECT tally FROM session_player LIMIT 1").fetchone()
    names = ("input", "result", "state", "answer", "running")
    return {"sid": sid, "number": ROUNDS + 1, "last": ROUNDS, "tally": tally or "{}",
            **dict(zip(names, row, strict=True))}  # fmt: skip


def by_sqlite3(path: Path, given: dict[str, object]) -> Callable[[], None]:
    """Return one record's statements sent through sqlite3 itself."""
    database = connect(path)

    def record() -> None:
        database.execute("BEGIN IMMEDIATE")
        for sql, many in STATEMENTS:
            if many:
                database.executemany(sql, [given | {"player": n} for n in (1, 2, 3, 4)])
            else:
                database.execute(sql, given).fetchall()
        database.execute("COMMIT")

    return record


def by_core(path: Path, given: dict[str, object]) -> Callable[[], None]:
    """Return one record's statements sent through SQLAlchemy Core (compiled once, cached)."""
    engine = create_engine(f"sqlite:///{path}")
    compiled = [(text(sql), many) for sql, many in STATEMENTS]

    def record() -> None:
        with engine.connect() as connection:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            for statement, many in compiled:
                if many:
                    connection.execute(statement, [given | {"player": n} for n in (1, 2, 3, 4)])
                else:
                    result = connection.execute(statement, given)
                    if result.returns_rows:
                        result.all()
            connection.exec_driver_sql("COMMIT")

    return record


def undo(path: Path, sid: int) -> Callable[[], None]:
    """Return the untimed clean-up: the sample's round and audit entry deleted."""
    database = connect(path)

    def clean() -> None:
        database.execute("DELETE FROM round WHERE session_id = ? AND number > ?", (sid, ROUNDS))
        database.execute(
            "DELETE FROM audit_entry WHERE session_id = ? AND round_number > ?", (sid, ROUNDS)
        )

    return clean


def main() -> None:
    """Time each way of recording, interleaved, and print the medians."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        app, sid = build(ROUNDS, folder)
        source = folder / f"bench{ROUNDS}.sqlite"
        copies = {name: folder / f"{name}.sqlite" for name in ("sqlite3", "core")}
        for copy in copies.values():
            shutil.copy(source, copy)
        given = values(connect(source), sid)
        client = app.test_client()
        api = f"/api/sessions/{sid}"
        ways: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
            "statements through sqlite3": (by_sqlite3(copies["sqlite3"], given),
                                           undo(copies["sqlite3"], sid)),
            "statements through SQLAlchemy Core": (by_core(copies["core"], given),
                                                   undo(copies["core"], sid)),
            "refapp's record (?rounds=none)": (
                lambda: read(client.post(f"{api}/rounds?rounds=none", json=turn(ROUNDS)), 201),
                lambda: read(client.delete(f"{api}/rounds/{ROUNDS + 1}?rounds=none")),
            ),
        }  # fmt: skip
        samples: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(PASSES):
            for name, (call, after) in ways.items():
                samples[name].append(median_ms(call, 1))
                after()
        print(f"\na round recorded in a Dixit session of {ROUNDS} rounds, {PASSES} samples each")
        for name, taken in samples.items():
            print(f"  {name:38s} p50 {sorted(taken)[len(taken) // 2]:6.2f} ms")
        print(f"  (the statements: {len(STATEMENTS)} besides BEGIN and COMMIT; "
              f"{json.dumps([sql.split()[0] for sql, _ in STATEMENTS])})")  # fmt: skip


if __name__ == "__main__":
    main()
