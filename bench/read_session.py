"""Print what refapp's reads and writes cost beside floor B, in one run, interleaved.

Usage: python bench/read_session.py [ROUNDS ...]   (default: 30 300 3000)

For each session length (Dixit, 4 players, built through the service; every length built first,
then their passes interleaved) it times, through the test client in this process, refapp and
floor B (bench/floors.py: bare Flask + sqlite3 on a copy of refapp's own database file, one
query per read, one transaction per write) on the same requests, in PASSES interleaved
passes: reading the session (``?rounds=all``), its page, a 304 poll, recording a round
(``?rounds=none``, undone after each sample, untimed), correcting round 1 (each sample a real
change: another legal vote, then the stored one back), and at the longest an export and its
import. Every timed request's whole body is read inside the clock (an export streams: its
headers come long before its last byte) and its status checked after it (a refusal stops the
bench). Each sample is timed in wall time and in this thread's CPU time (the test client runs
the app in this thread): the CPU time is what the other work on a shared machine disturbs least
(an fsync here swings from 0.1 to 9 ms), so the bounds are judged on it, wall beside. Printed:
the medians and their ratios, then the bounds refapp holds itself to: a read at most 1.3x floor
B at every length; a read's growth from 300 to 3000 rounds at most 1.2x floor B's own growth on
the same data (SQLite's part of that growth is the floor's too); the page at 3000 at most 1.3x
the page at 30; a poll at most 1.3x floor B; a record at most 3x (its statements go below the
ORM: services/prepared.py) and a correction of round 1 of 300 at most 5x.
"""

from __future__ import annotations

import gc
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from floors import floor_b

from refapp import create_app, services
from refapp.extensions import db
from refapp.services import prepared

SEATS = ("Ann", "Ben", "Cy", "Dee")
PASSES = 6
SAMPLES = 5
NEVER_ENDING = {"target_score": None, "end_after_rounds": 10**6}
#: one sample: (wall, thread CPU), in ms
Sample = tuple[float, float]
#: each operation's samples: (refapp's, floor B's)
Samples = dict[str, tuple[list[Sample], list[Sample]]]
#: a read's growth from 300 to 3000 rounds at most this times floor B's own growth
GROWTH_MOST = 1.2
#: a record (?rounds=none) at most this times floor B's, and a correction of round 1 of 300
RECORD_MOST = 3.0
CORRECTION_MOST = 5.0


def turn(number: int) -> dict:
    """Return a legal turn for round number (storytellers in seat order)."""
    storyteller = SEATS[number % 4]
    others = [p for p in SEATS if p != storyteller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 2}
    return {"storyteller": storyteller, "positions": [storyteller, *others], "votes": votes}


def other_turn(number: int) -> dict:
    """Return another legal turn for round number (a different vote): a real correction.

    The first voter (seat 2 in ``positions``) votes for the next voter's card (3) instead of
    the storyteller's (1); their own card, 2, would be refused.
    """
    told = turn(number)
    first = next(iter(told["votes"]))
    return {**told, "votes": {**told["votes"], first: 3}}


def corrections() -> Iterator[dict]:
    """Yield round 1's turns, each a change from the one before: another vote, then back."""
    while True:
        yield other_turn(0)
        yield turn(0)


def build(rounds: int, folder: Path):
    """Return (app, session id) of a never-ending Dixit session of the given length."""
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / f'bench{rounds}.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
        sid = services.create_session(
            {"game": "dixit", "players": list(SEATS), "rules": NEVER_ENDING}
        ).id
        for number in range(rounds):
            services.record_round(sid, turn(number))
            db.session.remove()
        prepared.give_back()  # the file is copied next: nothing may keep its last writes apart
        db.engine.dispose()
    return app, sid


def expect(response: Any, status: int, what: str) -> None:
    """Stop the bench when a request was not answered as it should be (no refusal is timed)."""
    if response.status_code != status:
        body = response.get_data()[:300]
        raise SystemExit(f"{what}: {response.status_code}, not {status}: {body!r}")


