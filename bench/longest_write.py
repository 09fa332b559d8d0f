"""Time the longest writes refapp allows on SQLite: the busy timeout must lie well above them.

Usage: python bench/longest_write.py [ROUNDS]   (default: the most a session holds, 10,000)

For Dixit and Mighty it builds a session of ROUNDS rounds through the rules, imports it (the
largest import the app allows: one write) and corrects its round 1 under the write lock, each
through the test client on a SQLite file in a temporary folder, and prints how long each write
took. A correction plays again only the rounds whose input or state before changed: another score
in round 1 leaves every later round as stored, while another first dealer of a Mighty session
dealt clockwise moves every later dealer, so all 10,000 hands are played again and written (the
longest correction). Each write's time holding SQLite's write lock is printed too: what other
tables' writes wait for at most (the busy timeout, ``extensions.BUSY_TIMEOUT_MS``, must lie well
above it). It imports the refapp of the checkout it lies in, whatever the environment installed.
Nothing leaves this machine.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

# the refapp of the checkout this script is in (not whichever one the environment installed)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from refapp import create_app
from refapp.extensions import db
from refapp.games import get_game
from refapp.games.game import Table
from refapp.services import prepared, values, writes

SEATS = ("Ann", "Ben", "Cy", "Dee", "Eve")


def dixit_input(number: int, state: dict[str, Any]) -> dict[str, Any]:
    """Return a legal Dixit turn: the next storyteller tells, the others find the card."""
    players = SEATS[:4]
    teller = players[(number - 1) % len(players)]
    others = [p for p in players if p != teller]
    votes = {others[0]: 1, others[1]: 1, others[2]: 2}
    return {"storyteller": teller, "positions": [teller, *others], "votes": votes}


def mighty_input(number: int, state: dict[str, Any]) -> dict[str, Any]:
    """Return a legal Mighty hand: the dealer bids 13 and wins it with the next seat as friend."""
    dealer = state.get("next_dealer") or SEATS[0]
    at = SEATS.index(dealer)
    order = [SEATS[(at + step) % 5] for step in range(5)]
    bidding = [{"player": dealer, "bid": 13, "trump": "S"}]
    bidding += [{"player": name, "pass": True} for name in order[1:]]
    return {
        "dealer": dealer,
        "bidding": bidding,
        "contract": {"boss": dealer, "bid": 13, "trump": "S"},
        "friend": {"card": "JK", "player": order[1]},
        "opposition_points": 3,
    }


def clockwise_input(number: int, state: dict[str, Any]) -> dict[str, Any]:
    """Return the hand mighty_input does, naming its dealer in round 1 only (the rotation
    clockwise from there deals every later one)."""
    entered = mighty_input(number, state)
    if number > 1:
        del entered["dealer"]
    return entered


def rescored(slug: str, entered: dict[str, Any]) -> dict[str, Any]:
    """Return round 1's input with another score that leaves the state after it as it was."""
    if slug == "dixit":
        others = entered["positions"][1:]
        return {**entered, "votes": {**entered["votes"], others[2]: 3}}
    return {**entered, "opposition_points": 5}


def dealt_by_eve(slug: str, entered: dict[str, Any]) -> dict[str, Any]:
    """Return round 1's hand dealt and won by Eve: every later hand's dealer moves one seat."""
    return mighty_input(1, {"next_dealer": "Eve"})


#: the sessions timed: (players, rules, round builder, round 1's correction)
BUILDERS = {
    "dixit": (
        SEATS[:4],
        {"target_score": None, "end_after_rounds": values.MAX_ROUNDS},
        dixit_input,
        rescored,
    ),
    "mighty": (SEATS, {}, mighty_input, rescored),
    "mighty-clockwise": (SEATS, {"next_dealer": "clockwise"}, clockwise_input, dealt_by_eve),
}
#: what each session's correction of round 1 does
CORRECTIONS = {
    "dixit": "another score, every later round kept",
    "mighty": "another score, every later round kept",
    "mighty-clockwise": "another dealer, every later round played again and written",
}
#: how many times each correction is timed (alternately to the new input and back): the median
TIMES = 3


