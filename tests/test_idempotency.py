"""Idempotency-Key: a write resent with its key is stored at most once, whatever came between."""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.models import AuditEntry, Round, WriteKey
from refapp.services import limits

from .conftest import SEED_TURN, turn

KEY = {"Idempotency-Key": "entry-7f3a"}


def counts(app, sid: int) -> tuple[int, int, int]:
    """Return the session's stored rounds, audit entries and kept keys."""
    with app.app_context():
        found = tuple(
            db.session.query(model).filter_by(session_id=sid).count()
            for model in (Round, AuditEntry, WriteKey)
        )
        db.session.remove()
    return found  # type: ignore[return-value]


def post(client, sid: int, body: dict, key: str | None = "entry-7f3a", headers=None, **extra):
    """Post a round with a key (and any other headers)."""
    sent = {"Idempotency-Key": key} if key is not None else {}
    sent.update(headers or {})
    return client.post(f"/api/sessions/{sid}/rounds", json=body, headers=sent, **extra)


def test_a_replay_answers_the_first_round_and_stores_nothing_even_rounds_later(api, app):
    sid = api.create()["id"]
    first = post(api.client, sid, {**SEED_TURN, "expected_round": 1})
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    for teller in ("Ben", "Cy"):  # other phones record rounds 2 and 3
        assert api.record(sid, turn(teller)).status_code == 201
    stored = counts(app, sid)
    again = post(api.client, sid, {**SEED_TURN, "expected_round": 1})
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["round"] == first.get_json()["round"]
    assert again.get_json()["session"]["rounds_total"] == 3
    assert counts(app, sid) == stored == (3, 4, 1)
    # the same entry aimed at the next round ("record mine as round 4") is the same write
    moved = post(api.client, sid, {**SEED_TURN, "expected_round": 4})
    assert moved.status_code == 200 and moved.get_json()["round"]["number"] == 1
    assert counts(app, sid) == stored


def test_a_replay_ignores_if_match_and_a_finished_session(api, app):
    sid = api.create()["id"]
    assert post(api.client, sid, SEED_TURN, headers={"If-Match": '"1"'}).status_code == 201
    assert api.client.post(f"/api/sessions/{sid}/finish").status_code == 200
    again = post(api.client, sid, SEED_TURN, headers={"If-Match": '"1"'})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    # without the key the same resend is refused as the stale write it is
    assert post(api.client, sid, SEED_TURN, key=None).status_code == 409


def test_the_same_key_with_another_body_is_refused_and_changes_nothing(api, app):
    sid = api.create()["id"]
    assert post(api.client, sid, SEED_TURN).status_code == 201
    stored, version = counts(app, sid), api.session(sid)["version"]
    other = post(api.client, sid, turn("Ben"))
    assert other.status_code == 422
    error = other.get_json()["error"]
    assert (error["code"], error["field"]) == ("idempotency_key_reused", "Idempotency-Key")
    assert counts(app, sid) == stored and api.session(sid)["version"] == version
    # on another write (an undo) the key is another write too
    undo = api.client.delete(f"/api/sessions/{sid}/rounds/1", headers=KEY)
    assert undo.get_json()["error"]["code"] == "idempotency_key_reused"
    assert counts(app, sid) == stored


@pytest.mark.parametrize("key", ["", "a" * 65, "two words", "ключ", "tab\there"])
def test_a_malformed_key_is_invalid_value_and_nothing_is_stored(api, app, key):
    sid = api.create()["id"]
    refused = post(api.client, sid, SEED_TURN, key=key)
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_value", "Idempotency-Key")
    assert counts(app, sid)[0] == 0


def test_keys_of_64_visible_characters_are_taken(api, app):
    sid = api.create()["id"]
    key = "!~" + "x" * 62
    assert post(api.client, sid, SEED_TURN, key=key).status_code == 201
    assert post(api.client, sid, SEED_TURN, key=key).status_code == 200


def test_a_refused_write_keeps_no_key(api, app):
    sid = api.create()["id"]
    own = {**SEED_TURN, "votes": {"Ann": 2, "Cy": 1, "Dee": 1}}  # the storyteller votes
    assert post(api.client, sid, own).status_code == 422
    stale = post(api.client, sid, {**SEED_TURN, "expected_round": 3})
    assert stale.status_code == 409
    assert counts(app, sid) == (0, 1, 0)
    assert post(api.client, sid, SEED_TURN).status_code == 201  # the key is free still


