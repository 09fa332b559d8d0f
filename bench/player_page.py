"""Print what a player's page and API answer cost for a short and a long history.

Usage: python bench/player_page.py [ROUNDS ...]   (default: 10 1000 10000 35000)

For each history (a Dixit player of ROUNDS rounds, in sessions of at most 10,000) it prints the
median time, SQL queries and rows read of ``GET /api/players/<name>`` and of the page
``/players/<name>``, beside the floor: a bare Flask app returning the same JSON from memory.
Four rounds are recorded through the API per session and copied in bulk; then ``flask
rebuild-figures`` counts the figures (a refapp that has no such command reads the rounds). Run
it from a checkout to compare that checkout's refapp. In-process, SQLite in a temporary folder.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import timing
from flask import Flask
from sqlalchemy import event, insert, select, text, update

from refapp import create_app
from refapp.extensions import db
from refapp.models import GameSession, Round

REPEATS = 15
MOST = 10_000  # rounds a session holds


def turn(teller: str, seats: tuple[str, ...]) -> dict:
    """Return a turn in which everyone but the storyteller finds the card."""
    others = [name for name in seats if name != teller]
    return {
        "storyteller": teller,
        "positions": [teller, *others],
        "votes": dict.fromkeys(others, 1),
    }


def median_ms(call) -> float:
    """Return the median wall time of REPEATS calls of call() in milliseconds."""
    return timing.median_ms(call, REPEATS)


def build(app, client, rounds: int, tag: str) -> str:
    """Seat a player at sessions holding ``rounds`` rounds in all; return the player's name."""
    seats = tuple(f"{tag}{letter}" for letter in "ABCD")
    left = rounds
    while left > 0:
        size = min(left, MOST)
        left -= size
        sid = client.post(
            "/api/sessions",
            json={"game": "dixit", "players": list(seats), "rules": {"target_score": 10**6}},
        ).get_json()["id"]
        for number in range(min(size, 4)):
            client.post(f"/api/sessions/{sid}/rounds?rounds=none", json=turn(seats[number], seats))
        with app.app_context():
            played = db.session.execute(
                select(Round.input, Round.result, Round.state).where(Round.session_id == sid)
            ).all()
            copies = [
                {"session_id": sid, "number": n, **played[(n - 1) % 4]._asdict()}
                for n in range(5, size + 1)
            ]
            for start in range(0, len(copies), 2000):
                db.session.execute(insert(Round), copies[start : start + 2000])
            db.session.execute(
                update(GameSession).where(GameSession.id == sid).values(round_count=size)
            )
            db.session.commit()
    return seats[0]


def measure(app, client, path: str) -> tuple[float, int, int, bytes]:
    """Return the median ms, the queries and rows read of one GET, and its body."""
    counted = {"queries": 0, "rows": 0}

    def count(conn, cursor, statement, parameters, context, executemany) -> None:
        counted["queries"] += 1
        if not executemany and statement.lstrip().upper().startswith("SELECT"):
            cursor2 = conn.connection.dbapi_connection.cursor()
            cursor2.execute(f"SELECT count(*) FROM ({statement}) AS counted", parameters)
            counted["rows"] += cursor2.fetchone()[0]
            cursor2.close()

    with app.app_context():
        engine = db.engine
    event.listen(engine, "after_cursor_execute", count)
    body = client.get(path).get_data()
    event.remove(engine, "after_cursor_execute", count)
    taken = median_ms(lambda: timing.read(client.get(path)))
    return taken, counted["queries"], counted["rows"], body


def floor_ms(body: bytes) -> float:
    """Return the median ms of a bare Flask app answering the same JSON from memory."""
    floor = Flask("floor")
    floor.json.sort_keys = False
    held = json.loads(body)
    floor.add_url_rule("/p", "p", lambda: held)
    client = floor.test_client()
    return median_ms(lambda: timing.read(client.get("/p")))


def main(lengths: list[int]) -> None:
    """Build each history in one database and print the costs of reading it."""
    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}"}
    )
    with app.app_context():
        db.create_all()
        db.session.execute(text("PRAGMA journal_mode=WAL"))
    client = app.test_client()
    names = {
        rounds: build(app, client, rounds, f"P{index}") for index, rounds in enumerate(lengths)
    }
    rebuilt = app.test_cli_runner().invoke(args=["rebuild-figures"])
    print(
        rebuilt.output.strip() if rebuilt.exit_code == 0 else "(no rebuild-figures: reads rounds)"
    )
    print(f"{'rounds':>7} {'what':<22} {'ms':>8} {'queries':>8} {'rows':>7} {'floor ms':>9}")
    for rounds, name in names.items():
        for what, path in (
            ("GET /api/players/<n>", f"/api/players/{name}"),
            ("page /players/<n>", f"/players/{name}"),
        ):
            ms, queries, rows, body = measure(app, client, path)
            floor = floor_ms(body) if path.startswith("/api/") else float("nan")
            print(f"{rounds:>7} {what:<22} {ms:>8.2f} {queries:>8} {rows:>7} {floor:>9.2f}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [10, 1000, 10_000, 35_000])
