"""The pages' sign-ins kept on the server: one row per sign-in, in one group, as its organizer
or not (access.py's guard reads them; the session cookie holds the random id and the key of the
password it was made with, so a new password ends it)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta

from flask import current_app, session
from sqlalchemy import DateTime, delete, func, insert, literal, select
from sqlalchemy.engine import Row
from sqlalchemy.sql.elements import ColumnElement

from . import club
from .extensions import db
from .models import SignIn

#: where a sign-in lives in the session cookie: {"key": what stands for the password, "id": the
#: random id whose digest the sign_in table keeps, with the sign-in's time, while in force}
SIGN_IN = "table_sign_in"


def sign_in_digest(sign_in_id: str) -> str:
    """Return what the server keeps of a sign-in's random id (the cookie alone holds the id)."""
    return hashlib.sha256(b"sign-in\0" + sign_in_id.encode()).hexdigest()


def stored_time(seconds: float) -> datetime:
    """Return a time (``access.now()``'s seconds) as the database stores it."""
    return datetime.fromtimestamp(seconds, UTC)


def sign_in_clock(moment: float, earlier: timedelta = timedelta()) -> ColumnElement[datetime]:
    """Return the sign-ins' time now, less ``earlier``: the database's on PostgreSQL (several
    hosts' clocks may differ) unless a test set ``ACCESS_CLOCK``, else ``now()``."""
    if "ACCESS_CLOCK" not in current_app.config and db.engine.dialect.name == "postgresql":
        return func.statement_timestamp(type_=DateTime(timezone=True)) - earlier
    return literal(stored_time(moment - earlier.total_seconds()), DateTime(timezone=True))


def sign_in_row(moment: float) -> Row[int, bool] | None:
    """Return this browser's sign-in in this group (its id and whether it is the organizer's)
    when it was made with today's password, recently, and not ended; else None."""
    mark = session.get(SIGN_IN)
    if not isinstance(mark, dict) or not (club.has_password() or club.has_organizer()):
        return None
    key, sign_in_id = mark.get("key"), mark.get("id")
    if not isinstance(key, str) or not isinstance(sign_in_id, str):
        return None  # not a sign-in, or a cookie from before sign-ins were kept on the server
    if not hmac.compare_digest(key, club.password_key()):
        return None
    # the one query a page pays, and only with a password and a live cookie: by a unique index;
    # its age is the server's record of it, on one clock whichever host made it
    life = current_app.permanent_session_lifetime
    found = select(SignIn.id, SignIn.organizer).where(
        SignIn.digest == sign_in_digest(sign_in_id),
        SignIn.at > sign_in_clock(moment, life),
        SignIn.group_id == club.current_group_id(),
    )
    return db.session.execute(found).first()


def remember_sign_in(moment: float, organizer: bool = False) -> None:
    """Start a fresh session that holds a new sign-in to this group (as its organizer or not),
    kept on the server for a limited life."""
    forget_stored_sign_in()
    session.clear()
    sign_in_id = secrets.token_urlsafe(32)
    # expired sign-ins are pruned here, so the table holds at most one lifetime's sign-ins
    life = current_app.permanent_session_lifetime
    db.session.execute(delete(SignIn).where(SignIn.at <= sign_in_clock(moment, life)))
    row = {"digest": sign_in_digest(sign_in_id), "at": sign_in_clock(moment)}
    made = {"group_id": club.current_group_id(), "organizer": organizer}
    db.session.execute(insert(SignIn).values(**row, **made))
    db.session.commit()
    session[SIGN_IN] = {"key": club.password_key(), "id": sign_in_id}
    session.permanent = True


def forget_group_sign_ins(group_id: int) -> None:
    """End every sign-in to a group (its password changed); the caller commits."""
    db.session.execute(delete(SignIn).where(SignIn.group_id == group_id))


def forget_stored_sign_in() -> None:
    """Delete the server's record of this browser's sign-in, if it has one."""
    mark = session.get(SIGN_IN)
    sign_in_id = mark.get("id") if isinstance(mark, dict) else None
    if isinstance(sign_in_id, str):
        db.session.execute(delete(SignIn).where(SignIn.digest == sign_in_digest(sign_in_id)))
        db.session.commit()


def forget_sign_in() -> None:
    """End this browser's sign-in on the server and in its cookie (copies of it end too)."""
    forget_stored_sign_in()
    session.pop(SIGN_IN, None)
