"""A large import is done in a child process: the server's thread only waits and answers.

The import's CPU work (reading, replaying, storing) runs in a Python of its own, so the serving
process's threads (the polls) never wait for its lock. These tests make every import "large"
(``apart.APART = 0``) and make the server's own import code fail: an import still stored proves
the work was done elsewhere.
"""

from __future__ import annotations

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
