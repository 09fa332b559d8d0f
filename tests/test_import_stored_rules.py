"""A session stored under rules a later check refuses for new sessions still exports and imports."""

from __future__ import annotations

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import AuditEntry, GameSession, RuleSet

from .conftest import SEED_TURN
from .test_archive import assert_round_trip, fresh_database
from .test_import_restore import backup_of, restore


def never_ending(app, session_id: int) -> None:
    """Give a stored Dixit session no target and no rounds to play, its trail saying the same."""
    with app.app_context():
        stored = db.session.get(GameSession, session_id)
        stored.rules = {**stored.rules, "target_score": None, "end_after_rounds": None}
        created = db.session.scalars(
            select(AuditEntry).where(AuditEntry.session_id == stored.id)
        ).one()
        created.after = {**created.after, "rules": stored.rules}
        db.session.commit()


def test_a_dixit_session_stored_without_a_target_or_rounds_still_round_trips(api, app):
    """No target and no rounds to play (allowed before): a new session is refused, a stored one
    exports and imports with its rules as they were."""
    refused = api.client.post(
        "/api/sessions",
        json={
            "game": "dixit",
            "players": ["Ann", "Ben", "Cy", "Dee"],
            "rules": {"target_score": None},
        },
    )
    assert refused.status_code == 422
    assert refused.get_json()["error"]["field"] == "rules.target_score"
    session = api.create()
    never_ending(app, session["id"])
    api.record(session["id"], SEED_TURN)
    copied = assert_round_trip(api, api.session(session["id"]))
    assert copied["rules"]["target_score"] is None
    assert copied["rules"]["end_after_rounds"] is None
    assert copied["totals"] == api.session(session["id"])["totals"]


def test_a_backup_with_such_a_session_and_saved_rules_restores(api, app, tmp_path):
    """The whole backup restores: the session and a saved set without a target or rounds."""
    session = api.create()
    never_ending(app, session["id"])
    api.record(session["id"], SEED_TURN)
    with app.app_context():
        db.session.add(
            RuleSet(name="Forever", game="dixit", preset=None, rules={"target_score": None})
        )
        db.session.commit()
    before = api.session(session["id"])
    data = backup_of(api, app, tmp_path)
    fresh_database(app)
    result = restore(app, tmp_path, data)
    assert result.exit_code == 0, result.output
    after = api.session(session["id"])
    assert (after["rules"], after["totals"]) == (before["rules"], before["totals"])
    with app.app_context():
        assert db.session.scalars(select(RuleSet.rules)).all() == [{"target_score": None}]
