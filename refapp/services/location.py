"""Where a session was played: an optional short text, set at its start or later (audited).

The play log lists and filters sessions by it, the result card shows it, and the BG Stats
link carries it. Setting the location a session already has writes nothing, so a resent
``PUT`` stores once.
"""

from __future__ import annotations

import unicodedata

from sqlalchemy import func, select

from ..club import current_group_id
from ..extensions import db
from ..games.errors import MalformedInput, quote
from ..models import GameSession
from . import writes
from .values import has_control

#: the most characters a location holds after trimming
LOCATION_MAX = 60
#: the most locations the play log offers to filter by (the most used first)
CHOICES_MAX = 50


def location_text(raw: object, where: str = "location") -> str | None:
    """Return a location trimmed and NFC (None for null, empty or blank), or refuse it."""
    if raw is None:
        return None
    if not isinstance(raw, str) or has_control(raw):
        raise refused(raw, where)
    text = unicodedata.normalize("NFC", " ".join(raw.split()))
    if len(text) > LOCATION_MAX:
        raise refused(raw, where)
    return text or None


def refused(raw: object, where: str) -> MalformedInput:
    """Return the refusal of a location that is not short printable text."""
    shown = raw[:80] if isinstance(raw, str) else raw
    return MalformedInput(
        "invalid_value",
        "A location is text of at most {most} printable characters, not {value}.",
        where,
        most=LOCATION_MAX,
        value=quote(shown),
    )


@writes.transaction()
def set_location(
    session_id: object, raw: object, *, version: int | writes.Precondition | None = None
) -> GameSession:
    """Set (or clear, with null or "") where a session was played; audited like a rename.

    The same location again writes nothing: no audit entry, the version unchanged.
    """
    wanted = location_text(raw)
    session = writes.lock_session(session_id, version)
    if session.location == wanted:
        db.session.rollback()  # nothing to write: the write's turn ends here
        return session
    before, session.location = session.location, wanted
    writes.audit(session, "set_location", None, {"location": before}, {"location": wanted})
    writes.commit_write(session)
    return session


def locations_used() -> list[str]:
    """Return the locations sessions were played at, the most used first (then by name)."""
    count = func.count(GameSession.id)
    rows = db.session.execute(
        select(GameSession.location, count)
        .where(GameSession.location.is_not(None), GameSession.group_id + 0 == current_group_id())
        .group_by(GameSession.location)
        .order_by(count.desc(), GameSession.location)
        .limit(CHOICES_MAX)
    )
    return [str(location) for location, _count in rows]
