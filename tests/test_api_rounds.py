"""Rounds through the API: record, dry run, stale rounds, corrections with replay, undo, audit."""

from __future__ import annotations

from refapp.extensions import db
from refapp.models import AuditEntry, Round

from .conftest import SEED_TURN, turn


def rows(app, model) -> int:
    """Count stored rows of a model."""
    with app.app_context():
        return db.session.query(model).count()


def test_record_returns_the_round_and_the_session(api):
    session = api.create()
    response = api.record(session["id"], SEED_TURN)
    assert response.status_code == 201
    body = response.get_json()
    assert body["round"]["number"] == 1
    assert body["round"]["result"]["deltas"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert body["round"]["input"] == SEED_TURN
    assert body["session"]["totals"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert body["session"]["state"]["next_storyteller"] == "Ben"


def test_dry_run_scores_without_storing(api, app):
    session = api.create()
    response = api.record(session["id"], SEED_TURN, dry_run=True)
    assert response.status_code == 200
    assert response.get_json()["round"]["result"]["deltas"]["Ben"] == 4
    assert rows(app, Round) == 0
    assert [e["action"] for e in api.audit(session["id"])] == ["create_session"]
    partial = api.record(
        session["id"],
        {"storyteller": "Ann", "positions": ["Ann", "Ben", "Cy", "Dee"]},
        dry_run=True,
    )
    assert partial.status_code == 200
    assert partial.get_json()["round"]["result"] == {"complete": False}
    refused = api.record(session["id"], {"storyteller": "Ann", "positions": ["Ann"]}, dry_run=True)
    assert refused.get_json()["error"]["code"] == "wrong_card_count"


def test_refused_round_changes_nothing(api, app):
    session = api.create()
    response = api.record(session["id"], {**SEED_TURN, "votes": {"Ben": 3, "Cy": 2, "Dee": 2}})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error == {
        "code": "vote_own_card",
        "message": "Ben voted for position 3, which is Ben's own card.",
        "field": "votes.Ben",
    }
    assert rows(app, Round) == 0
    assert len(api.audit(session["id"])) == 1


def test_expected_round_guards_against_a_second_phone(api, app):
    session = api.create()
    first = api.record(session["id"], {**SEED_TURN, "expected_round": 1})
    assert first.status_code == 201
    assert "expected_round" not in first.get_json()["round"]["input"]
    late = api.record(session["id"], {**turn("Ben"), "expected_round": 1})
    assert late.status_code == 409
    assert late.get_json()["error"]["code"] == "stale_round"
    assert rows(app, Round) == 1
    assert api.record(session["id"], {**turn("Ben"), "expected_round": 2}).status_code == 201


def test_replace_replays_later_rounds_and_is_audited(api):
    session = api.create()
    sid = session["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    corrected = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 2, "Dee": 2}}
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=corrected)
    assert response.status_code == 200
    body = response.get_json()
    assert body["rounds"][0]["result"]["deltas"] == {"Ann": 0, "Ben": 2, "Cy": 2, "Dee": 2}
    assert body["totals"] == {"Ann": 2, "Ben": 2, "Cy": 4, "Dee": 4}
    assert body["rounds"][0]["corrected_at"] is not None
    entry = api.audit(sid)[-1]
    assert entry["action"] == "replace_round" and entry["round"] == 1
    assert entry["before"]["votes"]["Dee"] == 3 and entry["after"]["votes"]["Dee"] == 2


def test_replace_that_breaks_a_later_round_changes_nothing(api):
    session = api.create()
    sid = session["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    before = api.session(sid)
    # Round 1 told by Dee would make Ann, not Ben, the storyteller of round 2.
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=turn("Dee"))
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "wrong_storyteller" and error["round"] == 2
    assert api.session(sid) == before
    assert [e["action"] for e in api.audit(sid)][-1] == "record_round"


def test_replace_refuses_a_broken_round_and_unknown_round(api):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    bad = api.client.put(f"/api/sessions/{sid}/rounds/1", json={**SEED_TURN, "votes": {}})
    assert bad.status_code == 422 and bad.get_json()["error"]["round"] == 1
    missing = api.client.put(f"/api/sessions/{sid}/rounds/5", json=SEED_TURN)
    assert missing.status_code == 404


def test_undo_only_the_last_round_and_keep_it_in_the_audit(api, app):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    early = api.client.delete(f"/api/sessions/{sid}/rounds/1")
    assert early.status_code == 409
    assert early.get_json()["error"]["code"] == "not_last_round"
    undone = api.client.delete(f"/api/sessions/{sid}/rounds/2")
    assert undone.status_code == 200
    body = undone.get_json()
    assert len(body["rounds"]) == 1 and body["state"]["next_storyteller"] == "Ben"
    assert body["state"]["draw_pile"] == 56
    entry = api.audit(sid)[-1]
    assert entry["action"] == "delete_round" and entry["round"] == 2
    assert entry["before"] == turn("Ben") and entry["after"] is None
    assert rows(app, Round) == 1
    assert rows(app, AuditEntry) == 4


def test_reaching_the_target_finishes_and_undo_reopens(api):
    sid = api.create(rules={"target_score": 4})["id"]
    body = api.record(sid, SEED_TURN).get_json()["session"]
    assert body["finished"] is True and body["winners"] == ["Ben"]
    assert body["finished_by"] == "game"
    reopened = api.client.delete(f"/api/sessions/{sid}/rounds/1").get_json()
    assert reopened["finished"] is False and reopened["winners"] == []
    assert api.record(sid, SEED_TURN).status_code == 201


def test_a_correction_can_end_or_reopen_a_game(api):
    sid = api.create(rules={"target_score": 4})["id"]
    api.record(sid, SEED_TURN)
    all_found = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 2, "Dee": 2}}
    reopened = api.client.put(f"/api/sessions/{sid}/rounds/1", json=all_found).get_json()
    assert reopened["finished"] is False
    ended = api.client.put(f"/api/sessions/{sid}/rounds/1", json=SEED_TURN).get_json()
    assert ended["finished"] is True and ended["winners"] == ["Ben"]


