"""A session's audit trail read a page at a time: its newest changes, or those before one.

The history of changes shows the newest ``PAGE`` entries, oldest first, with a way back to the
ones before them; a page reads ``PAGE + 1`` rows at most, however long the trail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import select

from ..extensions import db
from ..models import AuditEntry
from .sessions import iso

#: entries on a page of the history of changes
PAGE = 200


class TrailEntry(TypedDict):
    """An entry of the trail: when, what, which round, and the values before and after it."""

    at: str | None
    action: str
    round: int | None
    #: the values as stored (any JSON)
    before: object
    after: object


@dataclass(frozen=True, slots=True)
class TrailPage:
    """A page of the trail, oldest first (as ``sessions.audit_of`` writes each entry).

    ``earlier`` is the id to read the entries before this page by (None: it starts the trail).
    """

    entries: list[TrailEntry]
    earlier: int | None


def trail_page(session_id: int, before: int | None = None) -> TrailPage:
    """Return the newest ``PAGE`` entries of a session's trail (those before entry ``before``)."""
    query = select(
        AuditEntry.id,
        AuditEntry.at,
        AuditEntry.action,
        AuditEntry.round_number,
        AuditEntry.before,
        AuditEntry.after,
    ).where(AuditEntry.session_id == session_id)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    rows = db.session.execute(query.order_by(AuditEntry.id.desc()).limit(PAGE + 1)).all()
    shown = rows[:PAGE][::-1]
    entries: list[TrailEntry] = [
        {"at": iso(at), "action": action, "round": number, "before": old, "after": new}
        for _id, at, action, number, old, new in shown
    ]
    return TrailPage(entries, shown[0].id if len(rows) > PAGE else None)
