"""Print what the statistics across sessions add to a record and a correction.

Usage: python bench/statistics_cost.py [PASSES]   (default 40; BENCH_LATER=N later sessions)

Two apps in this process, each on a SQLite file of its own holding the same history: per game
(Dixit, Mighty, Dalmuti) a session of 30 rounds in play, and a finished one of 30 rounds followed
by LATER counted sessions of the same players. ``kept`` is refapp as it is (every write keeps the
figures, places, pairs, streaks, marks and ratings); ``without`` is the same refapp with those
writes' calls made no-ops (``STATISTICS_CALLS``: services/figures, services/marks and, where
present, services/ratings), built and timed so: the cost a write has without the statistics
(and without the sums per player refapp kept before them: a baseline stricter than BEFORE's).
Each pass times, interleaved, one of each app's writes through its test client (``?rounds=none``):
a round recorded in the session in play (undone after each sample, untimed), its round 15
corrected, and round 15 of the finished session corrected (the last counted one, then one
LATER sessions back). Corrections alternate between two legal inputs, so each sample changes a
round; every answer's status is asserted and its body read. Printed: the thread's CPU time and
the wall time, medians, and kept / without.
Then the bar's own comparison: the same writes timed in refapp now and in refapp as it was
before the statistics began (BEFORE, its tree taken from git into a temporary folder), each run
by this script alone in a process of its own (BENCH_REFAPP naming the tree), in turns
(BENCH_TURNS, default 3): the median of each side's turns, and their ratio (the bar: at most
1.5 for a record and a correction). Between the two: the first statistics read after a
correction of a counted session, which does what the correction left due (its streaks and
ratings), beside a read with nothing due. Figures, not a test: nothing fails on a time.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache, partial
from importlib import import_module
from pathlib import Path
from typing import Any

# the refapp timed: this checkout's (not whichever one the environment installed), or with
# BENCH_REFAPP another tree's (the run of BEFORE below), imported before longest_write uses it
sys.path.insert(0, os.environ.get("BENCH_REFAPP") or str(Path(__file__).resolve().parents[1]))

import refapp  # noqa: F401

# isort: split
from longest_write import export_of, rescored

from refapp import create_app
from refapp.extensions import db

#: this checkout, whose git history holds BEFORE
HERE = Path(__file__).resolve().parents[1]
ROUNDS = 30
CORRECTED = 15
PASSES = 40
#: counted sessions of the same players after the finished one whose round is corrected
LATER = int(os.environ.get("BENCH_LATER", "20"))
#: the writes' calls the statistics' work is behind: (module, names); a module or name a
#: checkout does not have is left alone. Each becomes a no-op in ``without``
STATISTICS_CALLS = (
    (
        "refapp.services.figures",
        (
            "session_created",
            "round_recorded",
            "round_undone",
            "rounds_replaced",
            "round_added",
            "round_taken",
            "session_finished",
            "session_imported",
            "player_merged",
        ),
    ),
    (
        "refapp.services.marks",
        ("round_recorded", "round_undone", "rounds_rewritten", "total_settled", "insert_rows"),
    ),
    ("refapp.services.ratings", ("session_settled", "player_merged")),
)
#: refapp before the statistics across sessions (the commit before they began): today's cost,
#: timed in a second process on the same writes (BENCH_BEFORE= leaves it out)
BEFORE = os.environ.get("BENCH_BEFORE", "74fe193")
#: the turns refapp now and refapp at BEFORE each take, alone, one after the other
TURNS = int(os.environ.get("BENCH_TURNS", "3"))
#: Dalmuti without tribute: a hand's input is its finishing order
DALMUTI_RULES = {"tax": False}
FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
GAMES = ("dixit", "mighty", "dalmuti")


def dalmuti_export(count: int) -> dict[str, Any]:
    """Return an export of a Dalmuti session of count hands (finishing orders in turn)."""
    orders = [FIVE[step:] + FIVE[:step] for step in range(5)]
    rounds = [
        {"number": number, "input": {"finish_order": list(orders[number % 5])}}
        for number in range(1, count + 1)
    ]
    return {"format": "refapp-session", "version": 1, "game": "dalmuti",
            "players": list(FIVE), "rules": DALMUTI_RULES, "rounds": rounds}  # fmt: skip


def corrected_dalmuti(entered: dict[str, Any]) -> dict[str, Any]:
    """Return a hand's input with its first two finishers swapped (every later hand's ranks move:
    the correction plays them again)."""
    order = entered["finish_order"]
    return {**entered, "finish_order": [order[1], order[0], *order[2:]]}


@cache
def inputs_of(game: str) -> list[dict[str, Any]]:
    """Return the inputs of a legal session of ROUNDS + 1 rounds of game (the last one is the
    round each sample records)."""
    body = dalmuti_export(ROUNDS + 1) if game == "dalmuti" else export_of(game, ROUNDS + 1)
    return [played["input"] for played in body["rounds"]]


def other_input(game: str, entered: dict[str, Any]) -> dict[str, Any]:
    """Return another legal input for a round: a real correction."""
    return corrected_dalmuti(entered) if game == "dalmuti" else rescored(game, entered)


def players_of(game: str) -> list[str]:
    """Return the players seated at a session of game."""
    return list(FIVE[:4] if game == "dixit" else FIVE)


def rules_of(game: str) -> dict[str, Any]:
    """Return the house rules of a session of game: none ends before its rounds are played."""
    if game == "dixit":
        return {"target_score": None, "end_after_rounds": 10**6}
    return DALMUTI_RULES if game == "dalmuti" else {}


@contextmanager
def statistics_off() -> Iterator[None]:
    """Make the statistics' calls no-ops while inside (``without``), then put them back."""
    kept: list[tuple[Any, str, Any]] = []
    for module_name, names in STATISTICS_CALLS:
        try:
            module = import_module(module_name)
        except ModuleNotFoundError:
            continue
        for name in names:
            if hasattr(module, name):
                kept.append((module, name, getattr(module, name)))
                setattr(module, name, lambda *args, **kwargs: None)
    try:
        yield
    finally:
        for module, name, call in kept:
            setattr(module, name, call)


