"""Stored figures under races over real HTTP: one player's sessions written at once lose no count.

The gunicorn server and database of ``test_races_http`` (3 processes of 4 threads, SQLite or
the TEST_DATABASE_URL database).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from refapp.extensions import db

from . import ratings_oracle
from .conftest import make_test_app, turn
from .figures_support import from_the_rounds
from .test_races_http import create, database, http, server, tag, together

__all__ = ["database", "server"]  # the fixtures this module's tests take


def test_one_players_tables_recorded_and_merged_at_once_keep_every_count(server, database):
    who = tag("Fig")
    tables = [[who, f"{who}b{i}", f"{who}c{i}", f"{who}d{i}"] for i in range(4)]
    ids = [create(server, players)[1]["id"] for players in tables]
    other = [f"{who}x", f"{who}y", f"{who}z", f"{who}w"]
    apart = create(server, other)[1]["id"]
    assert http("POST", f"{server}/api/sessions/{apart}/rounds", turn(other[0], other))[0] == 201

    def record(sid: int, players: list[str], step: int):
        url = f"{server}/api/sessions/{sid}/rounds?rounds=none"
        return http("POST", url, turn(players[step % 4], players))

    for step in range(3):
        calls = [
            partial(record, sid, players, step) for sid, players in zip(ids, tables, strict=True)
        ]
        if step == 1:  # the player at the fifth table is merged into them meanwhile
            calls.append(
                partial(http, "POST", f"{server}/api/player/rename?name={other[0]}", {"name": who})
            )
        assert [status for status, _ in together(calls)] == [201] * 4 + [200] * (step == 1)
    finishing = [partial(http, "POST", f"{server}/api/sessions/{sid}/finish") for sid in ids[:2]]
    undoing = [partial(http, "DELETE", f"{server}/api/sessions/{sid}/rounds/3") for sid in ids[2:]]
    assert [status for status, _ in together(finishing + undoing)] == [200] * 4

    status, profile = http("GET", f"{server}/api/player?name={who}")
    assert status == 200
    shown = {
        game: {k: v for k, v in f.items() if k != "title"} for game, f in profile["games"].items()
    }
    assert shown["dixit"]["sessions_played"] == 5
    assert shown["dixit"]["rounds_played"] == 2 * 3 + 2 * 2 + 1
    assert shown["dixit"]["storyteller_turns"] == 4 + 1
    status, answer = http("GET", f"{server}/api/stats?game=dixit")
    assert status == 200
    app = make_test_app(database)
    with app.app_context():
        wanted = from_the_rounds()[who]
        # the two sessions finished at once were rated one after the other, as from scratch
        rated = ratings_oracle.board(datetime.now(UTC), ("dixit",))
        db.session.remove()
        db.engine.dispose()
    assert shown == wanted
    assert answer["ratings"] == rated
    assert {line["name"]: line["rated"] for line in rated}[who] == 2
