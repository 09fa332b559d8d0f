"""Data migrations: what an older refapp stored still replays, corrects, exports and imports."""

from __future__ import annotations

import json

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from refapp.extensions import db

from .conftest import migrated_sqlite_app
from .test_archive import export
from .test_import_forgery import imported

#: an Odyssey table of four: one vote each (two only from 7 players)
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
TURN = {"storyteller": "Ann", "positions": ["Ann", "Ben", "Cy", "Dee"]}
TURN["votes"] = {"Ben": 1, "Cy": 1, "Dee": 2}


def test_one_vote_lists_below_seven_players_become_numbers_and_replay(tmp_path):
    app = migrated_sqlite_app(tmp_path / "old.sqlite")
    client = app.test_client()
    body = {"game": "dixit", "players": PLAYERS, "rules": {"two_votes_large_game": True}}
    sid = client.post("/api/sessions", json=body).get_json()["id"]
    assert client.post(f"/api/sessions/{sid}/rounds", json=TURN).status_code == 201
    wanted = client.get(f"/api/sessions/{sid}").get_json()["totals"]
    # as the form stored it before the rules said one vote each below 7: every vote a list
    as_lists = {**TURN, "votes": {voter: [vote] for voter, vote in TURN["votes"].items()}}
    with app.app_context():
        db.session.execute(
            sa.text("UPDATE round SET input = :input WHERE session_id = :id"),
            {"input": json.dumps(as_lists), "id": sid},
        )
        db.session.execute(
            sa.text(
                "UPDATE audit_entry SET after = :input WHERE session_id = :id "
                "AND action = 'record_round'"
            ),
            {"input": json.dumps(as_lists), "id": sid},
        )
        db.session.commit()
        db.session.remove()
    stranded = client.post("/api/sessions/import", json=export(client, sid))
    assert stranded.status_code == 422  # its own export no longer imports
    with app.app_context():
        downgrade(revision="5c1e9a7d3b20")
        upgrade()
        db.engine.dispose()

    session = client.get(f"/api/sessions/{sid}").get_json()
    assert session["rounds"][0]["input"]["votes"] == TURN["votes"]
    assert session["totals"] == wanted
    trail = client.get(f"/api/sessions/{sid}/audit").get_json()["entries"]
    assert [entry["action"] for entry in trail] == [
        "create_session",
        "record_round",
        "replace_round",
    ]
    assert trail[-1]["before"]["votes"]["Ben"] == [1] and trail[-1]["after"] == TURN
    copied = imported(client, export(client, sid))  # its history replays to its rounds
    assert copied["totals"] == wanted
    fixed = {**TURN, "votes": {"Ben": 1, "Cy": 2, "Dee": 2}}
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200


SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def six_turns(count: int) -> list[dict]:
    """Return count six-player turns, storytellers in seat order, everyone finding the card."""
    turns = []
    for number in range(count):
        teller = SIX[number % 6]
        others = [name for name in SIX if name != teller]
        turns.append(
            {
                "storyteller": teller,
                "positions": [teller, *others],
                "votes": dict.fromkeys(others, 1),
            }
        )
    return turns


def test_a_dixit_session_that_played_past_the_last_card_keeps_that_reading(tmp_path):
    """Six players and the deck's end: refapp once played turn 9 after the pile ran out; such a
    session's rules now say end_when_short, and it imports, corrects and restores again."""
    app = migrated_sqlite_app(tmp_path / "old.sqlite")
    client = app.test_client()
    rules = {"deck_exhausted": "end_when_short", "target_score": 10**6}
    sid = client.post("/api/sessions", json={"game": "dixit", "players": SIX, "rules": rules})
    sid = sid.get_json()["id"]
    for turn in six_turns(9):
        assert client.post(f"/api/sessions/{sid}/rounds", json=turn).status_code == 201
    kept = client.post("/api/sessions", json={"game": "dixit", "players": SIX, "rules": rules})
    kept = kept.get_json()["id"]
    for turn in six_turns(8):
        assert client.post(f"/api/sessions/{kept}/rounds", json=turn).status_code == 201
    wanted = client.get(f"/api/sessions/{sid}").get_json()
    assert wanted["finished"] and len(wanted["rounds"]) == 9
    with app.app_context():  # as an older refapp stored them: "end"
        for session_id in (sid, kept):
            stored = db.session.execute(
                sa.text("SELECT rules FROM game_session WHERE id = :id"), {"id": session_id}
            ).scalar_one()
            old = json.dumps({**json.loads(stored), "deck_exhausted": "end"})
            db.session.execute(
                sa.text("UPDATE game_session SET rules = :rules WHERE id = :id"),
                {"rules": old, "id": session_id},
            )
            db.session.execute(
                sa.text(
                    "UPDATE audit_entry SET after = json_set(after, '$.rules.deck_exhausted', "
                    "'end') WHERE session_id = :id AND action = 'create_session'"
                ),
                {"id": session_id},
            )
        db.session.commit()
        db.session.remove()
    stranded = client.post("/api/sessions/import", json=export(client, sid))
    assert stranded.get_json()["error"]["code"] == "session_finished"
    with app.app_context():
        downgrade(revision="505cced5b778")
        upgrade()
        db.engine.dispose()

    session = client.get(f"/api/sessions/{sid}").get_json()
    assert session["rules"]["deck_exhausted"] == "end_when_short"
    assert (session["totals"], session["finished"]) == (wanted["totals"], True)
    trail = client.get(f"/api/sessions/{sid}/audit").get_json()["entries"]
    assert trail[0]["after"]["rules"]["deck_exhausted"] == "end_when_short"
    copied = imported(client, export(client, sid))
    assert (copied["totals"], len(copied["rounds"])) == (wanted["totals"], 9)
    fixed = {**six_turns(1)[0], "votes": {**six_turns(1)[0]["votes"], "Fay": 2}}
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
    untouched = client.get(f"/api/sessions/{kept}").get_json()
    assert untouched["rules"]["deck_exhausted"] == "end" and untouched["finished"] is False
