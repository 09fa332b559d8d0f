"""A refusal that escapes a page answers its own status (never a logged 500), and what the
request began is undone; each write service rolls back whatever it raises."""

import logging

import pytest
from sqlalchemy import func, select

from refapp.extensions import db
from refapp.games.errors import Conflict, RuleViolation
from refapp.models import Player, utcnow
from refapp.services import writes


@pytest.fixture
def refusing(app):
    """Return a client of an app with two pages whose refusals escape them."""

    def conflict():
        raise Conflict("lost_race", "Another device recorded this round first.")

    def half_written():
        db.session.add(Player(name="Halfway", created_at=utcnow()))
        db.session.flush()
        raise RuleViolation("too_many_rounds", "A session holds at most {most} rounds.", most=3)

    app.add_url_rule("/test-refusal/conflict", "test_conflict", conflict)
    app.add_url_rule("/test-refusal/half", "test_half", half_written)
    return app.test_client()


def test_escaped_page_refusal_is_its_status_not_500(refusing, caplog):
    with caplog.at_level(logging.ERROR):
        page = refusing.get("/test-refusal/conflict")
    assert page.status_code == 409
    assert page.mimetype == "text/html"
    assert "Another device recorded this round first." in page.get_data(as_text=True)
    assert "unexpected error" not in caplog.text


def test_escaped_refusal_undoes_what_the_page_began(refusing, app):
    page = refusing.get("/test-refusal/half")
    assert page.status_code == 422
    assert "A session holds at most 3 rounds." in page.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0


def test_escaped_refusal_asked_as_json_is_the_api_body(refusing):
    answer = refusing.get("/test-refusal/conflict", headers={"Accept": "application/json"})
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "lost_race"


def test_transaction_rolls_back_what_raised(app):
    with app.app_context():
        with pytest.raises(Conflict), writes.transaction():
            db.session.add(Player(name="Gone", created_at=utcnow()))
            db.session.flush()
            raise writes.lost_race()
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0
