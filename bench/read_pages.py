"""Print what a long session's pages cost: the printable summary, the CSV, the history of
changes, the trick and check-a-play pages.

Usage: python bench/read_pages.py [ROUNDS ...]   (default: 10 3000)

For each session length it prints each page's median time, its SQL queries, the rows those
queries returned and the peak memory Python allocated while answering (tracemalloc), and at the
end the longest session's figures beside the shortest's. A session is built by recording a few
rounds through the services, then copying their rows (and an audit entry per round) up to the
length asked (the pages read rows; how they were scored is not what is timed). All in-process
through the test client, SQLite files in a temporary folder.
"""

from __future__ import annotations

import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

import timing
from sqlalchemy import event, insert, select

from refapp import create_app, services
from refapp.extensions import db
from refapp.games.game import running_totals
from refapp.models import AuditEntry, GameSession, Round

REPEATS = 7
DIXIT = ("Ann", "Ben", "Cy", "Dee")
MIGHTY = ("Ann", "Ben", "Cy", "Dee", "Eve")
#: a Mighty hand: Ann bids 13 spades, everyone passes, Cy holds the joker, the friend card
MIGHTY_HAND = {
    "dealer": "Ann",
    "bidding": [
        {"player": "Ann", "bid": 13, "trump": "S"},
        *({"player": name, "pass": True} for name in MIGHTY[1:]),
    ],
    "contract": {"boss": "Ann", "bid": 13, "trump": "S"},
    "friend": {"card": "JK", "player": "Cy"},
    "opposition_points": 3,
}
#: a Dalmuti hand: the tribute paid at the table, the players out in seat order
DALMUTI_HAND = {"tribute": {"paid": True}, "finish_order": list(MIGHTY)}


def dixit_turn(number: int) -> dict:
    """Return a legal Dixit turn for round number (storytellers in seat order)."""
    storyteller = DIXIT[number % 4]
    others = [p for p in DIXIT if p != storyteller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 2}
    return {"storyteller": storyteller, "positions": [storyteller, *others], "votes": votes}


def grow(session_id: int, rounds: int) -> None:
    """Copy a session's recorded rounds, in turn, until it holds ``rounds`` rounds."""
    stored = db.session.execute(
        select(Round.input, Round.result, Round.state, Round.recorded_at)
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    ).all()
    have = len(stored)
    rows = [
        {
            "session_id": session_id,
            "number": number,
            "input": stored[(number - 1) % have].input,
            "result": stored[(number - 1) % have].result,
            "state": stored[-1].state,
            "recorded_at": stored[(number - 1) % have].recorded_at,
        }
        for number in range(have + 1, rounds + 1)
    ]
    if rows:
        db.session.execute(insert(Round), rows)
    last = db.session.scalars(
        select(AuditEntry).where(AuditEntry.session_id == session_id).order_by(AuditEntry.id)
    ).all()[-1]
    entry = {"session_id": session_id, "at": last.at, "action": last.action, "after": last.after}
    trail = [{**entry, "round_number": number} for number in range(have + 1, rounds + 1)]
    if trail:
        db.session.execute(insert(AuditEntry), trail)
    session = db.session.get(GameSession, session_id)
    assert session is not None
    deltas = [stored[(number - 1) % have].result["deltas"] for number in range(1, rounds + 1)]
    session.round_count = rounds
    session.totals = running_totals(dict.fromkeys(session.players, 0), deltas)
    db.session.commit()


def build(game: str, players: tuple[str, ...], bodies: list[dict], rounds: int) -> int:
    """Create a session, record the bodies, copy them up to ``rounds`` rounds; return its id."""
    rules = {"target_score": 10**6} if game == "dixit" else {}
    sid = services.create_session({"game": game, "players": list(players), "rules": rules}).id
    for body in bodies[:rounds]:
        services.record_round(sid, body)
        db.session.remove()
    grow(sid, rounds)
    return sid


class Counter:
    """Counts SQL statements on an engine and the rows the SELECTs return."""

    def __init__(self, engine) -> None:
        self.count = 0
        self.rows = 0
        event.listen(engine, "before_cursor_execute", self.bump)
        event.listen(engine, "after_cursor_execute", self.counted)

    def bump(self, *args: Any) -> None:
        self.count += 1

    def counted(self, conn, cursor, statement, parameters, context, executemany) -> None:
        if executemany or not statement.lstrip().upper().startswith("SELECT"):
            return
        counting = conn.connection.dbapi_connection.cursor()
        counting.execute(f"SELECT count(*) FROM ({statement}) AS counted", parameters)
        self.rows += counting.fetchone()[0]
        counting.close()


def measure(rounds: int, folder: Path) -> dict[str, float]:
    """Build the sessions of the given length; print and return each page's median time."""
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / f'pages{rounds}.sqlite'}",
        }
    )
    client = app.test_client()
    with app.app_context():
        db.create_all()
        dixit = build("dixit", DIXIT, [dixit_turn(n) for n in range(4)], rounds)
        mighty = build("mighty", MIGHTY, [MIGHTY_HAND], rounds)
        dalmuti = build("dalmuti", MIGHTY, [DALMUTI_HAND], rounds)
        counter = Counter(db.engine)
    pages = {
        "print": f"/sessions/{dixit}/print",
        "CSV": f"/sessions/{dixit}.csv",
        "changes": f"/sessions/{dixit}/changes",
        "trick": f"/sessions/{mighty}/trick?trump=S&trick=2&cards=HK,H5",
        "check-play": f"/sessions/{dalmuti}/check-play",
    }
    print(f"\n{rounds} rounds")
    print(f"  {'page':11s} {'median':>10s} {'queries':>8s} {'rows':>7s} {'peak':>9s} {'body':>9s}")
    figures = {}
    for name, path in pages.items():

        def get(path: str = path) -> bytes:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            return response.data  # a streamed answer is read whole here

        before = (counter.count, counter.rows)
        body = get()
        queries, rows = counter.count - before[0], counter.rows - before[1]
        tracemalloc.start()
        get()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        figures[name] = median_ms(get)
        print(
            f"  {name:11s} {figures[name]:8.1f}ms {queries:8d} {rows:7d} "
            f"{peak / 2**20:7.2f}MB {len(body) / 1024:7.0f}KB"
        )
    with app.app_context():
        db.engine.dispose()
    return figures


def median_ms(call) -> float:
    """Return the median wall time of REPEATS calls of call() in milliseconds."""
    return timing.median_ms(call, REPEATS)


def main(argv: list[str]) -> None:
    """Measure each requested session length, then compare the longest with the shortest."""
    lengths = [int(arg) for arg in argv] or [10, 3000]
    with tempfile.TemporaryDirectory() as folder:
        results = {rounds: measure(rounds, Path(folder)) for rounds in lengths}
    if len(lengths) > 1:
        short, long = min(lengths), max(lengths)
        print(f"\n{long} rounds vs {short} (same cost = 1.0x):")
        for name, taken in results[long].items():
            print(f"  {name:11s} {taken / results[short][name]:6.1f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