def export_of(slug: str, count: int) -> dict[str, Any]:
    """Return an export of a session of count rounds, each built from the state before it."""
    players, rules, make, _correct = BUILDERS[slug]
    game = get_game(slug.partition("-")[0])
    resolved = game.resolve_rules(rules)
    seated, state = game.start(players, resolved, {})
    table = Table(tuple(seated), dict(resolved))
    rounds = []
    for number in range(1, count + 1):
        entered = make(number, state)
        outcome = game.play(table, state, entered)
        state = outcome.state
        rounds.append({"number": number, "input": outcome.input})
    return {
        "format": "refapp-session",
        "version": 1,
        "game": slug.partition("-")[0],
        "players": list(seated),
        "rules": rules,
        "rounds": rounds,
    }


class LockClock:
    """Times how long each write holds the write lock: from its first ``begin_write`` (SQLite:
    BEGIN IMMEDIATE) to the end of its commit - what other tables' writes may wait for."""

    def __init__(self) -> None:
        self.start: float | None = None
        self.held: list[float] = []
        real_begin, real_commit = writes.begin_write, writes.commit
        real_committed = prepared.committed

        def begin() -> None:
            if self.start is None:
                self.start = time.perf_counter()
            real_begin()

        def ended() -> None:
            if self.start is not None:
                self.held.append(time.perf_counter() - self.start)
            self.start = None

        def commit(conflict=None) -> None:
            try:
                real_commit(conflict)
            finally:
                ended()

        def committed() -> bool:  # a hot write's commit on SQLite's own connection
            done = False
            try:
                done = real_committed()
            finally:
                if done:
                    ended()
            return done

        def give_back() -> None:  # a long correction's lock given back while it is worked out
            real_give_back()
            self.start = None

        real_give_back = writes.give_back
        writes.begin_write, writes.commit, writes.give_back = begin, commit, give_back
        prepared.committed = committed

    def last(self) -> float:
        """Return how long the last write held the lock."""
        return self.held[-1]


def timed(call) -> tuple[float, Any]:
    """Return (seconds, result) of one call."""
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def cpu_timed(call) -> tuple[float, float, Any]:
    """Return (seconds, this process's CPU seconds, result) of one call: on a shared machine
    the CPU seconds vary less than the wall clock's."""
    cpu = time.process_time()
    took, result = timed(call)
    return took, time.process_time() - cpu, result


def main(count: int) -> None:
    """Import and correct a long session of each game; print the seconds each write took."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'b.sqlite'}",
            }
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        clock = LockClock()
        for slug in BUILDERS:
            body = export_of(slug, count)
            took, response = timed(
                partial(client.post, "/api/sessions/import?rounds=none", json=body)
            )
            assert response.status_code == 201, response.get_json()
            sid = response.get_json()["id"]
            print(f"{slug}: import of {count} rounds: {took:.2f} s, lock held {clock.last():.2f} s")
            first = body["rounds"][0]["input"]
            correct = BUILDERS[slug][3]
            url = f"/api/sessions/{sid}/rounds/1?rounds=none"
            took_each, cpu_each, held_each = [], [], []
            for turn in range(TIMES):
                entered = correct(slug, first) if turn % 2 == 0 else first
                took, cpu, response = cpu_timed(partial(client.put, url, json=entered))
                assert response.status_code == 200, response.get_json()
                took_each.append(took)
                cpu_each.append(cpu)
                held_each.append(clock.last())
            print(
                f"{slug}: correction of round 1 of {count} ({CORRECTIONS[slug]}): "
                f"{statistics.median(took_each):.2f} s, {statistics.median(cpu_each):.2f} s CPU, "
                f"lock held {statistics.median(held_each):.2f} s (medians of {TIMES})"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else values.MAX_ROUNDS)
