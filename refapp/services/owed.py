"""What running sessions' writes left owed to their players' figures and marks, added by the
next read of the statistics, of a player or of a counted session's records (services/due.py,
services/fallen.py).

While a session runs - it counts neither before nor after a write (games/standings.py) - a
write moves its seats' parts (their tallies, the session's playing time) but no player's
figures row: each seat keeps the part the figures were last given (``SessionPlayer.paid``) and
the session is marked ``figures_due`` (services/figures.py, ``owe``). So a round recorded at
the table writes its seats and no figures row, and a read adds the difference for the due
sessions, each in a write of its own under its lock, as every write takes it: the session's
row, then its players' figures rows in player order. A write that counts or un-counts a session
adds the difference itself.
"""

from __future__ import annotations

from sqlalchemy import select

from ..club import current_group_id
from ..extensions import db
from ..models import GameSession
from . import figures, marks, writes

#: the due sessions read at a time
BATCH = 50


@writes.transaction()
def pay_owed() -> int:
    """Add what the group's due sessions' seats owe to their players' figures and mark their
    rounds since, in id order, each session in a write of its own; return how many were due.

    Every session due when the read began is paid (a session is visited once: the reads go on
    from the last id paid), so what the read shows holds every write before it; the work is
    that of the writes that left it owed. Reads one indexed query when none is due (and then
    leaves the read's transaction as it was).
    """
    paid, after = 0, 0
    while True:
        due = db.session.scalars(
            select(GameSession.id)
            .where(
                GameSession.figures_due.is_(True),
                GameSession.group_id + 0 == current_group_id(),  # its own index leads
                GameSession.id > after,
            )
            .order_by(GameSession.id)
            .limit(BATCH)
        ).all()
        if not due:
            return paid
        db.session.rollback()  # the read's transaction ends: each session is a write of its own
        for session_id in due:
            with writes.converted():  # a lock not had in time: Busy, as a write's
                for session in writes.lock_sessions([session_id]):  # none: deleted meanwhile
                    if session.figures_due:  # else another read paid it meanwhile
                        figures.pay(session)
                        marks.rounds_marked(session)
            writes.commit()
        paid, after = paid + len(due), due[-1]
