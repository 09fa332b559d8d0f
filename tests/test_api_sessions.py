"""The session endpoints of docs/API.md: create, list, read, finish, and their refusals."""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.models import AuditEntry, GameSession, Player

from .conftest import SEED_TURN


def test_create_session_returns_every_effective_rule(api):
    session = api.create(rules={"target_score": 12}, name="Friday table")
    assert session["game"] == "dixit" and session["name"] == "Friday table"
    assert session["players"] == ["Ann", "Ben", "Cy", "Dee"]
    assert session["rules"] == {
        "target_score": 12,
        "end_after_rounds": None,
        "bonus_cap": None,
        "two_votes_large_game": False,
        "large_table": False,
        "deck_exhausted": "reshuffle",
    }
    assert session["totals"] == {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 0}
    assert session["state"]["next_storyteller"] is None
    assert session["state"]["draw_pile"] == 60
    assert session["finished"] is False and session["winners"] == []


def test_names_are_trimmed_and_players_reused_across_sessions(api, app):
    api.create(players=[" Ann ", "Ben", "Cy"])
    second = api.create(players=["Ann", "Ben", "Cy", "Dee"])
    assert second["players"][0] == "Ann"
    with app.app_context():
        assert db.session.query(Player).count() == 4


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"game": "chess", "players": ["A", "B", "C"]}, 422, "unknown_game", "game"),
        ({"game": "dixit", "players": ["A", "B"]}, 422, "bad_player_count", "players"),
        (
            {"game": "dixit", "players": [f"P{i}" for i in range(9)]},
            422,
            "bad_player_count",
            "players",
        ),
        ({"game": "dixit", "players": ["A", "B", "A"]}, 422, "duplicate_player", "players.2"),
        ({"game": "dixit", "players": ["A", "B", "  "]}, 422, "invalid_value", "players.2"),
        ({"game": "dixit", "players": ["A", "B", "x" * 41]}, 422, "invalid_value", "players.2"),
        ({"game": "dixit", "players": ["A", "B", "C\x00"]}, 422, "invalid_value", "players.2"),
        ({"game": "dixit", "players": ["A", "B", 3]}, 422, "invalid_value", "players.2"),
        ({"game": "dixit"}, 422, "missing_field", "players"),
        ({"game": "dixit", "players": "A,B,C"}, 422, "invalid_value", "players"),
        (
            {"game": "dixit", "players": ["A", "B", "C"], "rules": {"x": 1}},
            422,
            "invalid_rules",
            "rules.x",
        ),
        ({"game": "dixit", "players": ["A", "B", "C"], "rules": []}, 422, "invalid_rules", "rules"),
        ({"game": "dixit", "players": ["A", "B", "C"], "name": 5}, 422, "invalid_value", "name"),
    ],
)
def test_refused_sessions_store_nothing(client, app, body, status, code, field):
    response = client.post("/api/sessions", json=body)
    assert response.status_code == status
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]
    with app.app_context():
        assert db.session.query(GameSession).count() == 0
        assert db.session.query(Player).count() == 0


@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b"null", b"\xff\xfe"])
def test_a_body_that_is_not_an_object_is_invalid_json(client, raw):
    response = client.post("/api/sessions", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"


def test_unknown_paths_and_sessions_answer_not_found_json(client):
    for path in ("/api/sessions/999", "/api/nothing", "/api/sessions/999/audit"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "not_found"


def test_list_sessions_newest_first_with_round_counts(api):
    first = api.create()
    second = api.create(players=["X", "Y", "Z"])
    api.record(first["id"], SEED_TURN)
    listed = api.client.get("/api/sessions").get_json()["sessions"]
    assert [s["id"] for s in listed] == [second["id"], first["id"]]
    assert listed[1]["rounds"] == 1 and listed[0]["rounds"] == 0
    assert listed[1]["players"] == ["Ann", "Ben", "Cy", "Dee"]


def test_finish_names_the_leaders_and_refuses_a_second_finish(api, app):
    session = api.create(rules={"target_score": 10**6})
    api.record(session["id"], SEED_TURN)
    finished = api.client.post(f"/api/sessions/{session['id']}/finish")
    assert finished.status_code == 200
    body = finished.get_json()
    assert body["finished"] is True and body["winners"] == ["Ben"]
    again = api.client.post(f"/api/sessions/{session['id']}/finish")
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "session_finished"
    refused = api.record(session["id"], {**SEED_TURN, "storyteller": "Ben"})
    assert refused.status_code == 409
    with app.app_context():
        actions = [e.action for e in db.session.query(AuditEntry).order_by(AuditEntry.id)]
    assert actions == ["create_session", "record_round", "finish_session"]


def test_oversized_body_is_refused(client):
    response = client.post(
        "/api/sessions",
        data=b'{"x": "' + b"a" * 300_000 + b'"}',
        content_type="application/json",
    )
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