@contextmanager
def unchanged() -> Iterator[None]:
    """Change nothing (``kept``)."""
    yield


class Clock:
    """The app's clock, moved on by hand: sessions of earlier days count (idle 12 hours)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **moved: float) -> None:
        """Move the clock on."""
        self.now += timedelta(**moved)


@dataclass
class Table:
    """One app's sessions per game: the one in play, the last finished one, and one LATER back."""

    client: Any
    mode: Callable[[], Any]
    playing: dict[str, int] = field(default_factory=dict)
    last_finished: dict[str, int] = field(default_factory=dict)
    earlier_finished: dict[str, int] = field(default_factory=dict)


def ok(response: Any, status: int) -> None:
    """Assert a write's status and read its whole body."""
    body = response.get_data()
    assert response.status_code == status, body[:300]


def session_of(client: Any, clock: Clock, game: str, finish: bool) -> int:
    """Record a session of ROUNDS rounds of game, three minutes apart; finish it if asked."""
    response = client.post(
        "/api/sessions", json={"game": game, "players": players_of(game), "rules": rules_of(game)}
    )
    ok(response, 201)
    sid = int(response.get_json()["id"])
    for entered in inputs_of(game)[:ROUNDS]:
        clock.advance(minutes=3)
        ok(client.post(f"/api/sessions/{sid}/rounds?rounds=none", json=entered), 201)
    if finish:
        ok(client.post(f"/api/sessions/{sid}/finish"), 200)
    return sid


def imported_later(client: Any, clock: Clock, sid: int) -> None:
    """Import a copy of a session a day later than the clock, and finish it (it counts)."""
    body = client.get(f"/api/sessions/{sid}/export").get_json()
    clock.advance(days=1)
    start = clock.now
    for number, played in enumerate(body["rounds"]):
        played["recorded_at"] = (start + timedelta(minutes=3 * number)).isoformat()
        played["corrected_at"] = None
    body.update(audit=[], keys=[], finished=False, finished_by=None, finished_at=None, winners=[])
    body.update(created_at=start.isoformat(), updated_at=start.isoformat())
    clock.advance(hours=2)
    response = client.post("/api/sessions/import?rounds=none", json=body)
    ok(response, 201)
    ok(client.post(f"/api/sessions/{response.get_json()['id']}/finish"), 200)