def timed(
    call: Callable[[], Any], status: int, after: Callable[[], object] | None = None
) -> list[Sample]:
    """Return SAMPLES (wall, thread CPU) times of call() with its whole body read, in ms, each
    answer checked for status (``after`` runs untimed after each)."""
    samples = []
    for _ in range(SAMPLES):
        wall, cpu = time.perf_counter(), time.thread_time()
        response = call()
        response.get_data()  # the whole body: a streamed one (the export) is sent only now
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        response.close()
        expect(response, status, str(response.request.path))
        samples.append((1000 * wall, 1000 * cpu))
        if after is not None:
            after()
    return samples


@dataclass
class Bench:
    """One session length: refapp and floor B on copies of one database file."""

    rounds: int
    app: Any
    sid: int
    ours: Any
    floor: Any
    api: str
    tag: str
    floor_tag: str
    export: Any
    #: round 1's corrections, refapp's and floor B's (each a change from the one before)
    fixes: tuple[Iterator[dict], Iterator[dict]] = (iter(()), iter(()))


def prepare(rounds: int, folder: Path) -> Bench:
    """Build a session of the given length and both apps on it."""
    app, sid = build(rounds, folder)
    shutil.copy(folder / f"bench{rounds}.sqlite", folder / f"floor{rounds}.sqlite")
    ours = app.test_client()
    page = ours.get(f"/sessions/{sid}").data
    floor = floor_b(folder / f"floor{rounds}.sqlite", page).test_client()
    api = f"/api/sessions/{sid}"
    tag = ours.get(f"{api}?rounds=none").headers["ETag"]
    floor_tag = floor.get(api).headers["ETag"]
    export = ours.get(f"{api}/export").get_json()
    fixes = (corrections(), corrections())
    return Bench(rounds, app, sid, ours, floor, api, tag, floor_tag, export, fixes)


def one_pass(bench: Bench, longest: bool, samples: Samples) -> None:
    """Time every operation of one length once more (SAMPLES each, refapp then floor B)."""
    ours, floor, api, sid, rounds = bench.ours, bench.floor, bench.api, bench.sid, bench.rounds

    def both(name: str, status: int, mine, theirs, after_mine=None, after_theirs=None) -> None:
        samples[name][0].extend(timed(mine, status, after_mine))
        samples[name][1].extend(timed(theirs, status, after_theirs))

    both(f"read a session of {rounds} rounds", 200, lambda: ours.get(f"{api}?rounds=all"),
         lambda: floor.get(api))  # fmt: skip
    both(f"session page at {rounds} rounds", 200, lambda: ours.get(f"/sessions/{sid}"),
         lambda: floor.get(f"/sessions/{sid}"))  # fmt: skip
    if rounds == 30:
        both(
            "304 poll",
            304,
            lambda tag=bench.tag: ours.get(f"{api}?rounds=none", headers={"If-None-Match": tag}),
            lambda tag=bench.floor_tag: floor.get(api, headers={"If-None-Match": tag}),
        )
        both(
            "record a round (?rounds=none)",
            201,
            lambda: ours.post(f"{api}/rounds?rounds=none", json=turn(rounds)),
            lambda: floor.post(f"{api}/rounds", json=turn(rounds)),
            lambda: expect(ours.delete(f"{api}/rounds/{rounds + 1}?rounds=none"), 200, "undo"),
            lambda: expect(floor.delete(f"{api}/rounds/{rounds + 1}"), 200, "floor's undo"),
        )
        bench.tag = ours.get(f"{api}?rounds=none").headers["ETag"]
        bench.floor_tag = floor.get(api).headers["ETag"]
    if rounds == 300:
        mine, theirs = bench.fixes
        both(
            f"correct round 1 of {rounds}",
            200,
            lambda: ours.put(f"{api}/rounds/1?rounds=none", json=next(mine)),
            lambda: floor.put(f"{api}/rounds/1", json=next(theirs)),
            lambda: moved(bench),
        )
    if longest:
        both(f"export {rounds}", 200, lambda: ours.get(f"{api}/export"),
             lambda: floor.get(f"{api}/export"))  # fmt: skip
        both(f"import {rounds}", 201, lambda: ours.post("/api/sessions/import", json=bench.export),
             lambda: floor.post("/api/sessions/import", json=bench.export))  # fmt: skip


