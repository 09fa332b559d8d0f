"""Flask's signed-cookie sessions, without their per-request cost where nothing is signed.

Flask's interface builds its signing serializer for every request, even one without a cookie (an
API call, a phone's poll) - and building it signs an empty value to learn its type. Here the
serializer is built once per secret, a request without the cookie opens a new empty session at
once, and one that never touched it saves nothing at once: the sessions read and written are
Flask's own, byte for byte.
"""

from __future__ import annotations

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer


class SignedCookies(SecureCookieSessionInterface):
    """Flask's cookie sessions, their serializer kept per secret (rotations included)."""

    def __init__(self) -> None:
        self.kept: tuple[object, object, URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Return Flask's serializer for the app's secrets, built once while they stay."""
        secrets = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = self.kept
        if kept is None or kept[0] is not secrets[0] or kept[1] != secrets[1]:
            kept = self.kept = (*secrets, super().get_signing_serializer(app))
        return kept[2]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Open the request's session: a new empty one at once when it sent no cookie."""
        if app.secret_key and self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Save the session as Flask does; a session empty and untouched at once (Flask would
        work out the cookie's settings, then do nothing with them)."""
        if session or session.modified or session.accessed:
            super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    """Use these cookie sessions for the app."""
    app.session_interface = SignedCookies()
