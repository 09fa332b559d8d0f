"""An import's storing: the replayed session, its seats, rounds and trail added in bulk.

The rows the replay spooled (``imports.round_row`` made each round's) go in a batch at a time,
each batch one executemany insert; the caller commits (``commit``) or rolls back the whole.
Nulls are written as given (``render_nulls``): else SQLAlchemy splits a batch wherever a
column's null comes and goes (a round corrected, the next not), one insert a row at worst.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import insert

from ...club import current_group_id
from ...extensions import db
from ...games.errors import Conflict
from ...models import AuditEntry, GameSession, Player, Round, SessionPlayer, utcnow
from .. import figures, limits, marks, writes
from ..values import ID_MAX
from .replayed import Replayed
from .write_keys import store_keys


def store(
    replayed: Replayed,
    source: str,
    known: dict[str, Player],
    *,
    session_id: int | None = None,
    restoring: bool = False,
) -> GameSession:
    """Add a replayed session with its seats, rounds and audit trail (in the caller's transaction).

    ``known`` caches the players by name across the sessions of one restore. A restore passes
    the session's own ``session_id`` (None: a new one) and keeps its last change's time and
    moves its version on (``restoring``); an import is a copy, changed now, at version 1. The
    players are taken as a new session takes them (``writes.take_players``), so no rename or
    merge can cross the import; the rounds and entries go in a batch at a time.
    """
    now = utcnow()
    known.update(writes.take_players(name for name in replayed.players if name not in known))
    after = {"source": source, **replayed.source, "rounds": replayed.rounds.rows.count}
    session = new_session(replayed, after, now, session_id=session_id, restoring=restoring)
    seat_and_finish(session, replayed, known, now)
    db.session.add(session)
    db.session.flush()  # the session's id, for its rows
    insert_rounds(session, replayed)
    insert_trail(session, replayed, now)
    store_keys(session.id, replayed.keys)
    insert_import_entry(session, replayed, after, now)
    return session


def new_session(
    replayed: Replayed,
    after: dict[str, object],
    now: datetime,
    *,
    session_id: int | None,
    restoring: bool,
) -> GameSession:
    """Return the session's row: a restore keeps its id, last change and version moved on; an
    import is changed now, at version 1. Its stored bytes count the import's own entry."""
    rounds, trail = replayed.rounds, replayed.trail
    return GameSession(
        id=session_id,
        group_id=current_group_id(),
        game=replayed.game.slug,
        name=replayed.name,
        rules=replayed.rules,
        preset=replayed.preset,
        location=replayed.location,
        setup=replayed.setup,
        initial_state=replayed.initial,
        created_at=replayed.created_at or now,
        updated_at=last_change(replayed) if restoring else now,
        version=restored_version(replayed) if restoring else 1,
        round_count=rounds.rows.count,
        totals=dict(rounds.totals),
        audit_count=trail.count + 1,
        stored_bytes=rounds.size + trail.size + limits.entry_bytes(None, after),
    )


def seat_and_finish(
    session: GameSession, replayed: Replayed, known: dict[str, Player], now: datetime
) -> None:
    """Seat the players in order, and finish the session as the export says it finished."""
    for seat, name in enumerate(replayed.players):
        session.seats.append(SessionPlayer(seat=seat, player=known[name]))
    if replayed.finished_by:
        session.finished = True
        session.finished_by = replayed.finished_by
        session.finished_at = replayed.finished_at or now


def insert_rounds(session: GameSession, replayed: Replayed) -> None:
    """Insert the spooled rounds a batch at a time, then count them in the players' figures."""
    rounds = replayed.rounds
    seated = marks.Seated.of(session)
    for batch in rounds.rows.batches():
        for row in batch:
            row["session_id"] = session.id
            figures.round_added(session, figures.aware(row["recorded_at"]))
        db.session.execute(insert(Round).execution_options(render_nulls=True), batch)
        marks.insert_rows(
            marks.played_rows(
                seated, ((row["number"], row["result"], row["recorded_at"]) for row in batch)
            )
        )
        session.marked = batch[-1]["number"] if batch else session.marked
    # the players' stored figures count the session's rounds (read again from the spool)
    figures.session_imported(
        session, (row["result"] for batch in rounds.rows.batches() for row in batch)
    )


def insert_trail(session: GameSession, replayed: Replayed, now: datetime) -> None:
    """Insert the spooled audit trail a batch at a time (an entry without a time: now)."""
    for batch in replayed.trail.rows.batches():
        for entry in batch:
            entry["session_id"], entry["at"] = session.id, entry["at"] or now
        db.session.execute(insert(AuditEntry).execution_options(render_nulls=True), batch)


def insert_import_entry(
    session: GameSession, replayed: Replayed, after: dict[str, object], now: datetime
) -> None:
    """Add the trail's last entry, the import itself (``import_session``)."""
    latest = replayed.trail.latest
    # never dated before the trail's last entry (an export's clock may run a little ahead)
    at = max(now, latest) if latest else now
    db.session.execute(
        insert(AuditEntry),
        [
            {
                "session_id": session.id,
                "at": at,
                "action": "import_session",
                "round_number": None,
                "before": None,
                "after": after,
            }
        ],
    )


def last_change(replayed: Replayed) -> datetime:
    """Return an exported session's last change: as exported, else its latest time known."""
    if replayed.updated_at:
        return replayed.updated_at
    times = [
        replayed.created_at,
        replayed.finished_at,
        replayed.rounds.latest,
        replayed.trail.latest,
    ]
    return max((time for time in times if time is not None), default=utcnow())


def restored_version(replayed: Replayed) -> int:
    """Return a restored session's version: past the exported one, else past its trail's length.

    A phone's cached version then never matches the restored session by chance.
    """
    if replayed.version is not None:
        return min(replayed.version + 1, ID_MAX)
    return replayed.trail.given + 2


def commit() -> None:
    """Commit the import; a player added by another request at the same moment is a retry."""
    writes.commit(
        Conflict("lost_race", "Another change was saved at the same moment; try the import again.")
    )