def moved(bench: Bench) -> None:
    """Check that a correction changed the session (its version moved on): a real change."""
    tag = bench.ours.get(f"{bench.api}?rounds=none").headers["ETag"]
    if tag == bench.tag:
        raise SystemExit(f"correcting round 1 of {bench.rounds} changed nothing ({tag})")
    bench.tag = tag


def measure(lengths: list[int], folder: Path) -> dict[str, tuple[Sample, Sample]]:
    """Return {operation: (refapp's (wall, CPU) p50s, floor B's)} for every length, the lengths'
    passes interleaved (so a ratio between two lengths compares the same moments of the run)."""
    benches = [prepare(rounds, folder) for rounds in lengths]
    gc.collect()
    gc.freeze()  # as every server does once the app is built (refapp.served_app)
    samples: Samples = defaultdict(lambda: ([], []))
    for _ in range(PASSES):
        for bench in benches:
            one_pass(bench, bench.rounds == lengths[-1], samples)
    prepared.give_back()
    for bench in benches:
        with bench.app.app_context():
            db.engine.dispose()
    gc.unfreeze()
    return {name: (medians(mine), medians(theirs)) for name, (mine, theirs) in samples.items()}


def medians(samples: list[Sample]) -> Sample:
    """Return the median wall time and the median CPU time of samples."""
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def main(argv: list[str]) -> None:
    """Measure each length, print the table, then the bounds."""
    lengths = sorted(int(arg) for arg in argv) or [30, 300, 3000]
    with tempfile.TemporaryDirectory() as folder:
        figures = measure(lengths, Path(folder))
    print(
        "\n| operation | refapp wall p50 | floor B wall p50 | wall ratio | refapp CPU p50 "
        "| floor B CPU p50 | CPU ratio |\n|---|---|---|---|---|---|---|"
    )
    for name, (mine, theirs) in figures.items():
        print(
            f"| {name} | {mine[0]:.2f} ms | {theirs[0]:.2f} ms | {mine[0] / theirs[0]:.2f}x "
            f"| {mine[1]:.2f} ms | {theirs[1]:.2f} ms | {mine[1] / theirs[1]:.2f}x |"
        )
    print("\nbounds, judged on thread CPU (wall beside):")
    for what, (cpu, wall), most in bounds(figures, lengths):
        verdict = "yes" if cpu <= most else "NO"
        print(f"  {what:56s} CPU {cpu:6.2f}x  wall {wall:6.2f}x  (at most {most}x: {verdict})")


def bounds(
    figures: dict[str, tuple[Sample, Sample]], lengths: list[int]
) -> list[tuple[str, Sample, float]]:
    """Return each bound refapp holds itself to: (what, (CPU ratio, wall ratio), most)."""

    def ratio(top: Sample, bottom: Sample) -> Sample:
        return top[1] / bottom[1], top[0] / bottom[0]

    found = []
    for rounds in lengths:
        name = f"read a session of {rounds} rounds"
        found.append((f"{name} / floor B", ratio(*figures[name]), 1.3))
    if 300 in lengths and 3000 in lengths:
        (long, floor_long), (short, floor_short) = (
            figures["read a session of 3000 rounds"],
            figures["read a session of 300 rounds"],
        )
        ours, floors = ratio(long, short), ratio(floor_long, floor_short)
        print(
            f"read growth 3000/300 rounds: refapp CPU {ours[0]:.2f}x (wall {ours[1]:.2f}x), "
            f"floor B CPU {floors[0]:.2f}x (wall {floors[1]:.2f}x)"
        )
        found.append(
            (
                "read growth 3000/300 / floor B's growth",
                (ours[0] / floors[0], ours[1] / floors[1]),
                GROWTH_MOST,
            )
        )
    if 30 in lengths:
        page, short_page = f"session page at {lengths[-1]} rounds", "session page at 30 rounds"
        growth = ratio(figures[page][0], figures[short_page][0])
        found.append((f"page at {lengths[-1]} / page at 30", growth, 1.3))
        for name, most in (("304 poll", 1.3), ("record a round (?rounds=none)", RECORD_MOST)):
            found.append((f"{name} / floor B", ratio(*figures[name]), most))
    if 300 in lengths:
        name = "correct round 1 of 300"
        found.append((f"{name} / floor B", ratio(*figures[name]), CORRECTION_MOST))
    return found


if __name__ == "__main__":
    main(sys.argv[1:])
