"""The session's version (ETag, If-None-Match polls, If-Match writes), ?rounds=, size limits."""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.models import AuditEntry, Round
from refapp.services import values

from .conftest import turn

OPEN = {"target_score": 10**6}


def recorded(api, count: int, players=("Ann", "Ben", "Cy", "Dee")) -> int:
    """Create a Dixit session that never ends and record count turns; return its id."""
    sid = api.create(players=players, rules=OPEN)["id"]
    for number in range(count):
        response = api.record(sid, turn(players[number % len(players)], players))
        assert response.status_code == 201, response.get_json()
    return sid


def test_version_grows_with_every_write_and_is_the_etag(client, api):
    sid = recorded(api, 0)
    response = client.get(f"/api/sessions/{sid}")
    assert response.get_json()["version"] == 1
    assert response.headers["ETag"] == '"1"'
    answer = api.record(sid, turn("Ann"))
    assert answer.headers["ETag"] == '"2"'
    assert answer.get_json()["session"]["version"] == 2
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=turn("Ben")).get_json()["version"] == 3
    assert client.delete(f"/api/sessions/{sid}/rounds/1").get_json()["version"] == 4
    assert client.post(f"/api/sessions/{sid}/finish").get_json()["version"] == 5
    client.post("/api/players/Ann/rename", json={"name": "Anna"})
    assert api.session(sid)["version"] == 6


def test_a_poll_with_the_current_etag_is_304_without_a_body(client, api, count_queries):
    sid = recorded(api, 3)
    with count_queries() as counter:
        response = client.get(f"/api/sessions/{sid}", headers={"If-None-Match": '"4"'})
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == '"4"'
    assert counter.count == 1
    changed = client.get(f"/api/sessions/{sid}", headers={"If-None-Match": '"3"'})
    assert changed.status_code == 200
    assert changed.get_json()["version"] == 4


def test_a_write_with_a_stale_if_match_changes_nothing(client, api, app):
    sid = recorded(api, 2)
    stale = {"If-Match": '"2"'}
    cases = [
        client.post(f"/api/sessions/{sid}/rounds", json=turn("Cy"), headers=stale),
        client.put(f"/api/sessions/{sid}/rounds/1", json=turn("Ann"), headers=stale),
        client.delete(f"/api/sessions/{sid}/rounds/2", headers=stale),
        client.post(f"/api/sessions/{sid}/finish", headers=stale),
    ]
    for response in cases:
        assert response.status_code == 409, response.get_json()
        assert response.get_json()["error"]["code"] == "stale_round"
        assert response.get_json()["error"]["field"] == "If-Match"
    session = api.session(sid)
    assert (session["version"], session["rounds_total"], session["finished"]) == (3, 2, False)
    with app.app_context():
        assert db.session.query(AuditEntry).count() == 3
    fresh = client.post(f"/api/sessions/{sid}/rounds", json=turn("Cy"), headers={"If-Match": '"3"'})
    assert fresh.status_code == 201


