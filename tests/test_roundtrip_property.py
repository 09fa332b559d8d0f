"""Nothing stored is stranded: random sessions built through every write path of the API
(record, correct, replace two rounds, undo, finish, rename, merge) export and import again with
the same rounds and totals, and a backup of them all restores the same sessions."""

from __future__ import annotations

import itertools
import json

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refapp.extensions import db
from refapp.models import GameSession

from .stored_oracle import entry_count, stored_bytes
from .test_archive import comparable, every_session, export, fresh_database
from .test_import_forgery import imported

ACTIONS = ("record", "record", "correct", "correct_two", "undo", "rename", "merge", "finish")
NUMBERS = itertools.count(1)


def dixit_turn(teller: str, players: list[str], twist: bool = False) -> dict:
    """Return a valid turn for ``teller``; with ``twist`` one player votes for another's card."""
    others = [name for name in players if name != teller]
    votes = dict.fromkeys(others, 1)
    if twist:
        votes[others[0]] = 3  # the card of others[1]
    return {"storyteller": teller, "positions": [teller, *others], "votes": votes}


def play(api, actions: list[str], twists: list[bool]) -> int:
    """Build a Dixit session through the API, one action after another; return its id."""
    tag = next(NUMBERS)
    players = [f"P{tag}{letter}" for letter in "abcd"]
    sid = api.create(players=players, rules={"target_score": 10**6})["id"]
    rounds: list[bool] = []  # each round's twist
    for action, twist in zip(actions, itertools.cycle(twists or [False]), strict=False):
        session = api.session(sid)
        count, finished = session["rounds_total"], session["finished"]
        if action == "record" and not finished:
            response = api.record(sid, dixit_turn(players[count % 4], players, twist))
            assert response.status_code == 201, response.get_json()
            rounds.append(twist)
        elif action == "correct" and count:
            number = 1 + (count - 1) * twist
            fixed = dixit_turn(players[(number - 1) % 4], players, not rounds[number - 1])
            response = api.client.put(f"/api/sessions/{sid}/rounds/{number}", json=fixed)
            assert response.status_code == 200, response.get_json()
            rounds[number - 1] = not rounds[number - 1]
        elif action == "correct_two" and count >= 2:
            fixed = {
                str(number): dixit_turn(players[(number - 1) % 4], players, not rounds[number - 1])
                for number in (count - 1, count)
            }
            response = api.client.put(f"/api/sessions/{sid}/rounds", json={"rounds": fixed})
            assert response.status_code == 200, response.get_json()
            rounds[-2:] = [not twist for twist in rounds[-2:]]
        elif action == "undo" and count and session["finished_by"] != "table":
            assert api.client.delete(f"/api/sessions/{sid}/rounds/{count}").status_code == 200
            rounds.pop()
        elif action == "finish" and not finished:
            assert api.client.post(f"/api/sessions/{sid}/finish").status_code == 200
        elif action in ("rename", "merge"):
            seat = count % 4
            new = f"R{next(NUMBERS)}"
            if action == "merge":  # the new name is a player of another table: a merge
                api.create(players=[new, "X1", "X2", "X3"])
            url = f"/api/players/{players[seat]}/rename"
            response = api.client.post(url, json={"name": new})
            assert response.status_code == 200, response.get_json()
            players[seat] = new
    return sid


def same_rounds(copy: dict, original: dict) -> None:
    """Assert a copy has the original's rounds (inputs, deltas), totals and end."""
    assert comparable(copy) == comparable(original)
    assert [(r["input"], r["result"]["deltas"]) for r in copy["rounds"]] == [
        (r["input"], r["result"]["deltas"]) for r in original["rounds"]
    ]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    actions=st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=12),
    twists=st.lists(st.booleans(), max_size=6),
)
def test_every_session_exports_imports_backs_up_and_restores(api, app, tmp_path, actions, twists):
    sid = play(api, ["record", "record", *actions], twists)
    original = api.session(sid)
    copied = imported(api.client, export(api.client, sid))
    same_rounds(copied, original)
    again = imported(api.client, export(api.client, copied["id"]))  # a copy of a copy
    same_rounds(again, original)
    assert len(api.audit(again["id"])) == len(api.audit(copied["id"]))
    assert_room_kept(app)

    before = every_session(api)
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    fresh_database(app)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    after = every_session(api)
    assert [session for session, _ in after] == [session for session, _ in before]
    for (_, trail), (_, old) in zip(after, before, strict=True):
        kept = old[:-1] if old and old[-1]["action"] == "import_session" else old
        assert trail[:-1] == kept and trail[-1]["after"]["source"] == "backup"
    assert json.loads(path.read_text(encoding="utf-8"))["refapp_backup"] == 1
    assert_room_kept(app)


def assert_room_kept(app) -> None:
    """Assert every session's kept entry count and bytes are what its rows hold."""
    with app.app_context():
        for session in db.session.scalars(sa.select(GameSession)):
            kept = (session.audit_count, session.stored_bytes)
            assert kept == (entry_count(session.id), stored_bytes(session.id))
        db.session.remove()
