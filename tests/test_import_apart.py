"""A large import is done in a child process: the server's thread only waits and answers.

The import's CPU work (reading, replaying, storing) runs in a Python of its own, so the serving
process's threads (the polls) never wait for its lock. These tests make every import "large"
(``apart.APART = 0``) and make the server's own import code fail: an import still stored proves
the work was done elsewhere. A child that dies or stalls (tests/apart_children.py) is killed past
its time limit, and what it stored, if anything, is found by its token and answered as stored.
"""

from __future__ import annotations

import logging
import time

import pytest

from refapp.services.archive import apart, imports

from .test_archive import MINIMAL, rows


@pytest.fixture
def every_import_apart(monkeypatch):
    """Make every import one done apart, and the server's own import code unusable."""
    monkeypatch.setattr(apart, "APART", 0)

    def not_here(*_args, **_kwargs):
        raise AssertionError("the import ran in the server's own process")

    monkeypatch.setattr(imports, "import_here", not_here)
    monkeypatch.setattr(imports, "import_session", not_here)


def test_a_large_import_is_replayed_and_stored_by_a_child_process(client, app, every_import_apart):
    before = rows(app)
    response = client.post("/api/sessions/import?rounds=all", json=MINIMAL)
    assert response.status_code == 201, response.get_json()
    copied = response.get_json()
    assert copied["totals"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert [played["number"] for played in copied["rounds"]] == [1]
    after = rows(app)
    assert after["GameSession"] == before["GameSession"] + 1
    assert after["Round"] == before["Round"] + 1
    assert after["AuditEntry"] == before["AuditEntry"] + 1  # import_session, by the child
    trail = client.get(f"/api/sessions/{copied['id']}/audit").get_json()
    assert [entry["action"] for entry in trail["entries"]] == ["import_session"]


def test_a_refusal_in_the_child_is_the_same_refusal_in_the_readers_words(
    client, app, every_import_apart
):
    before = rows(app)
    broken = {**MINIMAL, "rounds": [{"input": {"clue": "a cat"}}]}
    response = client.post("/api/sessions/import", json=broken)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["field"], error["round"]) == ("missing_field", "storyteller", 1)
    korean = client.post(
        "/api/sessions/import",
        json={**MINIMAL, "format": "nope"},
        headers={"Accept-Language": "ko"},
    )
    assert korean.status_code == 422
    assert korean.get_json()["error"]["code"] == "invalid_value"
    assert "'nope'" in korean.get_json()["error"]["message"]
    assert "받은 값" in korean.get_json()["error"]["message"]
    assert rows(app) == before


def test_a_child_that_dies_is_busy_and_stores_nothing(client, app, monkeypatch, every_import_apart):
    monkeypatch.setattr(apart, "CHILD", "refapp.services.archive.no_such_module")
    before = rows(app)
    response = client.post("/api/sessions/import", json=MINIMAL)
    assert response.status_code == 503, response.get_json()
    assert response.get_json()["error"]["code"] == "busy"
    assert rows(app) == before


def test_a_small_import_stays_in_the_servers_thread(client, app, monkeypatch):
    def no_child(*_args, **_kwargs):
        raise AssertionError("a small import started a child process")

    monkeypatch.setattr(apart, "in_child", no_child)
    response = client.post("/api/sessions/import", json=MINIMAL)
    assert response.status_code == 201, response.get_json()


@pytest.fixture
def misbehaving(monkeypatch, every_import_apart):
    """Make every import's child one of tests/apart_children.py; return what picks its end."""
    monkeypatch.setattr(apart, "CHILD", "tests.apart_children")
    return lambda how: monkeypatch.setenv("REFAPP_TEST_CHILD", how)


def warnings_of(caplog) -> list[str]:
    """Return the lines the import logged at WARNING."""
    return [r.getMessage() for r in caplog.records if r.name == apart.__name__]


def test_a_child_killed_after_its_commit_is_answered_as_stored(
    client, app, monkeypatch, misbehaving, caplog
):
    misbehaving("killed")
    before = rows(app)
    with caplog.at_level(logging.WARNING, logger="refapp"):
        response = client.post("/api/sessions/import?rounds=all", json=MINIMAL)
    assert response.status_code == 201, response.get_json()
    copied = response.get_json()
    assert copied["totals"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert response.headers["Location"].endswith(f"/api/sessions/{copied['id']}")
    assert rows(app)["GameSession"] == before["GameSession"] + 1  # one, and no retry needed
    entry = client.get(f"/api/sessions/{copied['id']}/audit").get_json()["entries"][-1]
    assert entry["action"] == "import_session" and len(entry["after"]["import_token"]) >= 20
    lines = warnings_of(caplog)
    assert len(lines) == 1 and f"after storing session {copied['id']}" in lines[0], lines
    monkeypatch.setattr(apart, "CHILD", "refapp.services.archive.child")  # a child that answers
    # its export, the token in its trail, imports again
    exported = client.get(f"/api/sessions/{copied['id']}/export").get_json()
    assert client.post("/api/sessions/import", json=exported).status_code == 201


def test_a_stopped_child_is_killed_past_its_time_limit_and_nothing_is_stored(
    client, app, monkeypatch, misbehaving, caplog
):
    monkeypatch.setattr(apart, "LIMIT_FLOOR", 1.5)
    misbehaving("stopped")
    before = rows(app)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="refapp"):
        response = client.post("/api/sessions/import", json=MINIMAL)
    took = time.monotonic() - started
    assert response.status_code == 503 and response.get_json()["error"]["code"] == "busy"
    assert 1.5 <= took < 10, took
    assert rows(app) == before
    lines = warnings_of(caplog)
    assert len(lines) == 2 and "killed" in lines[0] and "nothing was stored" in lines[1], lines


def test_a_child_stalled_after_its_commit_is_killed_then_answered_as_stored(
    client, app, monkeypatch, misbehaving, caplog
):
    monkeypatch.setattr(apart, "LIMIT_FLOOR", 10.0)  # time enough to start and store one round
    misbehaving("stored-then-stopped")
    before = rows(app)
    with caplog.at_level(logging.WARNING, logger="refapp"):
        response = client.post("/api/sessions/import", json=MINIMAL)
    assert response.status_code == 201, response.get_json()
    assert rows(app)["GameSession"] == before["GameSession"] + 1
    lines = warnings_of(caplog)
    assert len(lines) == 2 and "killed" in lines[0], lines
    assert f"after storing session {response.get_json()['id']}" in lines[1]


def test_the_time_limit_grows_with_the_body():
    largest = apart.time_limit(imports.IMPORT_MAX_BYTES)
    assert 8 * 60 < largest < 9 * 60  # the largest body: 8.6 minutes, inside nginx's 600 s
    assert apart.LIMIT_FLOOR < apart.time_limit(apart.APART) < 3 * 60
