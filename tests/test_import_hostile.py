"""Hostile imports: text that is not Unicode, numbers no database keeps, times out of range.

Each would once have been stored and then broken a backup, the changes page or a restore onto
PostgreSQL; now the import is refused (422, nothing stored).
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta

import pytest

from refapp.services import archive
from refapp.services.archive import backups, exports

from .conftest import SEED_TURN
from .test_archive import MINIMAL, dixit_session, edited, export, rows, seed_result

CREATE = {"action": "create_session", "round": None, "before": None, "after": {}}
RECORD = {"action": "record_round", "round": 1, "before": None, "after": SEED_TURN}


def with_audit(*entries: dict) -> dict:
    """Return the minimal export with an audit trail: created, then round 1 recorded."""
    return edited(audit=[copy.deepcopy(CREATE), *(copy.deepcopy(entry) for entry in entries)])


def refused(client, app, body, field: str | None, code: str = "invalid_value") -> dict:
    """Post an import, assert it is refused with code at field and stores nothing."""
    stored = rows(app)
    if isinstance(body, str):
        response = client.post("/api/sessions/import", data=body, content_type="application/json")
    else:
        response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert rows(app) == stored
    return error


LONE = "\ud800"


def surrogate_bodies():
    """Yield (body, field) with a lone surrogate somewhere an import once stored it."""
    yield with_audit({**RECORD, "before": {"note": LONE}}), "audit.1.before.note"
    yield with_audit({**RECORD, "after": {"votes": {"Ben": [LONE]}}}), "audit.1.after.votes.Ben.0"
    yield with_audit({**RECORD, "after": {LONE: 1}}), "audit.1.after"
    yield edited(rounds=[{"input": {**SEED_TURN, "note": "x" + LONE}}]), "rounds.0.input.note"
    yield edited(name="Friday " + LONE), "name"
    yield edited(players=["Ann", "Ben", "Cy", LONE]), "players.3"
    yield edited(exported_at=LONE), "exported_at"
    yield edited(setup={"deep": [{"er": LONE}]}), "setup.deep.0.er"


@pytest.mark.parametrize(("body", "field"), list(surrogate_bodies()))
def test_a_lone_surrogate_anywhere_refuses_the_import(client, app, body, field):
    error = refused(client, app, body, field)
    assert "\\ud800" in error["message"]  # quoted, escaped


def test_a_refused_surrogate_leaves_the_backup_working(api, app, tmp_path):
    body = export(api.client, dixit_session(api)["id"])
    body["audit"][1]["after"]["storyteller"] = "Ann" + LONE
    refused(api.client, app, body, "audit.1.after.storyteller")
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "b.json")])
    assert result.exit_code == 0, result.output
    assert "Backed up 1 session(s)" in result.output


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('"audit": [{"action": "create_session", "after": {"x": NaN}}]', "audit.0.after.x"),
        ('"audit": [{"action": "create_session", "before": [Infinity]}]', "audit.0.before.0"),
        ('"audit": [{"action": "create_session", "after": -Infinity}]', "audit.0.after"),
        ('"totals": {"Ann": NaN}', "totals.Ann"),
        ('"setup": 1e300', "setup"),
        ('"setup": {"n": 9007199254740993}', "setup.n"),
        ('"setup": -9007199254740993', "setup"),
    ],
)
def test_numbers_no_database_keeps_exactly_are_refused(client, app, text, field):
    body = json.dumps(MINIMAL)[:-1] + ", " + text + "}"
    refused(client, app, body, field)


def test_numbers_within_the_range_are_kept(api):
    body = with_audit({**RECORD, "before": {"n": 2**53, "m": -(2**53), "f": 0.5}})
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    entries = api.audit(response.get_json()["id"])
    assert entries[1]["before"] == {"n": 2**53, "m": -(2**53), "f": 0.5}


@pytest.mark.parametrize("number", [2**31, 2**53, 10_001, -1, 1.5, True, "1"])
def test_an_audit_round_out_of_range_is_refused(client, app, number):
    refused(client, app, with_audit({**RECORD, "round": number}), "audit.1.round")


def test_deep_nesting_is_refused_not_a_server_error(client, app):
    deep: object = "bottom"
    for _ in range(archive.DEPTH_MAX + 200):
        deep = {"d": deep}
    field = "audit.1.before" + ".d" * (archive.DEPTH_MAX - 2)
    error = refused(client, app, with_audit({**RECORD, "before": deep}), field)
    assert f"more than {archive.DEPTH_MAX} levels deep" in error["message"]


def test_nesting_just_past_the_limit_names_where(client, app):
    # rounds.0.result.deep is 4 levels deep: 37 more lists put its innermost value at 41
    deep: object = 1
    for _ in range(archive.DEPTH_MAX - 3):
        deep = [deep]
    scored = {"input": SEED_TURN, "result": seed_result(deep=deep)}
    where = "rounds.0.result.deep" + ".0" * (archive.DEPTH_MAX - 3)
    refused(client, app, edited(rounds=[scored]), where)
    scored["result"]["deep"] = deep[0]  # one level less: kept, as a result's other keys are
    response = client.post("/api/sessions/import", json=edited(rounds=[scored]))
    assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize("key", ["extra", "comment", "padding", "Rounds"])
def test_a_key_no_export_writes_is_refused_before_its_value_is_read(client, app, key):
    # a value no field may hold (past 64 KB) is not even looked at: the key refuses it
    error = refused(client, app, edited(**{key: [0] * 100_000}), key)
    assert f"no field {key!r}" in error["message"]


@pytest.mark.parametrize(
    "action", ["drop_table", "record_rounds", "Record_round", "", 7, None, "x" * 100]
)
def test_only_the_apps_own_actions_are_accepted(client, app, action):
    code = "missing_field" if action is None else "invalid_value"
    refused(client, app, with_audit({**RECORD, "action": action}), "audit.1.action", code)


# -- times -----------------------------------------------------------------------------------------

EXTREMES = ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "9999-12-31T23:59:59"]


def timed(where: str, value: str) -> dict:
    """Return an export with a time set at where (a top-level key, a round's or the audit's)."""
    if where.startswith("rounds."):
        return edited(rounds=[{"input": SEED_TURN, where.split(".")[-1]: value}])
    if where.startswith("audit."):
        return with_audit({**RECORD, "at": value})
    return edited(**{where: value})


WHERES = [
    "created_at",
    "updated_at",
    "finished_at",
    "rounds.0.recorded_at",
    "rounds.0.corrected_at",
    "audit.1.at",
]


@pytest.mark.parametrize("where", WHERES)
@pytest.mark.parametrize("value", EXTREMES)
def test_a_time_at_the_ends_of_the_calendar_is_invalid_not_a_crash(client, app, where, value):
    error = refused(client, app, timed(where, value), where)
    assert "between 1970-01-01 and now" in error["message"] and value in error["message"]


@pytest.mark.parametrize("where", WHERES)
def test_a_time_in_the_future_or_before_1970_is_refused(client, app, where):
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    refused(client, app, timed(where, tomorrow), where)
    refused(client, app, timed(where, "1969-12-31T23:59:59+00:00"), where)


def test_a_time_a_minute_ahead_is_a_clock_skew_and_accepted(api):
    soon = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    body = edited(created_at=soon, rounds=[{"input": SEED_TURN, "recorded_at": soon}])
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    created = datetime.fromisoformat(response.get_json()["created_at"])
    assert created == datetime.fromisoformat(soon)


def test_a_backup_players_time_is_checked_too(app, tmp_path):
    path = tmp_path / "backup.json"
    players = [{"name": "Ann", "created_at": EXTREMES[0]}]
    path.write_text(json.dumps({"refapp_backup": 1, "sessions": [], "players": players}))
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert "players.0.created_at" in result.output
    assert rows(app) == dict.fromkeys(rows(app), 0)


# -- a backup is whole or absent -----------------------------------------------------------------


def failing_backup(bad):
    """Return a backup writer that fails on ``bad`` after writing a first chunk."""

    def write(handle):
        handle.write('{"refapp_backup":1,"players":[],"sessions":[{"x":"' + "y" * 9000 + '"},')
        handle.write(bad if isinstance(bad, str) else exports.dumps(bad))
        return 2, 0

    return write


@pytest.mark.parametrize("bad", [LONE, float("nan"), object()])
def test_a_backup_that_cannot_be_written_leaves_no_file(app, tmp_path, monkeypatch, bad):
    monkeypatch.setattr(backups, "write_backup", failing_backup(bad))
    folder = tmp_path / "backups"
    folder.mkdir()
    result = app.test_cli_runner().invoke(args=["backup", str(folder / "backup.json")])
    assert result.exit_code == 1
    assert "Could not write" in result.output
    assert list(folder.iterdir()) == []


def test_a_failed_backup_keeps_the_previous_one(app, tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    folder.mkdir()
    target = folder / "backup.json"
    target.write_text("previous", encoding="utf-8")
    monkeypatch.setattr(backups, "write_backup", failing_backup(LONE))
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 1
    assert [path.name for path in folder.iterdir()] == ["backup.json"]
    assert target.read_text(encoding="utf-8") == "previous"


def test_an_audit_trail_longer_than_any_session_writes_is_refused(client, app):
    body = edited(audit=[{"action": "rename_player"}] * (archive.AUDIT_MAX + 1))
    error = refused(client, app, body, "audit")
    assert f"at most {archive.AUDIT_MAX} entries" in error["message"]