def build(folder: Path, name: str, mode: Callable[[], Any]) -> Table:
    """Make an app on its own SQLite file and store the history every pass writes into."""
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / f'{name}.sqlite'}",
        }
    )
    clock = Clock()
    app.config["CLOCK"] = clock
    with app.app_context():
        db.create_all()
    table = Table(app.test_client(), mode)
    with mode():
        for game in GAMES:
            table.earlier_finished[game] = session_of(table.client, clock, game, finish=True)
            for _ in range(LATER - 1):
                imported_later(table.client, clock, table.earlier_finished[game])
            clock.advance(days=1)
            table.last_finished[game] = session_of(table.client, clock, game, finish=True)
            clock.advance(days=1)
        for game in GAMES:  # last, so each is in play: its last round minutes ago, not idle
            table.playing[game] = session_of(table.client, clock, game, finish=False)
    return table


@dataclass
class Timed:
    """One write's samples: thread CPU and wall seconds."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def add(self, call: Callable[[], None]) -> None:
        """Time one call."""
        cpu, wall = time.thread_time(), time.perf_counter()
        call()
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(time.thread_time() - cpu)


def record(table: Table, game: str, samples: Timed, turn: int) -> None:
    """Time recording round ROUNDS + 1 in the session in play, then undo it, untimed."""
    sid, client, entered = table.playing[game], table.client, inputs_of(game)[ROUNDS]
    with table.mode():
        samples.add(
            lambda: ok(client.post(f"/api/sessions/{sid}/rounds?rounds=none", json=entered), 201)
        )
        ok(client.delete(f"/api/sessions/{sid}/rounds/{ROUNDS + 1}?rounds=none"), 200)


def correct(sessions: dict[str, int], table: Table, game: str, samples: Timed, turn: int) -> None:
    """Time correcting round CORRECTED of one of the table's sessions (to another input on even
    turns, back on odd ones)."""
    sid, client = sessions[game], table.client
    entered = inputs_of(game)[CORRECTED - 1]
    body = other_input(game, entered) if turn % 2 == 0 else entered
    url = f"/api/sessions/{sid}/rounds/{CORRECTED}?rounds=none"
    with table.mode():
        samples.add(lambda: ok(client.put(url, json=body), 200))


#: the writes timed: what each is, and how one sample of it is taken
WRITES: dict[str, Callable[[Table, str, Timed, int], None]] = {
    "record a round (session in play)": record,
    f"correct round {CORRECTED} (session in play)": (
        lambda table, *rest: correct(table.playing, table, *rest)
    ),
    f"correct round {CORRECTED} (last counted session)": (
        lambda table, *rest: correct(table.last_finished, table, *rest)
    ),
    f"correct round {CORRECTED} ({LATER} counted sessions back)": (
        lambda table, *rest: correct(table.earlier_finished, table, *rest)
    ),
}


def median_ms(values: list[float]) -> float:
    """Return the median of seconds, in milliseconds."""
    return 1000 * statistics.median(values)


def main(passes: int) -> None:
    """Build both apps, time each write interleaved, print the medians and the ratios; then the
    same writes of refapp before the statistics (BEFORE), in a process of its own."""
    alone = bool(os.environ.get("BENCH_REFAPP"))
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        started = time.perf_counter()
        tables = {"kept": build(folder, "kept", unchanged)}
        if not alone:
            tables["without"] = build(folder, "without", statistics_off)
        print(f"built in {time.perf_counter() - started:.1f} s: per game a session of {ROUNDS} "
              f"rounds in play, and {LATER + 1} counted ones")  # fmt: skip
        samples = {
            (what, game, name): Timed() for what in WRITES for game in GAMES for name in tables
        }
        for turn in range(passes):
            for what, write in WRITES.items():
                for game in GAMES:
                    for name, table in tables.items():
                        write(table, game, samples[(what, game, name)], turn)
    if alone:
        kept = {f"{what}|{game}": median_ms(samples[(what, game, "kept")].cpu)
                for what in WRITES for game in GAMES}  # fmt: skip
        print(json.dumps(kept))
        return
    report(samples, passes)
    moved_to_read(tables["kept"], passes)
    if BEFORE:
        before(passes)


def before(passes: int) -> None:
    """Time the same writes in refapp as it was at BEFORE (its tree from git) and as it is now,
    each alone in a process of its own, in turns (now, then, now, then...: ``TURNS`` times
    each, so a slower minute of the machine falls on both), and print the medians of each
    write's per-turn medians side by side."""
    with tempfile.TemporaryDirectory() as temp:
        archive = subprocess.run(
            ["git", "-C", str(HERE), "archive", BEFORE, "refapp"], capture_output=True, check=False
        )
        if archive.returncode != 0:
            print(f"\n(no refapp at {BEFORE} to compare with: {archive.stderr.decode().strip()})")
            return
        subprocess.run(["tar", "-x", "-C", temp], input=archive.stdout, check=True)
        turns: dict[str, list[dict[str, float]]] = {"now": [], BEFORE: []}
        for _ in range(TURNS):
            for name, tree in (("now", str(HERE)), (BEFORE, temp)):
                turns[name].append(alone(tree, passes))
    print(f"\nthread CPU, ms: the median of {TURNS} turns' medians, refapp now beside refapp at "
          f"{BEFORE}, before the statistics across sessions, each alone in a process of its "
          "own, in turns (the bar: at most 1.5)")  # fmt: skip
    print(f"{'write':<44} {'game':<8} {'now':>9} {BEFORE:>8} {'ratio':>6}")
    for what in WRITES:
        for game in GAMES:
            key = f"{what}|{game}"
            now, old = (statistics.median(turn[key] for turn in turns[name]) for name in turns)
            print(f"{what:<44} {game:<8} {now:>9.2f} {old:>8.2f} {now / old:>6.2f}")


