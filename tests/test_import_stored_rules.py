"""A session stored under rules a later check refuses for new sessions still exports and imports."""

from __future__ import annotations

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import AuditEntry, GameSession

from .conftest import SEED_TURN
from .test_archive import assert_round_trip


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
    with app.app_context():
        stored = db.session.get(GameSession, session["id"])
        stored.rules = {**stored.rules, "target_score": None, "end_after_rounds": None}
        created = db.session.scalars(
            select(AuditEntry).where(AuditEntry.session_id == stored.id)
        ).one()
        created.after = {**created.after, "rules": stored.rules}
        db.session.commit()
    api.record(session["id"], SEED_TURN)
    copied = assert_round_trip(api, api.session(session["id"]))
    assert copied["rules"]["target_score"] is None
    assert copied["rules"]["end_after_rounds"] is None
    assert copied["totals"] == api.session(session["id"])["totals"]
