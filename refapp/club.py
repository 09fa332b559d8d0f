"""Groups on one server: which group a request addresses, its passwords, and the organizer.

A request under ``/g/<slug>/`` addresses that group: ``Prefixed`` (WSGI, the innermost layer)
moves the prefix from ``PATH_INFO`` to ``SCRIPT_NAME``, so every route matches as without it and
``url_for`` makes the group's links by itself; ``resolve`` (the first ``before_request``) reads
the group once (an unknown slug: 404) and keeps it in ``g``. Without the prefix the request
addresses the default group (id 1) and no query is made. The default group's passwords are the
server's configuration (PASSWORD, ORGANIZER_PASSWORD); another group's are the salted digests
its row keeps. ``is_organizer`` reads what the password guard (access.py) found.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Iterable
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask, abort, current_app, g, has_app_context, has_request_context, request
from sqlalchemy import select

from .extensions import db
from .group_models import DEFAULT_ID, Group

#: a group's slug (its address), and the prefix that names one
SLUG = re.compile(r"[a-z0-9-]{1,40}")
PREFIX = re.compile(r"/g/([a-z0-9-]{1,40})(?=/|$)")
#: where the middleware leaves the slug for ``resolve``
ENVIRON_KEY = "refapp.group"
#: the script root before a group's prefix (where the server's own pages are)
BASE_KEY = "refapp.base"
#: the organizer's header (percent-encoded when not ASCII, like X-Table-Password)
ORGANIZER_HEADER = "X-Organizer-Password"
#: the config key an import's child process reads its group from (services/archive/apart.py)
CHILD_GROUP = "REFAPP_CHILD_GROUP"
#: pbkdf2 rounds of a group's password digest (a write checks it: kept cheap; the throttle
#: holds guessers back)
ROUNDS = 2000


class Prefixed:
    """WSGI middleware: ``/g/<slug>/...`` is served as ``/...`` with the slug noted."""

    def __init__(self, wrapped: WSGIApplication) -> None:
        self.wrapped = wrapped

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Move a group's prefix into ``SCRIPT_NAME`` and pass the request on."""
        path = environ.get("PATH_INFO", "")
        found = PREFIX.match(path)
        if found is not None:
            environ[ENVIRON_KEY] = found.group(1)
            environ[BASE_KEY] = environ.get("SCRIPT_NAME", "")
            environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + found.group(0)
            environ["PATH_INFO"] = path[found.end() :] or "/"
        return self.wrapped(environ, start_response)


def resolve() -> None:
    """Read the group this request addresses once (an unknown slug: 404 not_found)."""
    slug = request.environ.get(ENVIRON_KEY)
    if slug is None:
        g.group_id, g.group = DEFAULT_ID, None
        return
    group = db.session.scalars(select(Group).where(Group.slug == slug)).one_or_none()
    if group is None:
        abort(404, "There is no such group.")
    g.group_id, g.group = group.id, (None if group.id == DEFAULT_ID else group)


def current_group_id() -> int:
    """Return the id of the group this request addresses (1: the default group; an import's
    child process: the group its parent's request addressed)."""
    if not has_request_context():
        child: int = current_app.config.get(CHILD_GROUP, DEFAULT_ID) if has_app_context() else 1
        return child
    group_id: int = g.get("group_id", DEFAULT_ID)
    return group_id


def current_group() -> Group | None:
    """Return the row of the group this request addresses (None: the default group)."""
    return g.get("group") if has_request_context() else None


def is_organizer() -> bool:
    """Return True when this request carries the group's organizer right."""
    return bool(g.get("organizer", False)) if has_request_context() else False


def keyed(password: str) -> str:
    """Return a digest of a configured password keyed with the app's secret."""
    key = str(current_app.secret_key).encode()
    return hmac.new(key, b"table-password\0" + password.encode(), hashlib.sha256).hexdigest()


def hashed(password: str) -> str:
    """Return the salted digest a group's row keeps of a password (``salt$hex``)."""
    salt = secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), ROUNDS).hex()
    return f"{salt}${digest}"


def hash_matches(stored: str, given: str) -> bool:
    """Compare a given password with a stored ``salt$hex`` digest in constant time."""
    salt, _, digest = stored.partition("$")
    tried = hashlib.pbkdf2_hmac("sha256", given.encode(), salt.encode(), ROUNDS).hex()
    return hmac.compare_digest(tried, digest)


def configured(key: str) -> str | None:
    """Return a password of the server's configuration (PASSWORD, ORGANIZER_PASSWORD)."""
    value: str | None = current_app.config.get(key) or None
    return value


def has_password() -> bool:
    """Return True when this request's group has a table password."""
    group = current_group()
    return configured("PASSWORD") is not None if group is None else bool(group.password_digest)


def password_key() -> str:
    """Return what stands for the group's table password in cookies and passes: a new password
    ends every sign-in and pass kept on the old one ("": no password)."""
    group = current_group()
    if group is None:
        return keyed(configured("PASSWORD") or "")
    return keyed(group.password_digest or "")


def password_matches(given: str | None) -> bool:
    """Return True when ``given`` is the group's table password."""
    group = current_group()
    return matches(given, "PASSWORD", None if group is None else group.password_digest)


def matches(given: str | None, key: str, digest: str | None) -> bool:
    """Return True when ``given`` is a password: the default group's from the configuration
    (``key``), another group's by the digest its row keeps (``digest``)."""
    if not given:
        return False
    if current_group() is None:
        expected = configured(key)
        return bool(expected) and hmac.compare_digest(keyed(given), keyed(expected or ""))
    return bool(digest) and hash_matches(digest or "", given)


def has_organizer() -> bool:
    """Return True when this request's group has an organizer password."""
    group = current_group()
    if group is None:
        return configured("ORGANIZER_PASSWORD") is not None
    return bool(group.organizer_digest)


def organizer_matches(given: str | None) -> bool:
    """Return True when ``given`` is the group's organizer password."""
    group = current_group()
    return matches(given, "ORGANIZER_PASSWORD", None if group is None else group.organizer_digest)


def init_app(app: Flask) -> None:
    """Read the server and organizer passwords (environment first); find each request's group
    (before the password guard, which asks for the group's passwords)."""
    for key in ("SERVER_PASSWORD", "ORGANIZER_PASSWORD"):
        if os.environ.get(f"REFAPP_{key}"):
            app.config[key] = os.environ[f"REFAPP_{key}"]
    app.before_request(resolve)
    app.context_processor(
        lambda: {
            "is_organizer": is_organizer(),
            "has_organizer": has_organizer(),
            "group": current_group(),
        }
    )


def serve_prefix(app: Flask) -> None:
    """Serve every route under ``/g/<slug>/`` too: the innermost layer, so the Host check and
    the fast session read (which serves the default group's path alone) see the full path."""
    app.wsgi_app = Prefixed(app.wsgi_app)  # type: ignore[method-assign]
