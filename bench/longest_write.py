"""Time the longest writes refapp allows on SQLite: the busy timeout must lie well above them.

Usage: python bench/longest_write.py [ROUNDS]   (default: the most a session holds, 10,000)

For Dixit and Mighty it builds a session of ROUNDS rounds through the rules, imports it (the
largest import the app allows: one write) and corrects its round 1 (every later round replayed
under the write lock), each through the test client on a SQLite file in a temporary folder, and
prints how long each write took. Nothing leaves this machine.
"""

from __future__ import annotations

import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from refapp import create_app
from refapp.extensions import db
from refapp.games import get_game
from refapp.games.game import Table
from refapp.services import values

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


BUILDERS = {
    "dixit": (
        SEATS[:4],
        {"target_score": None, "end_after_rounds": values.MAX_ROUNDS},
        dixit_input,
    ),
    "mighty": (SEATS, {}, mighty_input),
}


def export_of(slug: str, count: int) -> dict[str, Any]:
    """Return an export of a session of count rounds, each built from the state before it."""
    players, rules, make = BUILDERS[slug]
    game = get_game(slug)
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
        "game": slug,
        "players": list(seated),
        "rules": rules,
        "rounds": rounds,
    }


def timed(call) -> tuple[float, Any]:
    """Return (seconds, result) of one call."""
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


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
        for slug in BUILDERS:
            body = export_of(slug, count)
            took, response = timed(
                partial(client.post, "/api/sessions/import?rounds=none", json=body)
            )
            assert response.status_code == 201, response.get_json()
            sid = response.get_json()["id"]
            print(f"{slug}: import of {count} rounds: {took:.2f} s")
            first = body["rounds"][0]["input"]
            took, response = timed(
                partial(client.put, f"/api/sessions/{sid}/rounds/1?rounds=none", json=first)
            )
            assert response.status_code == 200, response.get_json()
            print(f"{slug}: correction of round 1 of {count}: {took:.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else values.MAX_ROUNDS)
