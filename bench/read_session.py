"""Print what refapp's reads and writes cost beside floor B, in one run, interleaved.

Usage: python bench/read_session.py [ROUNDS ...]   (default: 30 300 3000)

For each session length (Dixit, 4 players, built through the service; every length built first,
then their passes interleaved) it times, through the test client in this process, refapp and
floor B (bench/floors.py: bare Flask + sqlite3 on a copy of refapp's own database file, one
query per read, one transaction per write) on the same requests, in PASSES interleaved
passes, and prints the medians and their ratios: reading the
session (``?rounds=all``), its page, a 304 poll, recording a round (``?rounds=none``, undone
after each sample, untimed), correcting round 1, and at the longest an export and its import.
Then the bounds refapp holds itself to: a read at most 1.3x floor B at every length, 3000
rounds at most 10.5x 300, the page at 3000 at most 1.3x the page at 30, a poll at most 1.3x
floor B, a record at most 2x.
"""

from __future__ import annotations

import gc
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from floors import floor_b

from refapp import create_app, services
from refapp.extensions import db

SEATS = ("Ann", "Ben", "Cy", "Dee")
PASSES = 6
SAMPLES = 5
#: the bounds, as ratios: (what, numerator, denominator, most)
NEVER_ENDING = {"target_score": None, "end_after_rounds": 10**6}
#: each operation's samples: (refapp's, floor B's), in ms
Samples = dict[str, tuple[list[float], list[float]]]


def turn(number: int) -> dict:
    """Return a legal turn for round number (storytellers in seat order)."""
    storyteller = SEATS[number % 4]
    others = [p for p in SEATS if p != storyteller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 2}
    return {"storyteller": storyteller, "positions": [storyteller, *others], "votes": votes}


def other_turn(number: int) -> dict:
    """Return another legal turn for round number (a different vote): a real correction."""
    told = turn(number)
    first = next(iter(told["votes"]))
    return {**told, "votes": {**told["votes"], first: 2}}


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
        db.engine.dispose()
    return app, sid


def timed(call: Callable[[], object], after: Callable[[], object] | None = None) -> list[float]:
    """Return SAMPLES wall times of call() in ms (``after`` runs untimed after each)."""
    samples = []
    for _ in range(SAMPLES):
        start = time.perf_counter()
        call()
        samples.append(1000 * (time.perf_counter() - start))
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
    return Bench(rounds, app, sid, ours, floor, api, tag, floor_tag, export)


def one_pass(bench: Bench, index: int, longest: bool, samples: Samples) -> None:
    """Time every operation of one length once more (SAMPLES each, refapp then floor B)."""
    ours, floor, api, sid, rounds = bench.ours, bench.floor, bench.api, bench.sid, bench.rounds

    def both(name: str, mine, theirs, after_mine=None, after_theirs=None) -> None:
        samples[name][0].extend(timed(mine, after_mine))
        samples[name][1].extend(timed(theirs, after_theirs))

    both(f"read a session of {rounds} rounds", lambda: ours.get(f"{api}?rounds=all"),
         lambda: floor.get(api))  # fmt: skip
    both(f"session page at {rounds} rounds", lambda: ours.get(f"/sessions/{sid}"),
         lambda: floor.get(f"/sessions/{sid}"))  # fmt: skip
    if rounds == 30:
        both(
            "304 poll",
            lambda tag=bench.tag: ours.get(f"{api}?rounds=none", headers={"If-None-Match": tag}),
            lambda tag=bench.floor_tag: floor.get(api, headers={"If-None-Match": tag}),
        )
        both(
            "record a round (?rounds=none)",
            lambda: ours.post(f"{api}/rounds?rounds=none", json=turn(rounds)),
            lambda: floor.post(f"{api}/rounds", json=turn(rounds)),
            lambda: ours.delete(f"{api}/rounds/{rounds + 1}?rounds=none"),
            lambda: floor.delete(f"{api}/rounds/{rounds + 1}"),
        )
        bench.tag = ours.get(f"{api}?rounds=none").headers["ETag"]
        bench.floor_tag = floor.get(api).headers["ETag"]
    if rounds == 300:
        fixed = other_turn(0) if index % 2 == 0 else turn(0)
        both(
            f"correct round 1 of {rounds}",
            lambda: ours.put(f"{api}/rounds/1?rounds=none", json=fixed),
            lambda: floor.put(f"{api}/rounds/1", json=fixed),
        )
    if longest:
        both(f"export {rounds}", lambda: ours.get(f"{api}/export"),
             lambda: floor.get(f"{api}/export"))  # fmt: skip
        both(f"import {rounds}", lambda: ours.post("/api/sessions/import", json=bench.export),
             lambda: floor.post("/api/sessions/import", json=bench.export))  # fmt: skip


def measure(lengths: list[int], folder: Path) -> dict[str, tuple[float, float]]:
    """Return {operation: (refapp p50, floor B p50)} for every length, the lengths' passes
    interleaved (so a ratio between two lengths compares the same moments of the run)."""
    benches = [prepare(rounds, folder) for rounds in lengths]
    gc.collect()
    gc.freeze()  # as every server does once the app is built (refapp.served_app)
    samples: Samples = defaultdict(lambda: ([], []))
    for index in range(PASSES):
        for bench in benches:
            one_pass(bench, index, bench.rounds == lengths[-1], samples)
    for bench in benches:
        with bench.app.app_context():
            db.engine.dispose()
    gc.unfreeze()
    return {
        name: (statistics.median(mine), statistics.median(theirs))
        for name, (mine, theirs) in samples.items()
    }


def main(argv: list[str]) -> None:
    """Measure each length, print the table, then the bounds."""
    lengths = sorted(int(arg) for arg in argv) or [30, 300, 3000]
    with tempfile.TemporaryDirectory() as folder:
        figures = measure(lengths, Path(folder))
    print("\n| operation | refapp p50 | floor B p50 | ratio |\n|---|---|---|---|")
    for name, (mine, theirs) in figures.items():
        print(f"| {name} | {mine:.2f} ms | {theirs:.2f} ms | {mine / theirs:.2f}x |")
    print()
    bounds = []
    for rounds in lengths:
        name = f"read a session of {rounds} rounds"
        bounds.append((f"{name} / floor B", figures[name][0] / figures[name][1], 1.3))
    if 300 in lengths and 3000 in lengths:
        long, short = (
            figures["read a session of 3000 rounds"],
            figures["read a session of 300 rounds"],
        )
        bounds.append(("read 3000 rounds / read 300", long[0] / short[0], 10.5))
    if 30 in lengths:
        page_long = figures[f"session page at {lengths[-1]} rounds"][0]
        bounds.append((f"page at {lengths[-1]} / page at 30",
                       page_long / figures["session page at 30 rounds"][0], 1.3))  # fmt: skip
        for name, most in (("304 poll", 1.3), ("record a round (?rounds=none)", 2.0)):
            bounds.append((f"{name} / floor B", figures[name][0] / figures[name][1], most))
    for what, ratio, most in bounds:
        print(f"  {what:48s} {ratio:6.2f}x  (at most {most}x: {'yes' if ratio <= most else 'NO'})")


if __name__ == "__main__":
    main(sys.argv[1:])