def test_a_table_finished_session_keeps_its_rounds(api):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    api.client.post(f"/api/sessions/{sid}/finish")
    undo = api.client.delete(f"/api/sessions/{sid}/rounds/1")
    assert undo.status_code == 409 and undo.get_json()["error"]["code"] == "session_finished"
    fixed = api.client.put(
        f"/api/sessions/{sid}/rounds/1", json={**SEED_TURN, "votes": {"Ben": 2, "Cy": 2, "Dee": 2}}
    )
    assert fixed.status_code == 200 and fixed.get_json()["finished"] is True


def test_audit_trail_is_oldest_first_with_times(api):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    entries = api.audit(sid)
    assert [e["action"] for e in entries] == ["create_session", "record_round"]
    assert entries[0]["after"]["players"] == ["Ann", "Ben", "Cy", "Dee"]
    assert entries[1]["round"] == 1 and entries[1]["after"] == SEED_TURN
    assert entries[1]["at"].endswith("+00:00")


def test_hostile_round_bodies_never_answer_500(api, app):
    sid = api.create()["id"]
    bodies = [
        {},
        {"storyteller": 5},
        {"storyteller": "Ann", "positions": "x"},
        {"storyteller": "Ann", "positions": [None, {}, [], 1]},
        {**SEED_TURN, "votes": {"Ben": None, "Cy": 2, "Dee": 3}},
        {**SEED_TURN, "votes": {"Ben": 2.5, "Cy": 2, "Dee": 3}},
        {**SEED_TURN, "votes": {"Ben": True, "Cy": 2, "Dee": 3}},
        {**SEED_TURN, "votes": {"Ben": "--2", "Cy": 2, "Dee": 3}},
        {**SEED_TURN, "votes": {"Ben": 10**30, "Cy": 2, "Dee": 3}},
        {**SEED_TURN, "expected_round": "soon"},
    ]
    for body in bodies:
        response = api.record(sid, body)
        assert response.status_code in (400, 409, 422), (body, response.status_code)
        assert set(response.get_json()["error"]) >= {"code", "message", "field"}
    assert rows(app, Round) == 0
