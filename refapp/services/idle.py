"""Sessions that end by time: a session nobody has recorded a round in for 12 hours counts
(games/standings.py), so the figures count it without anyone pressing Finish.

Nothing is written at the moment a session goes idle; the next read of the statistics (or a
player's figures) counts the sessions that went idle since, oldest first, a bounded batch per
request, each under its write lock like any write (services/figures.py). A round recorded later
un-counts the session again (its own write settles that).
"""

from __future__ import annotations

from sqlalchemy import or_, select

from ..club import current_group_id
from ..extensions import db
from ..games.standings import IDLE
from ..models import GameSession, utcnow
from . import figures, writes

#: the most sessions one read counts; more wait for the next read (or ``rebuild-figures``)
BATCH = 50


@writes.transaction()
def count_idle() -> int:
    """Count the sessions that ended (by time, or finished but not counted yet), oldest first,
    each in a write of its own; return how many were due.

    Reads one indexed query when there are none, which is nearly always.
    """
    cutoff = utcnow() - IDLE
    due = db.session.scalars(
        select(GameSession.id)
        .where(
            GameSession.counted.is_(False),
            GameSession.round_count > 0,
            GameSession.group_id + 0 == current_group_id(),  # its own index leads
            or_(GameSession.finished.is_(True), GameSession.last_round_at <= cutoff),
        )
        .order_by(GameSession.last_round_at, GameSession.id)
        .limit(BATCH)
    ).all()
    db.session.rollback()  # the read's transaction ends: each session is a write of its own
    for session_id in due:
        for session in writes.lock_sessions([session_id]):  # none: deleted meanwhile
            figures.settle(session)  # under the lock: it may have a new round by now
            session.version = (session.version or 0) + 1  # its page now shows the places
        writes.commit()
    return len(due)
