"""An imported history must replay: from its create_session, each entry applied in order gives
exactly the rounds imported, its times never going backwards; and the limits of an import are
those of a live session (``session_full``), so whatever is stored exports and imports again."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from refapp.extensions import db
from refapp.models import GameSession
from refapp.services import limits

from .conftest import SEED_TURN, migrated_sqlite_app, turn
from .stored_oracle import entry_count, stored_bytes
from .test_archive import dalmuti_session, dixit_session, edited, export, mighty_session, rows
from .test_import_forgery import imported, index_of, refused


def test_a_creation_with_other_players_is_refused_and_never_shown(api, app):
    body = export(api.client, mighty_session(api)["id"])
    body["audit"][0]["after"]["players"] = ["Mallory", "Ben", "Cy", "Dee", "Eve"]
    error = refused(api.client, app, body, "invalid_value", "audit.0.after.players")
    assert "are Mallory, Ben, Cy, Dee and Eve, but the export's are Ann, Ben" in error["message"]


def test_a_creation_of_another_game_or_rules_is_refused(api, app):
    body = export(api.client, dixit_session(api)["id"])
    forged = copy.deepcopy(body)
    forged["audit"][0]["after"]["game"] = "mighty"
    refused(api.client, app, forged, "invalid_value", "audit.0.after.game")
    body["audit"][0]["after"]["rules"] = {"target_score": 30}
    refused(api.client, app, body, "invalid_value", "audit.0.after.rules")


def test_a_recorded_input_that_never_was_is_refused_at_its_entry(api, app):
    body = export(api.client, mighty_session(api)["id"])
    at = index_of(body, "record_round", last=True)
    body["audit"][at]["after"] = {**body["audit"][at]["after"], "opposition_points": 1}
    error = refused(api.client, app, body, "invalid_value", f"audit.{at}.after")
    assert "round 3" in error["message"]


def test_an_invented_correction_is_refused_at_its_before(api, app):
    body = export(api.client, dixit_session(api)["id"])
    at = index_of(body, "replace_round")
    body["audit"][at]["before"] = {**body["audit"][at]["before"], "storyteller": "Dee"}
    refused(api.client, app, body, "invalid_value", f"audit.{at}.before")


def test_an_undo_of_another_input_is_refused(api, app):
    body = export(api.client, dixit_session(api)["id"])
    at = index_of(body, "delete_round")
    body["audit"][at]["before"] = turn("Ann")
    refused(api.client, app, body, "invalid_value", f"audit.{at}.before")


def test_an_entry_dated_before_the_one_above_it_is_refused(api, app):
    body = export(api.client, dixit_session(api)["id"])
    body["audit"][2]["at"] = "2020-01-01T00:00:00+00:00"  # before create_session
    error = refused(api.client, app, body, "invalid_value", "audit.2.at")
    assert "2020-01-01" in error["message"]


def test_a_trail_must_start_with_the_creation_or_an_import(api, app):
    body = export(api.client, dixit_session(api)["id"])
    body["audit"] = body["audit"][1:]
    refused(api.client, app, body, "invalid_value", "audit.0.action")


def test_a_rename_of_a_player_not_at_the_table_is_refused(api, app):
    body = export(api.client, dixit_session(api)["id"])
    moment = body["audit"][-1]["at"]
    rename = {"at": moment, "action": "rename_player", "round": None}
    body["audit"].append({**rename, "before": {"name": "Zed"}, "after": {"name": "Ann"}})
    refused(api.client, app, body, "invalid_value", f"audit.{len(body['audit']) - 1}.after.name")


def test_a_renamed_players_trail_replays_under_its_old_names(api):
    original = dixit_session(api)
    assert api.client.post("/api/players/Ann/rename", json={"name": "Anna"}).status_code == 200
    body = export(api.client, original["id"])
    assert body["audit"][0]["after"]["players"][0] == "Ann" and body["players"][0] == "Anna"
    copied = imported(api.client, body)
    assert copied["totals"] == api.session(original["id"])["totals"]


def test_a_later_import_entry_must_name_the_rounds_of_its_time(api, app):
    body = export(api.client, dixit_session(api)["id"])
    moment = body["audit"][-1]["at"]
    entry = {"at": moment, "action": "import_session", "round": None, "before": None}
    body["audit"].append({**entry, "after": {"source": "export", "rounds": 2}})
    refused(api.client, app, body, "invalid_value", f"audit.{len(body['audit']) - 1}.after.rounds")


def test_a_trail_from_an_import_without_history_replays_from_there(api, app):
    rules = {"target_score": 10**6}
    copied = imported(api.client, edited(rules=rules, rounds=[{"input": SEED_TURN}]))
    sid = copied["id"]
    assert api.record(sid, turn("Ben")).status_code == 201
    fixed = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 1, "Dee": 2}}
    assert api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
    body = export(api.client, sid)
    assert body["audit"][0]["action"] == "import_session"
    again = imported(api.client, body)
    assert again["totals"] == api.session(sid)["totals"]
    at = index_of(body, "record_round")
    body["audit"][at]["after"] = turn("Cy")  # round 2 was never Cy's turn
    refused(api.client, app, body, "invalid_value", f"audit.{at}.after")


def test_a_hand_made_trail_without_times_takes_the_times_around_it(api):
    body = edited(rules={"target_score": 10**6}, rounds=[{"input": SEED_TURN}])
    body["audit"] = [
        {"action": "create_session", "at": "2026-01-01T10:00:00+00:00"},
        {"action": "record_round", "round": 1, "after": SEED_TURN},
    ]
    trail = api.audit(imported(api.client, body)["id"])
    assert trail[1]["at"] == trail[0]["at"] == "2026-01-01T10:00:00+00:00"


# -- the limits of a live session --------------------------------------------------------------


def test_a_live_write_leaves_room_for_an_imports_entry(api, monkeypatch):
    monkeypatch.setattr(limits, "AUDIT_MAX", 4)
    session = api.create(rules={"target_score": 10**6})  # entry 1
    sid = session["id"]
    assert api.record(sid, SEED_TURN).status_code == 201  # 2
    assert api.record(sid, turn("Ben")).status_code == 201  # 3, and 4 for an import
    response = api.record(sid, turn("Cy"))
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "session_full"
    assert api.client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 422
    assert api.session(sid)["rounds_total"] == 2
    body = export(api.client, sid)
    copied = imported(api.client, body)  # 3 entries and its own: 4
    again = imported(api.client, export(api.client, copied["id"]))  # its entry replaced: 4
    assert len(api.audit(again["id"])) == 4
    assert again["totals"] == api.session(sid)["totals"]


def test_an_import_past_the_live_limits_is_session_full(api, app, monkeypatch):
    body = export(api.client, dixit_session(api)["id"])
    monkeypatch.setattr(limits, "AUDIT_MAX", len(body["audit"]))
    refused(api.client, app, body, "session_full", "audit")
    monkeypatch.setattr(limits, "AUDIT_MAX", 100)
    monkeypatch.setattr(limits, "SESSION_MAX_BYTES", 2000)
    refused(api.client, app, body, "session_full", None)


def test_a_live_write_past_the_byte_limit_is_session_full(api, app, monkeypatch):
    session = api.create(rules={"target_score": 10**6})
    sid = session["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    with app.app_context():
        size = stored_bytes(sid)
    assert 1000 < size < 5000
    monkeypatch.setattr(limits, "SESSION_MAX_BYTES", size + 100)  # less than any entry
    stored = rows(app)
    response = api.record(sid, turn("Ben"))
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "session_full"
    assert rows(app) == stored
    fixed = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 1, "Dee": 2}}
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed)
    assert response.get_json()["error"]["code"] == "session_full"
    copied = imported(api.client, export(api.client, sid))  # what was stored comes back
    assert copied["totals"] == api.session(sid)["totals"]


def test_the_room_migration_counts_sessions_stored_before_it(tmp_path):
    app = migrated_sqlite_app(tmp_path / "room.sqlite")
    client = app.test_client()
    sid = client.post(
        "/api/sessions", json={"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    ).get_json()["id"]
    assert client.post(f"/api/sessions/{sid}/rounds", json=SEED_TURN).status_code == 201
    fixed = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 1, "Dee": 2}}
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
    with app.app_context():
        kept = db.session.execute(
            sa.text("SELECT audit_count, stored_bytes FROM game_session WHERE id = :id"),
            {"id": sid},
        ).one()
        counted = (entry_count(sid), stored_bytes(sid))
        db.session.remove()
        downgrade(revision="5c1e9a7d3b20")
        upgrade()
        again = db.session.execute(
            sa.text("SELECT audit_count, stored_bytes FROM game_session WHERE id = :id"),
            {"id": sid},
        ).one()
        db.engine.dispose()
    assert tuple(kept) == counted == tuple(again)
    assert counted[0] == 3 and counted[1] > 1000


def tricks_hand() -> dict:
    """Return a Mighty hand played trick by trick (the worked case MT-01)."""
    golden = Path(__file__).parent / "golden" / "mighty-tricks.json"
    return json.loads(golden.read_text(encoding="utf-8"))[0]["rounds"][0]["input"]


@pytest.mark.parametrize("builder", ["dixit", "mighty", "dalmuti", "tricks"])
def test_an_export_is_never_larger_than_the_bytes_its_session_keeps(api, app, builder):
    if builder == "tricks":
        sid = api.create(players=("Ann", "Ben", "Cy", "Dee", "Eve"), game="mighty")["id"]
        for _ in range(3):
            assert api.record(sid, tricks_hand()).status_code == 201
        assert (
            api.client.put(f"/api/sessions/{sid}/rounds/2", json=tricks_hand()).status_code == 200
        )
    else:
        sid = {"dixit": dixit_session, "mighty": mighty_session, "dalmuti": dalmuti_session}[
            builder
        ](api)["id"]
    response = api.client.get(f"/api/sessions/{sid}/export")
    body = response.get_json()
    header = {key: value for key, value in body.items() if key not in ("rounds", "audit")}
    with app.app_context():
        kept = db.session.get(GameSession, sid).stored_bytes
        assert kept == stored_bytes(sid)
    # what the session keeps bounds its rounds and trail as exported, whatever their text
    assert len(response.data) - len(json.dumps(header)) <= kept
    assert len(json.dumps(header).encode()) < limits.HEADER_BYTES
