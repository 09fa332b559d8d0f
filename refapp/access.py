"""The optional table password: anyone on the Wi-Fi may read; writing needs a sign-in.

With no password configured (REFAPP_PASSWORD or PASSWORD in instance/config.py) everything is
open, as on a laptop nobody else can reach. API clients may send the password in an
``X-Table-Password`` header instead of signing in.
"""

from __future__ import annotations

import hmac

from flask import Flask, current_app, g, redirect, request, session, url_for

from .games.base import RuleViolation

READ_METHODS = {"GET", "HEAD", "OPTIONS"}
#: pages that are forms for writing, so even reading them asks for a sign-in
WRITE_PAGES = {"web.new_session", "web.edit_round"}
OPEN_PAGES = {"web.sign_in", "web.sign_out", "static"}


def table_password() -> str | None:
    """Return the configured table password, if any."""
    return current_app.config.get("PASSWORD") or None


def password_matches(given: str | None) -> bool:
    """Compare a given password with the table's in constant time."""
    expected = table_password()
    return bool(expected and given) and hmac.compare_digest(given.encode(), expected.encode())


def can_write() -> bool:
    """Return True when this request may change things."""
    if table_password() is None:
        return True
    if session.get("table_signed_in"):
        return True
    return password_matches(request.headers.get("X-Table-Password"))


def require_sign_in():
    """Refuse a write (or a form page) from someone who has not signed in."""
    g.can_write = can_write()
    if g.can_write or request.endpoint in OPEN_PAGES:
        return None
    writing = request.method not in READ_METHODS or request.endpoint in WRITE_PAGES
    if not writing:
        return None
    if request.path.startswith("/api/"):
        from .api.errors import violation_response

        response = violation_response(
            RuleViolation(
                "sign_in_required",
                "This table has a password: sign in, or send it in the X-Table-Password header.",
            )
        )
        response.status_code = 401
        return response
    return redirect(url_for("web.sign_in", next=request.full_path.rstrip("?")))


def security_headers(response):
    """Add headers that keep pages from being framed, sniffed or fed other sites' scripts."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
    )
    return response


def init_app(app: Flask) -> None:
    """Read the password (environment first) and guard every request."""
    import os

    if os.environ.get("REFAPP_PASSWORD"):
        app.config["PASSWORD"] = os.environ["REFAPP_PASSWORD"]
    app.before_request(require_sign_in)
    app.after_request(security_headers)
    app.context_processor(
        lambda: {
            "can_write": g.get("can_write", True),
            "has_password": table_password() is not None,
        }
    )
