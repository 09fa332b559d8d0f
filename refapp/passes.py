"""A device's pass: a signed cookie a right password earns, so guessers never hold it back.

It names the device (a random id), when it was given, and the start of a digest of the password
it was given for; ``access`` counts the password checks of a device that shows one in force by
that id alone (``Throttle``), apart from its address. It grants nothing else: writing still
takes a sign-in or the password header. Signed with the app's secret, so every worker process
reads it alike.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from flask import Response, current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer

#: the cookie: {"id": random, "at": time given, "key": start of the password's digest}
COOKIE = "refapp_pass"
#: seconds a pass lasts: a month, so a table that meets weekly finds its phones known again
LIFE = 30 * 24 * 3600
#: seconds after which a right password renews the pass (not every write sends a new cookie)
RENEW = 24 * 3600
#: random bytes of a pass's id
ID_BYTES = 18


def serializer() -> URLSafeSerializer:
    """Return the signer of passes (keyed with the app's secret)."""
    return URLSafeSerializer(str(current_app.secret_key), salt="refapp-device-pass")


def shown(key: str, moment: float) -> dict[str, Any] | None:
    """Return the pass this request shows if it is signed, for this key and in force."""
    raw = request.cookies.get(COOKIE)
    if not raw:
        return None
    try:
        held = serializer().loads(raw)
    except BadSignature:
        return None
    if not isinstance(held, dict):
        return None
    pass_id, at, its_key = held.get("id"), held.get("at"), held.get("key")
    if not isinstance(pass_id, str) or not isinstance(its_key, str):
        return None
    if not isinstance(at, (int, float)) or not 0 <= moment - at <= LIFE:
        return None
    return held if hmac.compare_digest(its_key, key) else None


def earned(held: dict[str, Any] | None, key: str, moment: float) -> None:
    """Give this device a pass for a right password, or renew an old one (same id)."""
    if held is None or moment - held["at"] > RENEW:
        pass_id = held["id"] if held else secrets.token_urlsafe(ID_BYTES)
        g.device_pass = {"id": pass_id, "at": moment, "key": key}


def give(response: Response) -> Response:
    """Send the device the pass a right password earned in this request (if one did)."""
    held = g.pop("device_pass", None)
    if held is not None:
        response.set_cookie(
            COOKIE,
            serializer().dumps(held),
            max_age=LIFE,
            path=request.script_root or "/",
            secure=request.is_secure,
            httponly=True,
            samesite="Lax",
        )
    return response
