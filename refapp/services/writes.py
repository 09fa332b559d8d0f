"""The one place every write is serialized: take the sessions, audit, move the version, commit.

Every write to a session (record, correct, undo, finish, rename) runs alone against it: it
starts with ``lock_session`` or ``lock_sessions`` (a row lock on PostgreSQL, an immediate write
transaction on SQLite), reads what it needs fresh under that lock, and ends with
``commit_write``, which moves each session's ``version`` on. Two phones can then never
interleave their writes. New sessions (created, imported, restored) lock nothing, but commit
through ``commit`` all the same, so a lost race is refused the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..games.errors import RuleViolation
from ..models import AuditEntry, GameSession, utcnow
from .values import not_found, stored_id


def lost_race() -> RuleViolation:
    """Return the refusal of a write that lost a race (a round number, a name taken first)."""
    return RuleViolation(
        "stale_round", "Another device recorded this round first; reload and try again."
    )


def begin_write() -> None:
    """Start this request's transaction as a writer (SQLite: BEGIN IMMEDIATE), if not yet one.

    SQLite then admits one writer at a time for the whole transaction, so what is read after
    this cannot change before the commit; other writers wait (busy timeout) for their turn.
    """
    connection = db.session.connection()
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.driver_connection
    if not driver.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def lock_sessions(ids: Sequence[int]) -> list[GameSession]:
    """Take several sessions for one write, in id order (so two writers never deadlock).

    Objects this request read before are refreshed: a write decides on what is stored now.
    """
    begin_write()
    db.session.expire_all()
    return list(
        db.session.scalars(
            select(GameSession)
            .where(GameSession.id.in_(sorted(ids)))
            .order_by(GameSession.id)
            .with_for_update(of=GameSession)
            .execution_options(populate_existing=True)
        )
    )


def lock_session(session_id: Any, version: int | None = None) -> GameSession:
    """Take one session for a write, refusing it when it is not the ``version`` the client saw."""
    found = lock_sessions([stored_id(session_id)])
    if not found:
        raise not_found(session_id)
    session = found[0]
    if version is not None and version != session.version:
        raise RuleViolation(
            "stale_round",
            "This device saw version {value} of the session, but it is at version {version} "
            "now: another device changed it. Reload to see what changed.",
            "If-Match",
            value=version,
            version=session.version,
        )
    return session


def audit(session: GameSession, action: str, number: int | None, before: Any, after: Any) -> None:
    """Append an audit entry to the session's trail (in the caller's transaction)."""
    db.session.add(
        AuditEntry(
            session_id=session.id, action=action, round_number=number, before=before, after=after
        )
    )


def commit_write(*sessions: GameSession, conflict: RuleViolation | None = None) -> None:
    """Commit a write to one or more sessions, which moves each one's ``version`` on."""
    now = utcnow()
    for session in sessions:
        session.version = (session.version or 0) + 1
        session.updated_at = now
    commit(conflict)


def commit(conflict: RuleViolation | None = None) -> None:
    """Commit, turning a lost race into ``conflict`` (by default ``stale_round``).

    A lost race is a round number or a new player's name stored first by another request. A
    write that could not get its turn in time (the database stayed busy) or found its rows gone
    is a lost race too; nothing of it was stored.
    """
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise (conflict or lost_race()) from error
    except OperationalError as error:
        db.session.rollback()
        if "locked" not in str(error.orig):
            raise
        raise busy() from error


def busy() -> RuleViolation:
    """Return the refusal of a write that waited too long for its turn."""
    return RuleViolation(
        "stale_round", "The session is busy with another change; try again in a moment."
    )
