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


def test_a_stored_session_already_over_by_its_state_takes_no_more_rounds(api, app):
    """Six players, the pile emptied by turn 8 under "end" in a state stored before the flag was
    set: the game is over, so turn 9 is session_finished, and nothing changes."""
    from .test_migrations_data import SIX, six_turns

    rules = {"deck_exhausted": "end_when_short", "target_score": 10**6}
    session = api.create(SIX, rules=rules)
    for turn in six_turns(8):
        assert api.record(session["id"], turn).status_code == 201
    with app.app_context():
        stored = db.session.get(GameSession, session["id"])
        stored.rules = {**stored.rules, "deck_exhausted": "end"}
        db.session.commit()
    before = api.session(session["id"])
    for dry_run in (True, False):
        response = api.record(session["id"], six_turns(9)[8], dry_run=dry_run)
        assert response.status_code == 409
        assert response.get_json()["error"]["code"] == "session_finished"
    assert api.session(session["id"]) == before
