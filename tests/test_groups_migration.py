"""The groups migration (c4f1a9e2d7b5): a database of b8e2d4f6a1c3 goes into the default group
with nothing lost, and comes back down while it holds one group."""

from __future__ import annotations

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from refapp.extensions import db

from .conftest import Api, migrated_sqlite_app, turn

BEFORE = "b8e2d4f6a1c3"
TABLES = ("player", "game_session", "session_player", "round", "rule_set", "audit_entry")


def counts() -> dict[str, int]:
    """Return the rows of each table (app context)."""
    return {
        table: db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
        for table in TABLES
    }


def test_a_database_before_groups_goes_into_the_default_group(tmp_path):
    app = migrated_sqlite_app(tmp_path / "before.sqlite")
    client = app.test_client()
    api = Api(client)
    sid = api.create()["id"]
    for storyteller in ("Ann", "Ben"):
        assert api.record(sid, turn(storyteller)).status_code == 201
    saved = client.put("/api/rule-sets/Friday", json={"game": "dixit", "rules": {}})
    assert saved.status_code in (200, 201)
    before = api.session(sid)
    with app.app_context():
        downgrade(revision=BEFORE)
        stored = counts()
        columns = [row[1] for row in db.session.execute(text("PRAGMA table_info(player)"))]
        assert "group_id" not in columns
        db.session.remove()
        upgrade()
        assert counts() == stored
        groups = db.session.execute(text("SELECT id, slug FROM club_group")).all()
        assert [tuple(row) for row in groups] == [(1, "default")]
        for table in ("player", "game_session", "rule_set"):
            ids = db.session.execute(text(f"SELECT DISTINCT group_id FROM {table}")).scalars()
            assert list(ids) == [1], table
        db.session.remove()
    assert api.session(sid) == before
    assert client.get("/api/rule-sets/Friday").status_code == 200
    app.config["SERVER_PASSWORD"] = "s"
    made = client.post(
        "/api/groups",
        json={"name": "Club", "organizer_password": "o"},
        headers={"X-Server-Password": "s"},
    )
    assert made.status_code == 201
    again = client.post(
        "/g/club/api/sessions",
        json={"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]},
        headers={"X-Organizer-Password": "o"},
    )
    assert again.status_code == 201  # the same names again, in the new group: new players
    with app.app_context():
        assert db.session.execute(text("SELECT count(*) FROM player")).scalar_one() == 8
        with pytest.raises(SystemExit):  # Flask-Migrate's exit after the migration's refusal
            downgrade(revision=BEFORE)
        tables = db.session.execute(text("SELECT count(*) FROM club_group")).scalar_one()
        assert tables == 2  # nothing was dropped
        db.session.remove()
        db.engine.dispose()
