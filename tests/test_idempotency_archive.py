"""Kept write keys travel with their session: exported, imported, restored, checked on the way."""

from __future__ import annotations

import io
import json

import pytest

from refapp.extensions import db
from refapp.services import limits
from refapp.services.archive import backups, exports

from .conftest import SEED_TURN, turn
from .test_archive import export
from .test_import_forgery import imported, refused


def keyed(client, sid: int, body: dict, key: str):
    """Post a round with a key."""
    return client.post(f"/api/sessions/{sid}/rounds", json=body, headers={"Idempotency-Key": key})


def keyed_session(api) -> int:
    """Return a session whose three rounds and one correction were sent with keys."""
    sid = api.create()["id"]
    for number, teller in enumerate(("Ann", "Ben", "Cy")):
        assert keyed(api.client, sid, turn(teller), f"round-{number + 1}").status_code == 201
    fixed = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 1, "Dee": 2}}
    headers = {"Idempotency-Key": "fix-1"}
    assert (
        api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed, headers=headers).status_code
        == 200
    )
    return sid


def test_an_export_writes_the_keys_and_an_import_restores_them(api, app):
    sid = keyed_session(api)
    body = export(api.client, sid)
    assert [kept["key"] for kept in body["keys"]] == ["round-1", "round-2", "round-3", "fix-1"]
    assert [kept["round"] for kept in body["keys"]] == [1, 2, 3, 1]
    assert body["keys"][0]["action"] == "record_round" and len(body["keys"][0]["digest"]) == 64
    copy = imported(api.client, body)["id"]
    assert export(api.client, copy)["keys"] == body["keys"]
    # a phone's resend to the copy is still the write it repeats: nothing stored, its round
    again = keyed(api.client, copy, turn("Ben"), "round-2")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["round"]["number"] == 2
    assert api.session(copy)["rounds_total"] == 3
    reused = keyed(api.client, copy, turn("Dee"), "round-2")
    assert reused.get_json()["error"]["code"] == "idempotency_key_reused"
    assert keyed(api.client, copy, turn("Dee"), "round-4").status_code == 201


def test_a_backup_restores_the_keys(api, app, tmp_path):
    sid = keyed_session(api)
    with app.test_request_context():
        text = json.dumps(backups.backup())
        db.session.remove()
    with app.app_context():
        restored = backups.restore_file(io.BytesIO(text.encode()), force=True)
        assert restored.sessions
        kept = [row["key"] for row in exports.kept_keys(restored.sessions[0].id)]
        db.session.remove()
    assert kept == ["round-1", "round-2", "round-3", "fix-1"]
    assert sid


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("key", "two words"),
        ("key", ""),
        ("digest", "abc"),
        ("digest", "A" * 64),
        ("action", "finish_session"),
        ("round", 0),
        ("round", "2"),
        ("at", "yesterday"),
    ],
)
def test_an_exported_key_out_of_shape_is_refused_at_its_path(api, app, field, value):
    body = export(api.client, keyed_session(api))
    body["keys"][1][field] = value
    refused(api.client, app, body, "invalid_value", f"keys.1.{field}")


def test_keys_given_twice_an_unknown_field_or_too_many_are_refused(api, app):
    body = export(api.client, keyed_session(api))
    twice = {**body, "keys": [*body["keys"], body["keys"][0]]}
    refused(api.client, app, twice, "invalid_value", "keys.4.key")
    extra = {**body, "keys": [{**body["keys"][0], "answer": {}}]}
    refused(api.client, app, extra, "invalid_value", "keys.0.answer")
    many = [{**body["keys"][0], "key": f"k{index}"} for index in range(limits.KEYS_KEPT + 1)]
    refused(api.client, app, {**body, "keys": many}, "invalid_value", "keys")
    refused(api.client, app, {**body, "keys": "round-1"}, "invalid_value", "keys")


def test_an_export_without_keys_still_imports(api, app):
    body = export(api.client, keyed_session(api))
    del body["keys"]
    copy = imported(api.client, body)["id"]
    assert export(api.client, copy)["keys"] == []
