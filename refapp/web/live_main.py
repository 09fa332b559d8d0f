"""The session page's ``<main>`` as phones fetch it after every change: rendered once per version.

Every phone at a table fetches the same ``<main>`` (``X-Refapp-Live``) when the session moves on.
What it shows is the session at that version, in the reader's language, for a reader who may
write or not, at that address; only the CSRF token is the reader's own. So the first fetch of a
version renders it with a stand-in token and keeps it (per process, the least recently used let
go first), and every fetch puts the reader's own token in. A page with a message to show once
(``flash``), or built when a token was already made, is rendered as usual and not kept.

The stand-in is markup (``Markup``, put in unescaped) holding ``<`` and ``>``, which the
page's escaping always changes in any text it shows, so no name or other text in a page can
ever read as it (a player named like it shows escaped, and keeps their name).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g, request, session
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlalchemy import select

from ..club import current_group_id, has_password
from ..extensions import db
from ..models import GameSession
from ..services.kept import Kept, kept_of
from .signin import is_live

#: pages kept: a few tens of KiB each, the tables of a busy club night twice over
CACHE_SIZE = 128
#: what stands for the reader's CSRF token in a kept page: markup the page shows as it is, with
#: characters escaping always changes in text (a name "<x>" shows as "&lt;x&gt;"), so no text
#: on a page can equal it
STAND_IN = Markup("<refapp-kept-page-token-0f6c1d>")
#: the config key that turns keeping off (the tests compare kept pages with fresh ones)
SWITCH = "KEEP_LIVE_MAIN"

Key = tuple[int, int, str, bool, bool, bool, str]
#: a page's render: its HTML, its status and the session version it shows
Render = Callable[[], tuple[str, int, int]]


def keepable() -> bool:
    """Return True when this request's page may come from (and go to) the kept pages."""
    return (
        current_app.config.get(SWITCH, True)
        and request.method == "GET"
        and is_live()
        and "_flashes" not in session
        and "csrf_token" not in g
    )


def pages(app: Flask) -> Kept[Key, str]:
    """Return an app's kept pages."""
    return kept_of(app, "refapp_live_main", CACHE_SIZE)


def key_of(session_id: int) -> Key | None:
    """Return the key of this request's page of a session (None: no such session)."""
    version = db.session.scalar(
        select(GameSession.version).where(
            GameSession.id == session_id, GameSession.group_id == current_group_id()
        )
    )
    if version is None:
        return None
    signed_in = bool(g.get("can_write", True))
    organizer = bool(g.get("organizer", False))  # an organizer's page has their forms
    return (session_id, version, str(get_locale()), signed_in, has_password(), organizer,
            request.url)  # fmt: skip


def page(session_id: int, render: Render) -> tuple[str, int]:
    """Return the session's ``<main>``: kept, or rendered now (and kept when it may be)."""
    key = key_of(session_id) if keepable() else None
    if key is None:
        html, status, _version = render()
        return html, status
    kept = pages(current_app).get(key)
    if kept is None:
        with stand_in_token():
            html, status, version = render()
        if status != 200 or version != key[1]:
            return own_token(html), status
        pages(current_app).put(key, html)
        kept = html
    return own_token(kept), 200


@contextmanager
def stand_in_token() -> Iterator[None]:
    """Render with the stand-in token (as Flask-WTF's own, kept in ``g`` for the request)."""
    g.csrf_token = STAND_IN
    try:
        yield
    finally:
        g.pop("csrf_token", None)


def own_token(html: str) -> str:
    """Put the reader's own CSRF token where the stand-in is (made only if the page has one)."""
    return html.replace(STAND_IN, generate_csrf()) if STAND_IN in html else html
