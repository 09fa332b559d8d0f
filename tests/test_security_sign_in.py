"""A page sign-in is tied to the table password and ends after a limited time."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest

from .test_access import sign_in

HOUR = 3600.0
FORM = "/sessions/new?game=dixit"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    """Return a hand-moved clock."""
    return Clock()


@pytest.fixture
def table(app, clock):
    """Return the test app with the table password 'owl', CSRF on and the hand-moved clock."""
    app.config.update(PASSWORD="owl", WTF_CSRF_ENABLED=True, ACCESS_CLOCK=clock)
    return app


def signed_in(client) -> bool:
    """Return True when the page for a new session opens (it needs a sign-in)."""
    status = client.get(FORM).status_code
    assert status in (200, 302)
    return status == 200


def cookie_contents(app, client) -> dict:
    """Return what the session cookie holds (it is signed, not encrypted)."""
    cookie = client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value)


def test_a_new_password_ends_every_sign_in(table):
    client = table.test_client()
    assert sign_in(client).status_code == 302 and signed_in(client)
    table.config["PASSWORD"] = "hawk"
    assert not signed_in(client)
    assert "Sign in</a>" in client.get("/").get_data(as_text=True)
    table.config["PASSWORD"] = "owl"
    assert signed_in(client)  # the same password again: the same sign-in


def test_a_sign_in_lasts_twelve_hours_however_busy_the_table(table, clock):
    client = table.test_client()
    sign_in(client)
    for _ in range(11):
        clock.now += HOUR
        assert signed_in(client)
    clock.now += HOUR - 1
    assert signed_in(client)
    clock.now += 2
    assert not signed_in(client)
    assert sign_in(client).status_code == 302 and signed_in(client)


def test_the_cookie_is_not_renewed_by_each_request(table):
    assert table.config["SESSION_REFRESH_EACH_REQUEST"] is False
    assert table.permanent_session_lifetime == timedelta(hours=12)
    client = table.test_client()
    signed = sign_in(client)
    cookie = next(c for c in signed.headers.getlist("Set-Cookie") if c.startswith("session="))
    assert "Expires=" in cookie
    client.get("/")  # shows (and so removes) the flashed "Signed in"
    assert "session=" not in " ".join(client.get("/").headers.getlist("Set-Cookie"))


def test_the_cookie_holds_a_keyed_digest_not_the_password(table):
    client = table.test_client()
    sign_in(client)
    held = repr(cookie_contents(table, client))
    assert "owl" not in held
    assert hashlib.sha256(b"owl").hexdigest() not in held


def test_a_cookie_from_before_the_digest_no_longer_writes(table):
    client = table.test_client()
    serializer = table.session_interface.get_signing_serializer(table)
    client.set_cookie("session", serializer.dumps({"table_signed_in": True}))
    assert not signed_in(client)


def test_signing_out_forgets_the_sign_in(table):
    client = table.test_client()
    sign_in(client)
    page = client.get("/").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert client.post("/signout", data={"csrf_token": token}).status_code == 302
    assert not signed_in(client)