def test_corrections_replay_single_and_several_rounds(api, app):
    sid = api.create()["id"]
    for teller in ("Ann", "Ben", "Cy"):
        assert api.record(sid, turn(teller)).status_code == 201
    fixed = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 1, "Dee": 2}}
    headers = {"Idempotency-Key": "fix-1"}
    first = api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed, headers=headers)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    stored = counts(app, sid)
    assert api.record(sid, turn("Dee")).status_code == 201
    again = api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed, headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert counts(app, sid)[1] == stored[1] + 1  # only round 4's entry came between
    # the same correction sent as a list of rounds is the same write
    listed = api.client.put(
        f"/api/sessions/{sid}/rounds", json={"rounds": {"1": fixed}}, headers=headers
    )
    assert listed.headers.get("Idempotent-Replayed") == "true"
    both = {"rounds": {"2": turn("Ben"), "3": turn("Cy")}}
    several = {"Idempotency-Key": "fix-2-3"}
    assert (
        api.client.put(f"/api/sessions/{sid}/rounds", json=both, headers=several).status_code == 200
    )
    entries = counts(app, sid)[1]
    replay = api.client.put(f"/api/sessions/{sid}/rounds", json=both, headers=several)
    assert replay.status_code == 200 and replay.headers["Idempotent-Replayed"] == "true"
    assert counts(app, sid)[1] == entries
    changed = {
        "rounds": {"2": turn("Ben"), "3": {**turn("Cy"), "votes": {"Ann": 1, "Ben": 1, "Dee": 2}}}
    }
    reused = api.client.put(f"/api/sessions/{sid}/rounds", json=changed, headers=several)
    assert reused.get_json()["error"]["code"] == "idempotency_key_reused"


def test_an_undo_replays_and_undoes_nothing_more(api, app):
    sid = api.create()["id"]
    for teller in ("Ann", "Ben", "Cy"):
        assert api.record(sid, turn(teller)).status_code == 201
    headers = {"Idempotency-Key": "undo-3"}
    assert api.client.delete(f"/api/sessions/{sid}/rounds/3", headers=headers).status_code == 200
    again = api.client.delete(f"/api/sessions/{sid}/rounds/3", headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["rounds_total"] == 2
    assert counts(app, sid)[0] == 2


def test_a_round_recorded_then_undone_replays_as_no_round(api, app):
    sid = api.create()["id"]
    assert post(api.client, sid, SEED_TURN).status_code == 201
    assert api.client.delete(f"/api/sessions/{sid}/rounds/1").status_code == 200
    assert api.record(sid, turn("Ben")).status_code == 201  # round 1 is another round now
    again = post(api.client, sid, SEED_TURN)
    assert again.status_code == 200 and again.get_json()["round"] is None
    assert counts(app, sid)[0] == 1


def test_dry_run_keeps_no_key(api, app):
    sid = api.create()["id"]
    checked = post(api.client, sid, SEED_TURN, query_string={"dry_run": "1"})
    assert checked.status_code == 200
    assert counts(app, sid)[2] == 0
    assert post(api.client, sid, SEED_TURN).status_code == 201


def test_a_session_keeps_its_last_thousand_keys(api, app, monkeypatch):
    sid = api.create(rules={"target_score": 10**6})["id"]
    tellers = ("Ann", "Ben", "Cy", "Dee")
    for number in range(limits.KEYS_KEPT + 5):
        response = post(
            api.client,
            sid,
            turn(tellers[number % 4]),
            key=f"k{number}",
            query_string={"rounds": "none"},
        )
        assert response.status_code == 201
    assert counts(app, sid)[2] == limits.KEYS_KEPT
    # the newest thousand still replay; the oldest ones are let go (a new round then)
    oldest_kept = 5
    again = post(api.client, sid, turn(tellers[oldest_kept % 4]), key=f"k{oldest_kept}")
    assert again.status_code == 200 and again.get_json()["round"]["number"] == oldest_kept + 1
    gone = post(api.client, sid, turn(tellers[(limits.KEYS_KEPT + 5) % 4]), key="k4")
    assert gone.status_code == 201


def test_the_migration_adds_the_table_and_a_downgrade_keeps_its_keys_for_the_upgrade(tmp_path):
    import sqlalchemy as sa
    from flask_migrate import downgrade, upgrade

    from .conftest import migrated_sqlite_app

    app = migrated_sqlite_app(tmp_path / "keys.sqlite")
    client = app.test_client()
    body = {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    sid = client.post("/api/sessions", json=body).get_json()["id"]
    assert post(client, sid, SEED_TURN).status_code == 201
    with app.app_context():
        assert db.session.scalar(sa.text("SELECT count(*) FROM write_key")) == 1
        db.session.remove()
        downgrade(revision="f2a8d3b5c6e7")
        assert "write_key" not in sa.inspect(db.engine).get_table_names()
        assert db.session.scalar(sa.text("SELECT count(*) FROM kept_write_key")) == 1
        db.session.remove()
        upgrade()
        # nothing wrote to the session while downgraded: its key comes back, the side table goes
        assert db.session.scalar(sa.text("SELECT count(*) FROM write_key")) == 1
        assert "kept_write_key" not in sa.inspect(db.engine).get_table_names()
        db.session.remove()
        db.engine.dispose()
    again = post(client, sid, SEED_TURN)  # the first write resent: answered, not stored again
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert post(client, sid, turn("Ben"), key="entry-after").status_code == 201