def test_a_malformed_if_match_is_refused(client, api):
    sid = recorded(api, 0)
    response = client.post(
        f"/api/sessions/{sid}/rounds", json=turn("Ann"), headers={"If-Match": "yesterday"}
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "invalid_value"
    assert api.session(sid)["rounds_total"] == 0


@pytest.mark.parametrize(
    ("query", "numbers"),
    [("", [1, 2, 3, 4, 5]), ("?rounds=all", [1, 2, 3, 4, 5]), ("?rounds=none", []),
     ("?rounds=last:2", [4, 5]), ("?rounds=last:0", []), ("?rounds=last:9", [1, 2, 3, 4, 5])],
)  # fmt: skip
def test_rounds_parameter_picks_the_rounds_carried(client, api, query, numbers):
    sid = recorded(api, 5)
    body = client.get(f"/api/sessions/{sid}{query}").get_json()
    assert [played["number"] for played in body["rounds"]] == numbers
    assert body["rounds_total"] == 5
    assert body["totals"] == api.session(sid)["totals"]


def test_recording_with_rounds_none_answers_without_the_rounds(client, api):
    sid = recorded(api, 3)
    response = client.post(f"/api/sessions/{sid}/rounds?rounds=none", json=turn("Dee"))
    assert response.status_code == 201
    session = response.get_json()["session"]
    assert session["rounds"] == [] and session["rounds_total"] == 4
    assert response.get_json()["round"]["number"] == 4


@pytest.mark.parametrize("bad", ["some", "last:", "last:x", "last:-1", "first:2"])
def test_a_bad_rounds_parameter_is_invalid_value(client, api, bad):
    sid = recorded(api, 1)
    response = client.get(f"/api/sessions/{sid}?rounds={bad}")
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "rounds"
    refused = client.post(f"/api/sessions/{sid}/rounds?rounds={bad}", json=turn("Ben"))
    assert refused.status_code == 422
    assert api.session(sid)["rounds_total"] == 1


def test_reading_rounds_none_costs_the_same_for_3_and_30_rounds(client, api, count_queries):
    counts = []
    for length in (3, 30):
        sid = recorded(api, length)
        with count_queries() as counter:
            assert client.get(f"/api/sessions/{sid}?rounds=none").status_code == 200
        counts.append(counter.count)
    assert counts[0] == counts[1]


def test_round_past_the_session_limit_is_too_many_rounds(client, api, monkeypatch):
    monkeypatch.setattr(values, "MAX_ROUNDS", 2)
    sid = recorded(api, 2)
    response = api.record(sid, turn("Cy"))
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "too_many_rounds"
    assert api.session(sid)["rounds_total"] == 2


def test_several_rounds_corrected_at_once_or_not_at_all(client, api, app):
    sid = recorded(api, 3)
    # round 1 told by Dee: then round 2 must be Ann's, and round 3 Ben's - all three change
    both = {"1": turn("Dee"), "2": turn("Ann"), "3": turn("Ben")}
    response = client.put(f"/api/sessions/{sid}/rounds", json={"rounds": both})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [r["input"]["storyteller"] for r in body["rounds"]] == ["Dee", "Ann", "Ben"]
    replaced = [e for e in api.audit(sid) if e["action"] == "replace_round"]
    assert [e["round"] for e in replaced] == [1, 2, 3]
    # one of them alone would break round 2's rotation: refused whole, with the round
    alone = client.put(f"/api/sessions/{sid}/rounds", json={"rounds": {"1": turn("Cy")}})
    assert alone.status_code == 422
    assert alone.get_json()["error"]["round"] == 2
    assert [r["input"]["storyteller"] for r in api.session(sid)["rounds"]] == ["Dee", "Ann", "Ben"]
    missing = client.put(f"/api/sessions/{sid}/rounds", json={"rounds": {"7": turn("Cy")}})
    assert missing.status_code == 404
    with app.app_context():
        assert db.session.query(AuditEntry).filter_by(action="replace_round").count() == 3


def test_a_correction_writes_back_only_the_rounds_that_changed(client, api, app):
    sid = recorded(api, 6)
    with app.app_context():
        before = {r.number: r.result for r in db.session.query(Round).filter_by(session_id=sid)}
    corrected = turn("Ann")
    corrected["votes"] = {"Ben": 1, "Cy": 1, "Dee": 2}  # Dee misses: only round 1 changes
    statements: list[str] = []
    from sqlalchemy import event

    with app.app_context():
        engine = db.engine

        def keep(conn, cursor, statement, *args):
            statements.append(statement)

        event.listen(engine, "before_cursor_execute", keep)
        try:
            response = client.put(f"/api/sessions/{sid}/rounds/1", json=corrected)
        finally:
            event.remove(engine, "before_cursor_execute", keep)
    assert response.status_code == 200
    round_updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE ROUND")]
    # one statement rewrites the corrected round; the later ones are not written: round 1's
    # points moved every running total after it by one vector, kept as one running shift
    assert len(round_updates) == 1, round_updates
    assert "result=" in round_updates[0] and "running=" not in round_updates[0]
    shifts = [s for s in statements if s.lstrip().upper().startswith("INSERT INTO RUNNING_SHIFT")]
    assert len(shifts) == 1, statements
    with app.app_context():
        after = {r.number: r.result for r in db.session.query(Round).filter_by(session_id=sid)}
    assert after[1] != before[1]
    assert all(after[n] == before[n] for n in range(2, 7))


@pytest.mark.parametrize(
    "query",
    ["?to=9999-12-31", "?from=9999-12-31", "?player=a%00b", "?game=di%00xit", "?to=0001-01-01"],
)
def test_odd_filters_never_fail(client, api, query):
    recorded(api, 1)
    for path in ("/api/sessions", "/"):
        response = client.get(path + query)
        assert response.status_code in (200, 422), (path, response.status_code)


def test_a_nul_in_a_player_address_is_not_found(client, api):
    recorded(api, 1)
    assert client.get("/api/players/a%00b").status_code == 404
    assert client.get("/players/a%00b").status_code == 404


@pytest.mark.parametrize(
    "name", ["Ann\u202e21+", "\u200b", "Ann\u200b", "A\u2066B", "x\u2028y", "\ufeffAnn"]
)
def test_names_that_hide_or_reorder_text_are_refused(client, name):
    response = client.post(
        "/api/sessions", json={"game": "dixit", "players": [name, "Ben", "Cy", "Dee"]}
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "players.0"
