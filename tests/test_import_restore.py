"""``flask restore`` keeps each session's id and times, so links and bookmarks still work; an id
already taken gets a new one (and the command says so). A single import is a copy: a new id."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from .conftest import SEED_TURN
from .test_archive import (
    dixit_session,
    export,
    fresh_database,
    mighty_session,
    rows,
)


def when(text: str) -> datetime:
    """Read an API time."""
    return datetime.fromisoformat(text)


def backup_of(api, app, tmp_path) -> dict:
    """Back the database up through the command and return the backup's data."""
    path = tmp_path / "backup.json"
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text(encoding="utf-8"))


def restore(app, tmp_path, data: dict, *options: str):
    """Write data as a backup file and restore it; return the command's result."""
    path = tmp_path / "restore.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return app.test_cli_runner().invoke(args=["restore", *options, str(path)])


def snapshot(api, session_id: int) -> tuple[dict, list]:
    """Return a session object (all but its version) and its audit trail."""
    session = api.session(session_id)
    session.pop("version", None)
    return session, api.audit(session_id)


def test_restore_keeps_ids_and_every_time(api, app, tmp_path):
    dixit_session(api)
    mighty_session(api)
    data = backup_of(api, app, tmp_path)
    for session, new_id in zip(data["sessions"], (7, 4242), strict=True):
        session["id"] = new_id
    fresh_database(app)
    result = restore(app, tmp_path, data)
    assert result.exit_code == 0, result.output
    assert "now session" not in result.output
    for exported in data["sessions"]:
        session, trail = snapshot(api, exported["id"])
        assert session["id"] == exported["id"]
        for key in ("created_at", "updated_at", "finished", "finished_by", "totals", "rounds"):
            assert session[key] == exported[key], key
        assert trail[:-1] == exported["audit"]
        assert trail[-1]["after"]["original_id"] == exported["id"]
        assert export(api.client, exported["id"])["finished_at"] == exported["finished_at"]
    later = api.create()  # the next session comes after the highest restored id
    assert later["id"] == 4243


def test_a_restored_session_moves_its_version_on_so_no_cached_copy_matches(api, app, tmp_path):
    sid = dixit_session(api)["id"]
    response = api.client.get(f"/api/sessions/{sid}")
    version, etag = response.get_json()["version"], response.headers["ETag"]
    data = backup_of(api, app, tmp_path)
    assert data["sessions"][0]["session_version"] == version
    fresh_database(app)
    assert restore(app, tmp_path, data).exit_code == 0
    response = api.client.get(f"/api/sessions/{sid}", headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert response.get_json()["version"] == version + 1
    data["sessions"][0].pop("session_version")  # an older backup: past one per audit entry
    fresh_database(app)
    assert restore(app, tmp_path, data).exit_code == 0
    assert api.session(sid)["version"] == len(data["sessions"][0]["audit"]) + 2


def test_restore_into_a_fresh_database_keeps_the_same_ids(api, app, tmp_path):
    ids = [dixit_session(api)["id"], mighty_session(api)["id"]]
    before = [snapshot(api, sid) for sid in ids]
    data = backup_of(api, app, tmp_path)
    fresh_database(app)
    assert restore(app, tmp_path, data).exit_code == 0
    after = [snapshot(api, sid) for sid in ids]
    assert [session for session, _ in after] == [session for session, _ in before]
    assert [trail[:-1] for _, trail in after] == [trail for _, trail in before]


def test_forced_restore_gives_a_taken_id_a_new_one_and_says_so(api, app, tmp_path):
    dixit_session(api)
    mighty_session(api)
    data = backup_of(api, app, tmp_path)
    data["sessions"][1]["id"] = 5
    fresh_database(app)
    api.create()  # takes id 1
    result = restore(app, tmp_path, data, "--force")
    assert result.exit_code == 0, result.output
    assert "Session 1 of the backup is now session 6: its id was taken." in result.output
    assert api.session(5)["game"] == "mighty"
    assert api.session(6)["game"] == "dixit"
    assert api.session(1)["rounds"] == []
    assert api.audit(6)[-1]["after"]["original_id"] == 1
    assert api.create()["id"] == 7


@pytest.mark.parametrize("ids", [[3, 3], [None, 3], ["3", 3], [2**40, 3], [0, 3], [True, 3]])
def test_an_id_that_cannot_be_kept_gets_a_new_one(api, app, tmp_path, ids):
    dixit_session(api)
    dixit_session(api)
    data = backup_of(api, app, tmp_path)
    for session, old in zip(data["sessions"], ids, strict=True):
        session["id"] = old
    fresh_database(app)
    result = restore(app, tmp_path, data)
    assert result.exit_code == 0, result.output
    assert "is now session 4" in result.output
    assert rows(app)["GameSession"] == 2
    assert api.session(3)["id"] == 3 and api.session(4)["id"] == 4


def test_a_backup_without_updated_at_takes_the_last_time_it_knows(api, app, tmp_path):
    sid = dixit_session(api)["id"]
    data = backup_of(api, app, tmp_path)
    exported = data["sessions"][0]
    exported.pop("updated_at")
    fresh_database(app)
    assert restore(app, tmp_path, data).exit_code == 0
    times = [exported["created_at"], exported["finished_at"]]
    times += [played["recorded_at"] for played in exported["rounds"]]
    times += [played["corrected_at"] for played in exported["rounds"] if played["corrected_at"]]
    times += [entry["at"] for entry in exported["audit"]]
    latest = max(when(time) for time in times)
    assert when(api.session(sid)["updated_at"]) == latest


def test_a_single_import_is_a_copy_with_a_new_id_and_time(api):
    original = dixit_session(api)
    body = export(api.client, original["id"])
    assert body["updated_at"] == original["updated_at"]
    response = api.client.post("/api/sessions/import", json=body)
    copied = response.get_json()
    assert copied["id"] != original["id"]
    assert copied["created_at"] == original["created_at"]
    assert when(copied["updated_at"]) > when(original["updated_at"])


def test_an_export_without_updated_at_imports(api):
    session = api.create()
    api.record(session["id"], SEED_TURN)
    body = export(api.client, session["id"])
    body.pop("updated_at")
    assert api.client.post("/api/sessions/import", json=body).status_code == 201
