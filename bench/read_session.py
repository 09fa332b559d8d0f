"""Print what refapp costs for a long Dixit session beside a bare Flask floor on this machine.

Usage: python bench/read_session.py [ROUNDS ...]   (default: 30 300 3000)

For each session length it prints the median time (and SQL queries) to record a round, read the
session through the API and read its page, and beside each the floor: a bare Flask app doing
the least the same request needs (returning the same JSON or HTML from memory; inserting one
row into SQLite and returning the same JSON). Recording and reading with ``?rounds=none`` (the
session object without its rounds, what phones at a table poll and record with) are shown
beside the floors of the full answers, and at the end recording with ``?rounds=none`` in the
longest session is compared with the shortest (the API promises the same cost at round 3,000 as
at round 30). All in-process through the test client, SQLite files in a temporary folder.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flask import Flask, Response
from sqlalchemy import event

from refapp import create_app, services
from refapp.extensions import db

SEATS = ("Ann", "Ben", "Cy", "Dee")
REPEATS = 21
NAMES = ("record", "record (none)", "read (API)", "read (none)", "read (page)")
#: the API's promise: recording with ?rounds=none costs the same at round 3,000 as at round 30
FLAT_TARGET = 1.5


def turn(number: int) -> dict:
    """Return a legal turn for round number (storytellers in seat order)."""
    storyteller = SEATS[number % 4]
    others = [p for p in SEATS if p != storyteller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 2}
    return {"storyteller": storyteller, "positions": [storyteller, *others], "votes": votes}


class Counter:
    """Counts SQL statements on an engine."""

    def __init__(self, engine) -> None:
        self.count = 0
        event.listen(engine, "before_cursor_execute", self.bump)

    def bump(self, *args) -> None:
        self.count += 1


def median_ms(call, repeats: int = REPEATS) -> float:
    """Return the median wall time of call() in milliseconds."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def floor_app(folder: Path, read_json: bytes, page_html: bytes, record_json: bytes) -> Flask:
    """Return a bare Flask app answering the same bodies from memory (and inserting one row).

    JSON answers are serialised from the same objects held in memory, as any JSON endpoint
    must; the page is returned as the same bytes.
    """
    floor = Flask("floor")
    floor.json.sort_keys = False
    read_body, record_body = json.loads(read_json), json.loads(record_json)
    connection = sqlite3.connect(folder / "floor.sqlite", check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE IF NOT EXISTS round (id INTEGER PRIMARY KEY, body TEXT)")

    @floor.get("/read")
    def read():
        return read_body

    @floor.get("/page")
    def page():
        return Response(page_html, mimetype="text/html")

    @floor.post("/record")
    def record():
        with connection:
            connection.execute("INSERT INTO round (body) VALUES (?)", (record_json[:200],))
        return record_body, 201

    return floor


def measure(rounds: int, folder: Path) -> dict[str, float]:
    """Build a session of the given length; print and return the figures for it."""
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / f'bench{rounds}.sqlite'}",
        }
    )
    client = app.test_client()
    with app.app_context():
        db.create_all()
        session = services.create_session(
            {
                "game": "dixit",
                "players": list(SEATS),
                "rules": {"target_score": None, "end_after_rounds": 10**6},
            }
        )
        sid = session.id
        started = time.perf_counter()
        for number in range(rounds):
            services.record_round(sid, turn(number))
            db.session.remove()
        build = time.perf_counter() - started
        counter = Counter(db.engine)

    figures: dict[str, float] = {}
    queries: dict[str, int] = {}

    def timed(name: str, call) -> None:
        before = counter.count
        call()
        queries[name] = counter.count - before
        figures[name] = median_ms(call)

    api_path, page_path = f"/api/sessions/{sid}", f"/sessions/{sid}"
    read_json = client.get(api_path).data
    page_html = client.get(page_path).data
    timed("read (API)", lambda: client.get(api_path))
    timed("read (page)", lambda: client.get(page_path))

    timed("read (none)", lambda: client.get(f"{api_path}?rounds=none"))

    # Recording appends; undo after each so every sample records at the same length.
    record_path = f"/api/sessions/{sid}/rounds"
    undo_path = f"{record_path}/{rounds + 1}?rounds=none"
    record_json = client.post(record_path, json=turn(rounds)).data
    client.delete(undo_path)

    def record_median(name: str, path: str) -> None:
        """Time recording round rounds+1 at path (undone after each sample, untimed)."""
        before = counter.count
        assert client.post(path, json=turn(rounds)).status_code == 201
        queries[name] = counter.count - before
        client.delete(undo_path)
        recorded = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            client.post(path, json=turn(rounds))
            recorded.append(time.perf_counter() - start)
            client.delete(undo_path)
        figures[name] = 1000 * statistics.median(recorded)

    record_median("record", record_path)
    record_median("record (none)", f"{record_path}?rounds=none")

    floor = floor_app(folder, read_json, page_html, record_json).test_client()
    floors = {
        "record": median_ms(lambda: floor.post("/record")),
        "read (API)": median_ms(lambda: floor.get("/read")),
        "read (page)": median_ms(lambda: floor.get("/page")),
    }
    print(
        f"\n{rounds} rounds (built through the service in {build:.1f} s; "
        f"API body {len(read_json) // 1024} KiB, page {len(page_html) // 1024} KiB)"
    )
    print(f"  {'request':14s} {'refapp':>10s} {'floor':>10s} {'ratio':>7s} {'queries':>8s}")
    for name in NAMES:
        if name in floors:  # ?rounds=none answers a smaller body: no floor of its own
            beside = f"{floors[name]:8.2f}ms {figures[name] / floors[name]:6.1f}x"
        else:
            beside = f"{'-':>10s} {'-':>7s}"
        print(f"  {name:14s} {figures[name]:8.2f}ms {beside} {queries[name]:8d}")
    with app.app_context():
        db.engine.dispose()
    return figures


def main(argv: list[str]) -> None:
    """Measure each requested session length, then compare the longest with the shortest."""
    lengths = [int(arg) for arg in argv] or [30, 300, 3000]
    with tempfile.TemporaryDirectory() as folder:
        results = {rounds: measure(rounds, Path(folder)) for rounds in lengths}
    if len(lengths) > 1:
        short, long = min(lengths), max(lengths)
        print(f"\n{long} rounds vs {short} (same cost = 1.0x):")
        for name in NAMES:
            print(f"  {name:14s} {results[long][name] / results[short][name]:6.1f}x")
        flat = results[long]["record (none)"] / results[short]["record (none)"]
        verdict = "within" if flat <= FLAT_TARGET else "OVER"
        print(
            f"recording with ?rounds=none at {long} rounds vs {short}: {flat:.2f}x "
            f"({verdict} the {FLAT_TARGET}x target)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
