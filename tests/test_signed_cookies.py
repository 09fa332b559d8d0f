"""The app's cookie sessions are Flask's own: the same cookies read, a new secret refusing the old
ones, a fallback secret still reading them, and no serializer made for a request without one."""

from __future__ import annotations

from flask import request
from flask.sessions import SecureCookieSessionInterface

from refapp.signed_cookies import SignedCookies


def opened(app, cookie: str | None) -> dict:
    """Return the session the app's interface opens for a request carrying ``cookie``."""
    name = app.config["SESSION_COOKIE_NAME"]
    headers = {"Cookie": f"{name}={cookie}"} if cookie is not None else {}
    with app.test_request_context(headers=headers):
        return dict(app.session_interface.open_session(app, request))


def test_a_cookie_flask_signs_is_read_and_a_new_secret_refuses_it(app):
    assert isinstance(app.session_interface, SignedCookies)
    flasks = SecureCookieSessionInterface()
    cookie = flasks.get_signing_serializer(app).dumps({"signed_in": 1})
    assert opened(app, cookie) == {"signed_in": 1}
    assert opened(app, "not-a-signed-value") == {}
    old, app.secret_key = app.secret_key, "another secret"
    assert opened(app, cookie) == {}  # the old secret's cookie ends with it
    app.config["SECRET_KEY_FALLBACKS"] = [old]
    assert opened(app, cookie) == {"signed_in": 1}  # unless the old secret is a fallback
    app.config["SECRET_KEY_FALLBACKS"].clear()  # a list changed in place is seen too
    assert opened(app, cookie) == {}


def test_a_request_without_the_cookie_opens_an_empty_session_and_makes_no_serializer(
    app, monkeypatch
):
    made: list[object] = []
    interface = app.session_interface
    real = SecureCookieSessionInterface.get_signing_serializer

    def counted(self, current):
        made.append(current)
        return real(self, current)

    monkeypatch.setattr(SecureCookieSessionInterface, "get_signing_serializer", counted)
    interface.kept = None
    assert opened(app, None) == {}
    assert made == []
    cookie = real(interface, app).dumps({"a": 1})
    assert opened(app, cookie) == opened(app, cookie) == {"a": 1}
    assert len(made) == 1  # made once for the secret, then kept
