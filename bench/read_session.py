"""Print how long refapp takes to record a Dixit round and to read a long session (API and page).

Usage: python bench/read_session.py [ROUNDS ...]   (default: 300 3000)
Runs in-process on a temporary SQLite file; prints medians and SQL queries per request.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import event

from refapp import create_app
from refapp.extensions import db

SEATS = ("Ann", "Ben", "Cy", "Dee")
REPEATS = 15


def turn(number: int) -> dict:
    """Return a legal turn for round number (storytellers in seat order)."""
    storyteller = SEATS[number % 4]
    others = [p for p in SEATS if p != storyteller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 2}
    return {"storyteller": storyteller, "positions": [storyteller, *others], "votes": votes}


def timed(client, method: str, path: str, engine, body=None) -> tuple[float, int]:
    """Return (seconds, SQL queries) for one request, asserting it succeeded."""
    queries = 0

    def count(*args):
        nonlocal queries
        queries += 1

    event.listen(engine, "before_cursor_execute", count)
    start = time.perf_counter()
    response = client.open(path, method=method, json=body)
    elapsed = time.perf_counter() - start
    event.remove(engine, "before_cursor_execute", count)
    assert response.status_code in (200, 201), response.get_data(as_text=True)[:300]
    return elapsed, queries


def measure(rounds: int, folder: Path) -> None:
    """Build a session of the given length and print the figures for it."""
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / f'bench{rounds}.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
        engine = db.engine
    client = app.test_client()
    created = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": list(SEATS), "rules": {"target_score": None}},
    )
    sid = created.get_json()["id"]
    started = time.perf_counter()
    for number in range(rounds - 1):
        client.post(f"/api/sessions/{sid}/rounds", json=turn(number))
    build = time.perf_counter() - started
    record = timed(client, "POST", f"/api/sessions/{sid}/rounds", engine, turn(rounds - 1))
    print(f"\n{rounds} rounds (built in {build:.1f} s, {1000 * build / rounds:.2f} ms a round)")
    print(f"  record one round        {1000 * record[0]:8.2f} ms   {record[1]} queries")
    for label, path in (
        ("read session (API)", f"/api/sessions/{sid}"),
        ("read session (page)", f"/sessions/{sid}"),
    ):
        samples = [timed(client, "GET", path, engine) for _ in range(REPEATS)]
        median = statistics.median(s[0] for s in samples)
        print(
            f"  {label:22s}  {1000 * median:8.2f} ms   {samples[0][1]} queries (median of "
            f"{REPEATS})"
        )
    with app.app_context():
        db.engine.dispose()


def main(argv: list[str]) -> None:
    """Measure each requested session length."""
    lengths = [int(arg) for arg in argv] or [300, 3000]
    with tempfile.TemporaryDirectory() as folder:
        for rounds in lengths:
            measure(rounds, Path(folder))


if __name__ == "__main__":
    main(sys.argv[1:])
