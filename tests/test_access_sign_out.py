"""Signing out ends that sign-in on the server: a copy of the cookie made before stops writing."""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.models import Round, SignIn

from .test_security_sign_in import HOUR, Clock
from .test_web import new_session, turn_form

OWL = {"X-Table-Password": "owl"}


@pytest.fixture
def clock() -> Clock:
    """Return a hand-moved clock."""
    return Clock()


@pytest.fixture
def table(app, clock):
    """Return the test app with the table password 'owl' and the hand-moved clock (CSRF off)."""
    app.config.update(PASSWORD="owl", ACCESS_CLOCK=clock)
    return app


def sign_in(client, password: str = "owl"):
    """Post the sign-in form and return the response."""
    return client.post("/signin", data={"password": password})


def rows(app, model) -> int:
    """Count stored rows of a model."""
    with app.app_context():
        return db.session.query(model).count()


def copy_of(app, client):
    """Return another client holding a copy of this client's session cookie."""
    copy = app.test_client()
    copy.set_cookie("session", client.get_cookie("session").value)
    return copy


def test_a_cookie_copied_before_sign_out_no_longer_records(table):
    phone = table.test_client()
    assert sign_in(phone).status_code == 302
    sid = new_session(phone)
    copy = copy_of(table, phone)
    recorded = copy.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="1"))
    assert recorded.status_code == 302 and recorded.headers["Location"].startswith(
        f"/sessions/{sid}"
    )
    assert rows(table, Round) == 1  # the copy wrote while the sign-in was in force
    assert phone.post("/signout").status_code == 302
    assert rows(table, SignIn) == 0
    votes = {"Ann": "3", "Cy": "3", "Dee": "2"}
    refused = copy.post(
        f"/sessions/{sid}/rounds",
        data=turn_form(storyteller="Ben", votes=votes, expected_round="2"),
    )
    assert refused.status_code == 302
    assert refused.headers["Location"].startswith("/signin?next=")
    assert rows(table, Round) == 1
    assert copy.get("/sessions/new?game=dixit").status_code == 302
    assert "Sign in</a>" in copy.get(f"/sessions/{sid}").get_data(as_text=True)
    assert phone.get("/sessions/new?game=dixit").status_code == 302


def test_signing_out_ends_only_that_sign_in(table):
    first, second = table.test_client(), table.test_client()
    sign_in(first)
    sign_in(second)
    assert rows(table, SignIn) == 2
    first.post("/signout")
    assert first.get("/sessions/new?game=dixit").status_code == 302
    assert second.get("/sessions/new?game=dixit").status_code == 200
    assert rows(table, SignIn) == 1


def test_the_server_keeps_a_digest_of_the_random_id_not_the_id(table):
    phone = table.test_client()
    sign_in(phone)
    serializer = table.session_interface.get_signing_serializer(table)
    mark = serializer.loads(phone.get_cookie("session").value)["table_sign_in"]
    assert len(mark["id"]) >= 40
    with table.app_context():
        stored = db.session.scalars(db.select(SignIn.digest)).all()
    assert len(stored) == 1 and len(stored[0]) == 64 and mark["id"] not in stored[0]


def test_signing_in_again_replaces_the_browsers_own_sign_in(table):
    phone = table.test_client()
    sign_in(phone)
    old = copy_of(table, phone)
    sign_in(phone)
    assert rows(table, SignIn) == 1
    assert phone.get("/sessions/new?game=dixit").status_code == 200
    assert old.get("/sessions/new?game=dixit").status_code == 302


def test_expired_sign_ins_are_pruned_at_each_sign_in(table, clock):
    for _ in range(3):
        sign_in(table.test_client())
    clock.now += 12 * HOUR
    late = table.test_client()
    sign_in(late)
    assert rows(table, SignIn) == 1
    assert late.get("/sessions/new?game=dixit").status_code == 200


def test_a_wrong_password_stores_nothing(table):
    phone = table.test_client()
    assert sign_in(phone, "cat").status_code == 401
    assert rows(table, SignIn) == 0


def test_a_signed_in_page_costs_one_query_and_an_open_table_none(table, count_queries):
    reader, phone = table.test_client(), table.test_client()
    sign_in(phone)
    phone.get("/")  # shows the flashed "Signed in"
    with count_queries() as anonymous:
        assert reader.get("/").status_code == 200
    with count_queries() as signed:
        page = phone.get("/").get_data(as_text=True)
    assert "Sign out" in page
    assert signed.count == anonymous.count + 1
    table.config["PASSWORD"] = None
    with count_queries() as open_table:
        assert phone.get("/").status_code == 200
    assert open_table.count == anonymous.count
