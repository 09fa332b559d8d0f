"""A session's location: set at its start or later (audited), exported, imported, restored."""

from __future__ import annotations

import json

import pytest

from .conftest import SEED_TURN
from .test_archive import export, fresh_database


def test_a_location_given_at_creation_is_trimmed_nfc_and_audited(api):
    session = api.create(location="  Cafe\u0301   Dixit  ")
    assert session["location"] == "Café Dixit"
    created = api.audit(session["id"])[0]
    assert created["action"] == "create_session"
    assert created["after"]["location"] == "Café Dixit"


@pytest.mark.parametrize("given", [None, "", "   "])
def test_no_location_is_none(api, given):
    session = api.create(location=given)
    assert session["location"] is None
    assert "location" not in api.audit(session["id"])[0]["after"]


@pytest.mark.parametrize("given", ["x" * 61, 7, ["Home"], "Home\nAway", "a\u202eb"])
def test_a_bad_location_is_refused_and_nothing_is_stored(api, client, given):
    response = client.post(
        "/api/sessions", json={"game": "dixit", "players": ["A", "B", "C"], "location": given}
    )
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"]["code"] == "invalid_value"
    assert body["error"]["field"] == "location"
    listed = client.get("/api/sessions").get_json()
    assert listed["total"] == 0


def test_sixty_characters_are_enough(api):
    assert api.create(location="y" * 60)["location"] == "y" * 60


def test_set_later_audited_versioned_and_idempotent(api, client):
    session = api.create()
    sid = session["id"]
    response = client.put(f"/api/sessions/{sid}/location", json={"location": " Ann's flat "})
    assert response.status_code == 200
    changed = response.get_json()
    assert changed["location"] == "Ann's flat"
    assert changed["version"] == session["version"] + 1
    assert response.headers["ETag"] == f'"{changed["version"]}"'
    entry = api.audit(sid)[-1]
    assert entry["action"] == "set_location" and entry["round"] is None
    assert entry["before"] == {"location": None}
    assert entry["after"] == {"location": "Ann's flat"}
    # the same location again writes nothing
    again = client.put(f"/api/sessions/{sid}/location", json={"location": "Ann's flat"})
    assert again.status_code == 200
    assert again.get_json()["version"] == changed["version"]
    assert len(api.audit(sid)) == 2
    # cleared with null
    cleared = client.put(f"/api/sessions/{sid}/location", json={"location": None})
    assert cleared.get_json()["location"] is None
    assert api.audit(sid)[-1]["before"] == {"location": "Ann's flat"}
    assert api.session(sid)["location"] is None
    # the session's history says each change in words
    history = client.get(f"/sessions/{sid}/changes").get_data(as_text=True)
    assert "Where you played set to Ann&#39;s flat." in history
    assert "Where you played cleared." in history
    assert "Other change" not in history


def test_set_later_refusals(api, client):
    sid = api.create()["id"]
    missing = client.put(f"/api/sessions/{sid}/location", json={})
    assert missing.status_code == 422
    assert missing.get_json()["error"]["code"] == "missing_field"
    long = client.put(f"/api/sessions/{sid}/location", json={"location": "z" * 61})
    assert long.status_code == 422 and long.get_json()["error"]["field"] == "location"
    stale = client.put(
        f"/api/sessions/{sid}/location", json={"location": "Home"}, headers={"If-Match": '"99"'}
    )
    assert stale.status_code == 409
    assert client.put("/api/sessions/999/location", json={"location": "x"}).status_code == 404
    assert api.session(sid)["location"] is None
    assert len(api.audit(sid)) == 1


def test_a_finished_session_may_still_get_its_location(api, client):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    response = client.put(f"/api/sessions/{sid}/location", json={"location": "Club"})
    assert response.status_code == 200 and response.get_json()["location"] == "Club"


def test_export_import_keeps_the_location_and_its_trail(api, client):
    sid = api.create(location="Home")["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    client.put(f"/api/sessions/{sid}/location", json={"location": "Club"})
    body = export(client, sid)
    assert body["location"] == "Club"
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    copied = response.get_json()
    assert copied["location"] == "Club"
    assert [entry["action"] for entry in api.audit(copied["id"])] == [
        "create_session",
        "record_round",
        "set_location",
        "import_session",
    ]


def test_an_old_export_without_location_imports(api, client):
    sid = api.create()["id"]
    body = export(client, sid)
    body.pop("location")
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["location"] is None


def test_an_imported_bad_location_is_refused(api, client):
    body = export(client, api.create()["id"])
    body["location"] = "w" * 61
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "location"


def test_backup_and_restore_keep_the_location(api, app, tmp_path):
    sid = api.create(location="Cabin")["id"]
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["sessions"][0]["location"] == "Cabin"
    fresh_database(app)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    assert api.session(sid)["location"] == "Cabin"
