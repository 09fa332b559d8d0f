"""The server password (REFAPP_SERVER_PASSWORD, or SERVER_PASSWORD in instance/config.py): it
makes and lists the server's groups. Without one, groups are off (403 groups_off); a missing or
wrong one is 401 password_required, slowed like the table password (``access.attempt``)."""

from __future__ import annotations

import hmac

from flask import Response, current_app, request

from . import access, club
from .games.errors import AccessDenied

HEADER = "X-Server-Password"


def server_password() -> str | None:
    """Return the configured server password, if any."""
    value: str | None = current_app.config.get("SERVER_PASSWORD") or None
    return value


def server_matches(given: str) -> bool:
    """Compare a given password with the server's in constant time (keyed digests)."""
    expected = server_password()
    return bool(expected) and hmac.compare_digest(club.keyed(given), club.keyed(expected or ""))


def header_matches(raw: str) -> bool:
    """Compare every reading of the header with the server password (no early exit)."""
    matched = False
    for reading in access.header_readings(raw):
        matched |= server_matches(reading)
    return matched


def groups_off() -> AccessDenied:
    """Return the refusal of a server without a server password."""
    return AccessDenied(
        "groups_off", "This server has no server password (REFAPP_SERVER_PASSWORD): groups are off."
    )


def password_required() -> AccessDenied:
    """Return the refusal of a missing or wrong server password."""
    return AccessDenied(
        "password_required",
        "Send the server password in the X-Server-Password header "
        "(percent-encoded if it is not ASCII).",
    )


def check(given: str | None) -> AccessDenied | None:
    """Return the refusal of a server password given (None: it is right), counting a wrong one;
    a client held back is refused ``too_many_attempts``."""
    if server_password() is None:
        return groups_off()
    if not given:
        return password_required()
    wait = access.retry_after()
    if wait:
        return access.too_many_attempts(wait)
    return None if access.attempt(given, header_matches) else password_required()


def guard_api() -> Response | None:
    """Refuse a groups route without the right X-Server-Password."""
    refusal = check(request.headers.get(HEADER))
    if refusal is None:
        return None
    seconds = refusal.params.get("seconds")
    if refusal.code == "too_many_attempts" and isinstance(seconds, int):
        return access.held_back(seconds)
    return access.api_refusal(refusal)
