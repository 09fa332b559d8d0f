"""Print what a recorded round's own statements cost, below refapp, beside refapp's record and
floor B's.

Usage: python bench/record_parts.py

On copies of one database (a Dixit session of 30 rounds) it times, interleaved, the statements
refapp's record sends (``BEGIN IMMEDIATE``; the session, its seats and the last round's state;
the round, the session's summary, the players' figures, the seats' tallies and the audit entry;
``COMMIT``) through sqlite3 itself and through SQLAlchemy Core, the whole record through
refapp's API in this process (rules, Flask, its statements below the ORM), and floor B's record
(bench/floors.py: bare Flask + sqlite3, one round, one session update and one audit entry).
Each sample's rows are deleted again, untimed. Each is timed in wall time and in this thread's
CPU time (what the other work on a shared machine disturbs least); printed: the medians, and
each one's ratio to floor B's.
"""

from __future__ import annotations

import gc
import json
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from floors import connect, floor_b
from read_session import build, turn
from sqlalchemy import create_engine, text
from timing import read

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


def timed(call: Callable[[], object]) -> tuple[float, float]:
    """Return one call's (wall, thread CPU) time in ms."""
    wall, cpu = time.perf_counter(), time.thread_time()
    call()
    return 1000 * (time.perf_counter() - wall), 1000 * (time.thread_time() - cpu)


def main() -> None:
    """Time each way of recording, interleaved, and print the medians and their ratios."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        app, sid = build(ROUNDS, folder)
        source = folder / f"bench{ROUNDS}.sqlite"
        copies = {name: folder / f"{name}.sqlite" for name in ("sqlite3", "core", "floor")}
        for copy in copies.values():
            shutil.copy(source, copy)
        given = values(connect(source), sid)
        client = app.test_client()
        api = f"/api/sessions/{sid}"
        floor = floor_b(copies["floor"], client.get(f"/sessions/{sid}").data).test_client()
        ways: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
            "statements through sqlite3": (by_sqlite3(copies["sqlite3"], given),
                                           undo(copies["sqlite3"], sid)),
            "statements through SQLAlchemy Core": (by_core(copies["core"], given),
                                                   undo(copies["core"], sid)),
            "refapp's record (?rounds=none)": (
                lambda: read(client.post(f"{api}/rounds?rounds=none", json=turn(ROUNDS)), 201),
                lambda: read(client.delete(f"{api}/rounds/{ROUNDS + 1}?rounds=none")),
            ),
            "floor B's record": (
                lambda: read(floor.post(f"{api}/rounds", json=turn(ROUNDS)), 201),
                lambda: read(floor.delete(f"{api}/rounds/{ROUNDS + 1}")),
            ),
        }  # fmt: skip
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
        gc.collect()
        gc.freeze()  # as every server does once the app is built (refapp.served_app)
        for _ in range(PASSES):
            for name, (call, after) in ways.items():
                samples[name].append(timed(call))
                after()
        medians = {
            name: (statistics.median(w for w, _ in taken), statistics.median(c for _, c in taken))
            for name, taken in samples.items()
        }
        wall_b, cpu_b = medians["floor B's record"]
        print(f"\na round recorded in a Dixit session of {ROUNDS} rounds, {PASSES} samples each")
        for name, (wall, cpu) in medians.items():
            print(
                f"  {name:38s} wall p50 {wall:6.2f} ms ({wall / wall_b:5.2f}x B)  "
                f"CPU p50 {cpu:6.2f} ms ({cpu / cpu_b:5.2f}x B)"
            )
        print(f"  (the statements: {len(STATEMENTS)} besides BEGIN and COMMIT; "
              f"{json.dumps([sql.split()[0] for sql, _ in STATEMENTS])})")  # fmt: skip


if __name__ == "__main__":
    main()
