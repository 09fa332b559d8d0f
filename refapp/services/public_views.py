"""Public views (docs/API.md, "Public views"): read-only links for a screen that only watches -
a session's live scoreboard, or the group's sessions and standings - made and revoked by the
organizer.

A link is ``/view/<token>``: 32 random URL-safe characters (``secrets``), shown once when made.
Only its SHA-256 digest is stored, so the database (or a backup of it) never holds a working
link; a revoked link, or one of a deleted session (the row goes with it), answers 404.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import TypedDict

from sqlalchemy import func, select

from ..extensions import db
from ..games.errors import NotFound, quote
from ..models import GameSession
from ..season_models import PublicView
from . import writes
from .sessions import iso
from .values import not_found, stored_id

#: random bytes in a token: 24 make 32 URL-safe characters, past any guessing
TOKEN_BYTES = 24
#: the longest token looked up (a longer one is no token of ours: nothing is read)
TOKEN_MOST = 64


class ViewShape(TypedDict):
    """A public view as the organizer's list shows it (never its token: it is not kept)."""

    id: int
    #: the session it shows (None: the group's sessions and standings)
    session: int | None
    created_at: str | None


def digest_of(token: str) -> str:
    """Return the stored digest of a token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def view_dict(view: PublicView) -> ViewShape:
    """Return a public view as the API lists it."""
    return {"id": view.id, "session": view.session_id, "created_at": iso(view.created_at)}


@writes.transaction()
def make_view(group_id: int, session_id: int | None = None) -> tuple[PublicView, str]:
    """Make a public view of a session (None: of the group); return it and its token, which
    is shown this once and never stored."""
    writes.begin_write()
    if session_id is not None:
        wanted = stored_id(session_id)
        mine = select(GameSession.id).where(
            GameSession.id == wanted, GameSession.group_id == group_id
        )
        if db.session.scalar(mine) is None:  # none, or another group's: the same 404
            raise not_found(session_id)
        session_id = wanted
    token = secrets.token_urlsafe(TOKEN_BYTES)
    view = PublicView(group_id=group_id, digest=digest_of(token), session_id=session_id)
    db.session.add(view)
    writes.commit()
    return view, token


def list_views(group_id: int) -> list[ViewShape]:
    """Return the group's public views, the newest first."""
    found = db.session.scalars(
        select(PublicView).where(PublicView.group_id == group_id).order_by(PublicView.id.desc())
    )
    return [view_dict(view) for view in found]


@writes.transaction()
def revoke_view(group_id: int, view_id: int) -> None:
    """Revoke a public view: its link answers 404 from now on (another group's: not_found)."""
    writes.begin_write()
    view = db.session.get(PublicView, view_id)
    if view is None or view.group_id != group_id:
        raise NotFound("There is no public view {value}.", "id", value=quote(view_id))
    db.session.delete(view)
    writes.commit()


def find_view(token: str) -> PublicView | None:
    """Return the public view a token opens (None: no such link, or revoked)."""
    if not token or len(token) > TOKEN_MOST:
        return None
    found = select(PublicView).where(PublicView.digest == digest_of(token))
    return db.session.scalars(found).one_or_none()


def group_version(group_id: int) -> str:
    """Return a tag of the group's sessions that moves with every write to one of them and
    with each new session (how many, the sums of their versions and of id times version)."""
    row = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(GameSession.version), 0),
            func.coalesce(func.sum(GameSession.id * GameSession.version), 0),
        ).where(GameSession.group_id == group_id)
    ).one()
    return f"g{row[0]}-{row[1]}-{row[2]}"


def session_version(session_id: int) -> int | None:
    """Return a session's version (None: it is gone)."""
    return db.session.scalar(select(GameSession.version).where(GameSession.id == session_id))