def alone(tree: str, passes: int) -> dict[str, float]:
    """Run this script on the refapp of a tree, alone in a process; return its CPU medians."""
    child = subprocess.run(
        [sys.executable, __file__, str(passes)],
        env={**os.environ, "BENCH_REFAPP": tree},
        capture_output=True,
        text=True,
        check=True,
    )
    timed: dict[str, float] = json.loads(child.stdout.strip().splitlines()[-1])
    return timed


def moved_to_read(table: Table, passes: int) -> None:
    """Print what the first statistics read after a correction of a counted session costs (it
    counts the streaks and replays the ratings the write left due), beside a read with nothing
    due: the work a correction no longer does, where it went."""
    print(f"\nthe statistics read (GET /api/stats?game=), thread CPU medians of {passes}, ms")
    print(f"{'read':<58} {'game':<8} {'CPU':>8}")
    for sessions, back in ((table.last_finished, "the last"), (table.earlier_finished, "20 back")):
        for game in GAMES:
            due, calm = Timed(), Timed()
            read = partial(stats_read, table, game)
            for turn in range(passes):
                correct(sessions, table, game, Timed(), turn)
                due.add(read)
                calm.add(read)
            first = f"first after a correction ({back} counted session)"
            print(f"{first:<58} {game:<8} {median_ms(due.cpu):>8.2f}")
            print(f"{'then, nothing due':<58} {game:<8} {median_ms(calm.cpu):>8.2f}")


def stats_read(table: Table, game: str) -> None:
    """Read one game's statistics (asserting success and reading the body)."""
    ok(table.client.get(f"/api/stats?game={game}"), 200)


def report(samples: dict[tuple[str, str, str], Timed], passes: int) -> None:
    """Print each write's medians, kept beside without, and their ratios."""
    print(f"\nmedians of {passes} samples each, ms; ratio = kept / without")
    print(f"{'write':<44} {'game':<8} {'CPU kept':>9} {'without':>8} {'ratio':>6}"
          f" {'wall kept':>10} {'without':>8} {'ratio':>6}")  # fmt: skip
    for what in WRITES:
        for game in GAMES:
            kept, without = samples[(what, game, "kept")], samples[(what, game, "without")]
            cpu = median_ms(kept.cpu), median_ms(without.cpu)
            wall = median_ms(kept.wall), median_ms(without.wall)
            print(f"{what:<44} {game:<8} {cpu[0]:>9.2f} {cpu[1]:>8.2f} {cpu[0] / cpu[1]:>6.2f}"
                  f" {wall[0]:>10.2f} {wall[1]:>8.2f} {wall[0] / wall[1]:>6.2f}")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else PASSES)
