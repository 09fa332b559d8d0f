"""Data migrations: what an older refapp stored still replays, corrects, exports and imports."""

from __future__ import annotations

import json

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from refapp.extensions import db

from .conftest import migrated_sqlite_app
from .conftest import turn as a_turn
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


#: the first revision: a downgrade to it undoes every later one
FIRST = "472e4780e488"
KEPT_TABLES = ("kept_session_version", "kept_rule_set", "kept_session_preset", "kept_write_key")


def rows(app, query: str) -> list[tuple]:
    """Return a query's rows, read straight from the database."""
    with app.app_context():
        found = [tuple(row) for row in db.session.execute(sa.text(query))]
        db.session.remove()
        return found


def test_a_downgrade_to_the_first_revision_and_back_keeps_what_the_older_schema_cannot(tmp_path):
    """Rule sets, presets, versions above every tag seen, and the keys of untouched sessions."""
    app = migrated_sqlite_app(tmp_path / "round_trip.sqlite")
    client = app.test_client()
    odyssey = {"game": "dixit", "preset": "odyssey", "rules": {"target_score": 40}}
    assert client.put("/api/rule-sets/Friday club", json=odyssey).status_code in (200, 201)
    body = {"game": "dixit", "players": PLAYERS, "rule_set": "Friday club"}
    quiet, written = (client.post("/api/sessions", json=body).get_json()["id"] for _ in range(2))
    for sid in (quiet, written):
        for number in range(3):
            key = {"Idempotency-Key": f"entry-{sid}-{number}"}
            entered = a_turn(PLAYERS[number])
            answer = client.post(f"/api/sessions/{sid}/rounds", json=entered, headers=key)
            assert answer.status_code == 201
    before = {sid: client.get(f"/api/sessions/{sid}") for sid in (quiet, written)}
    assert {answer.get_json()["version"] for answer in before.values()} == {4}
    rule_sets = client.get("/api/rule-sets").get_json()
    with app.app_context():
        db.session.execute(sa.text("INSERT INTO sign_in (digest, at) VALUES ('d', '2026-12-06')"))
        db.session.commit()
        downgrade(revision=FIRST)
        # the older refapp records a round on one session (its audit trail grows)
        db.session.execute(
            sa.text(
                "INSERT INTO audit_entry (session_id, at, action, round_number) "
                "VALUES (:id, '2026-12-06 10:00:00', 'record_round', 4)"
            ),
            {"id": written},
        )
        db.session.commit()
        db.session.remove()
        upgrade()
        db.engine.dispose()

    assert client.get("/api/rule-sets").get_json() == rule_sets
    for sid, earlier in before.items():
        now = client.get(f"/api/sessions/{sid}", headers={"If-None-Match": earlier.headers["ETag"]})
        assert now.status_code == 200  # a tag kept from before never matches again
        session = now.get_json()
        assert session["version"] == 5 and session["preset"] == "odyssey"
        assert session["rules"] == earlier.get_json()["rules"]
    # a resend to the untouched session is stored once; the written one's keys are gone
    resent = client.post(
        f"/api/sessions/{quiet}/rounds",
        json=a_turn(PLAYERS[2]),
        headers={"Idempotency-Key": f"entry-{quiet}-2"},
    )
    assert resent.status_code == 200 and resent.headers["Idempotent-Replayed"] == "true"
    assert rows(app, f"SELECT COUNT(*) FROM write_key WHERE session_id = {quiet}") == [(3,)]
    assert rows(app, f"SELECT COUNT(*) FROM write_key WHERE session_id = {written}") == [(0,)]
    assert rows(app, "SELECT COUNT(*) FROM sign_in") == [(0,)]  # every sign-in ends
    with app.app_context():
        assert set(sa.inspect(db.engine).get_table_names()).isdisjoint(KEPT_TABLES)
    made = client.put("/api/rule-sets/Saturday", json=odyssey)
    assert made.status_code in (200, 201)  # ids go on after the kept ones


def test_a_downgrade_below_everything_keeps_nothing_for_the_next_upgrade(tmp_path):
    app = migrated_sqlite_app(tmp_path / "base.sqlite")
    client = app.test_client()
    odyssey = {"game": "dixit", "preset": "odyssey", "rules": {}}
    assert client.put("/api/rule-sets/Friday club", json=odyssey).status_code in (200, 201)
    with app.app_context():
        downgrade(revision="base")
        upgrade()
        db.engine.dispose()
    assert client.get("/api/rule-sets").get_json() == {"rule_sets": []}
