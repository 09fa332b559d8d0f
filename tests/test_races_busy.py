"""A write that cannot get the database's lock in time answers 503 busy, never 500.

Another connection holds the lock (SQLite: an immediate write transaction; PostgreSQL: the rows'
``FOR UPDATE``) while the app, with a short busy timeout, writes: the API answers ``503 busy``
in its error shape with ``Retry-After``, a page answers a 503 page, and nothing is stored.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

import pytest
from sqlalchemy.exc import OperationalError

from refapp import extensions
from refapp.extensions import db
from refapp.models import AuditEntry, Round
from refapp.services import writes

from .conftest import turn

#: the busy timeout (ms) the app is given here: short, so a test waits little
SHORT = 300


@pytest.fixture
def impatient(app, monkeypatch):
    """Give the app's new connections a short busy timeout (the pool starts empty)."""
    monkeypatch.setattr(extensions, "BUSY_TIMEOUT_MS", SHORT)
    with app.app_context():
        db.engine.dispose()
    return app


@contextmanager
def held(app, session_id: int, player: str):
    """Hold the write lock of a session and a player from another connection meanwhile."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:///"):
        other = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as other:
        other.execute("SELECT id FROM game_session WHERE id = %s FOR UPDATE", (session_id,))
        other.execute("SELECT id FROM player WHERE name = %s FOR UPDATE", (player,))
        yield
        other.rollback()


def stored(app) -> tuple[int, int]:
    """Return how many rounds and audit entries are stored."""
    with app.app_context():
        return db.session.query(Round).count(), db.session.query(AuditEntry).count()


def assert_busy(response) -> None:
    """Assert an API answer is 503 busy in the error shape, with Retry-After."""
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    error = response.get_json()["error"]
    assert error["code"] == "busy"
    assert error["message"] and "field" in error
    assert int(response.headers["Retry-After"]) == writes.RETRY_AFTER


def test_writes_waiting_past_the_busy_timeout_answer_503_busy(impatient, client, api):
    sid = api.create(rules={"target_score": 10**6})["id"]
    assert api.record(sid, turn("Ann")).status_code == 201
    before = stored(impatient)
    with held(impatient, sid, "Ann"):
        assert_busy(api.record(sid, turn("Ben")))
        assert_busy(client.put(f"/api/sessions/{sid}/rounds/1", json=turn("Ann")))
        assert_busy(client.delete(f"/api/sessions/{sid}/rounds/1"))
        assert_busy(client.post(f"/api/sessions/{sid}/finish"))
        assert_busy(client.post("/api/players/Ann/rename", json={"name": "Anna"}))
        assert_busy(
            client.post("/api/sessions", json={"game": "dixit", "players": ["Ann", "B", "C"]})
        )
        page = client.post("/players/Ann/rename", data={"name": "Anna"})
        assert page.status_code == 503
        assert "text/html" in page.content_type
        assert page.headers["Retry-After"] == str(writes.RETRY_AFTER)
    assert stored(impatient) == before
    session = api.session(sid)
    assert (session["version"], session["players"][0], session["finished"]) == (2, "Ann", False)
    assert api.record(sid, turn("Ben")).status_code == 201  # the lock released: writes go on


def test_reads_of_the_figures_go_on_while_a_write_holds_the_database(impatient, client, api):
    # a running table's round is left to the next read of the figures; a read that cannot get
    # its turn to add it answers with the figures as they stand, and the next one adds it
    sid = api.create(rules={"target_score": 10**6})["id"]
    assert api.record(sid, turn("Ann")).status_code == 201
    with held(impatient, sid, "Ann"):
        for path in ("/api/players/Ann", "/players/Ann", "/api/stats", "/api/players"):
            assert client.get(path).status_code == 200, path
        assert client.get("/api/players/Ann").get_json()["games"] == {}
    games = client.get("/api/players/Ann").get_json()["games"]
    assert games["dixit"]["rounds_played"] == 1


def test_a_lock_error_at_a_flush_or_commit_is_503_busy_too(client, api, app, monkeypatch):
    sid = api.create(rules={"target_score": 10**6})["id"]
    before = stored(app)

    def locked(*args, **kwargs):
        raise OperationalError(
            "INSERT INTO audit_entry", {}, sqlite3.OperationalError("database is locked")
        )

    monkeypatch.setattr(writes, "audit", locked)
    assert_busy(api.record(sid, turn("Ann")))
    page = client.post("/players/Ann/rename", data={"name": "Anna"})
    assert page.status_code == 503
    assert stored(app) == before
    assert api.session(sid)["players"][0] == "Ann"


def test_another_database_error_is_still_a_plain_500(client, api, monkeypatch):
    sid = api.create(rules={"target_score": 10**6})["id"]

    def broken(*args, **kwargs):
        raise OperationalError(
            "INSERT INTO audit_entry", {}, sqlite3.OperationalError("disk I/O error")
        )

    monkeypatch.setattr(writes, "audit", broken)
    response = api.record(sid, turn("Ann"))
    assert response.status_code == 500
    assert response.get_json()["error"]["code"] == "server_error"
    assert "Retry-After" not in response.headers
