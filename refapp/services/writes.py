"""The one place every write is serialized: take the sessions, audit, move the version, commit.

Every write to a session (record, correct, undo, finish, rename) runs alone against it: it
starts with ``lock_session`` or ``lock_sessions`` (a row lock on PostgreSQL, an immediate write
transaction on SQLite), reads what it needs fresh under that lock, and ends with
``commit_write``, which moves each session's ``version`` on. The hot writes (record, correct,
undo) take the same lock below the ORM (``hot_rows.take``) and send their rows through Core
(``rows``, ``prepared``): no ORM object of theirs is flushed. Two phones can then never
interleave their writes. A write that seats or renames players takes their rows first
(``take_players``, ``lock_players``), always before any session, so a rename and a new session
never cross. A write that cannot get its turn in time is refused ``busy`` (503): nothing of it
was stored.

Each write entry point of the services runs inside ``transaction()``: whatever it raises (a
refusal, ``idempotency.Stored``, a database error) rolls the request's session back before it
leaves the service, so no view or API route ever rolls back by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, Insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..club import current_group_id
from ..extensions import db
from ..games.codes import Kind
from ..games.errors import N_, Conflict, Refusal
from ..models import AuditEntry, GameSession, Player, utcnow
from . import limits, prepared
from .keyed_rows import inserted_once
from .rows import SessionLike, SessionRow, insert_audit, write_session
from .values import not_found, stored_id

#: seconds a client is told to wait (Retry-After) after a write refused as busy
RETRY_AFTER = 2
#: what a write refused as busy is told (translated when shown)
BUSY_WORDS = N_("The database is busy with another change; nothing was saved. Try again shortly.")
#: PostgreSQL's codes for a write that could not get its locks: lock_timeout, a deadlock, a
#: serialization failure; nothing of the write was stored, so it can simply be sent again
POSTGRESQL_BUSY = ("55P03", "40P01", "40001")
#: how often ``take_players`` looks again for a name renamed or merged away while it waited
TAKE_TRIES = 5


class Busy(Refusal):
    """A write (or a large answer) that could not get its turn in time: ``busy`` (503), with
    the seconds the client is told to wait (``Retry-After``); nothing of it was stored."""

    kind = Kind.BUSY

    def __init__(self, message: str = BUSY_WORDS, retry_after: int = RETRY_AFTER) -> None:
        """Keep the message (a template, worded in the reader's language when read) and wait."""
        super().__init__("busy", message)
        self.retry_after = retry_after


@contextmanager
def transaction() -> Iterator[None]:
    """Run one write whole or not at all: anything raised inside rolls the session back first.

    Use it around a service's write (``with writes.transaction():``) or on its entry point
    (``@writes.transaction()``); the write itself still ends with ``commit_write``/``commit``.
    """
    try:
        yield
    except BaseException:
        rollback()
        raise


def rollback() -> None:
    """End this request's write with nothing written: the ORM session's transaction and a hot
    write's own connection (``prepared.hold``) rolled back."""
    db.session.rollback()
    prepared.let_go()


def is_busy(error: BaseException) -> bool:
    """Return True for a database error that means "not your turn yet" (nothing was written)."""
    if not isinstance(error, DBAPIError):
        return False
    if getattr(error.orig, "sqlstate", None) in POSTGRESQL_BUSY:
        return True
    text = str(error.orig).lower()
    return "database is locked" in text or "database table is locked" in text


@dataclass(frozen=True, slots=True)
class Precondition:
    """A write's ``If-Match``: the strong entity tags it names (unquoted); any one may match.

    Weak tags (``W/"3"``) are dropped when reading the header: they never match a write.
    """

    tags: frozenset[str]

    def matches(self, tag: str) -> bool:
        """Return True when the current entity tag (unquoted) is one the client named."""
        return tag in self.tags

    def shown(self) -> str:
        """Return the tags the client named, as a message quotes them."""
        return ", ".join(f'"{tag}"' for tag in sorted(self.tags)) or "-"


def precondition(expected: int | Precondition | None) -> Precondition | None:
    """Return a write's expectation as a Precondition (a bare version is one strong tag)."""
    if expected is None or isinstance(expected, Precondition):
        return expected
    return Precondition(frozenset({str(expected)}))


def lost_race() -> Conflict:
    """Return the refusal of a write that lost a race (a round number, a name taken first)."""
    return Conflict("lost_race", "Another device recorded this round first; reload and try again.")


def begin_hot_write() -> None:
    """Start a hot write's transaction as a writer: on SQLite on a connection of its own, taken
    without the ORM session when it holds no transaction (``prepared.hold``); else
    ``begin_write``."""
    if prepared.hold():
        immediate(prepared.connection())
    else:
        begin_write()


def begin_write() -> None:
    """Start this request's transaction as a writer (SQLite: BEGIN IMMEDIATE), if not yet one.

    SQLite then admits one writer at a time for the whole transaction, so what is read after
    this cannot change before the commit; other writers wait (busy timeout) for their turn.
    """
    connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        immediate(connection)


def immediate(connection: Connection) -> None:
    """Send SQLite's ``BEGIN IMMEDIATE`` on a connection not yet in a transaction (a write
    kept waiting past the busy timeout is refused ``Busy``)."""
    driver = connection.connection.driver_connection
    assert driver is not None  # an open connection has its driver's connection
    if not driver.in_transaction:
        try:
            if prepared.watched(connection):
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            else:  # on the driver's own cursor: the statement is the same, Core's work is not
                prepared.begin_immediate(connection)
        except DBAPIError as error:  # the busy timeout ran out: another write holds the lock
            rollback()
            if is_busy(error):
                raise Busy() from error
            raise


def give_back() -> None:
    """End this request's transaction with nothing written: its write lock goes back."""
    rollback()


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


def lock_session(session_id: object, version: int | Precondition | None = None) -> GameSession:
    """Take one session for a write, refusing it when it is not the ``version`` the client saw.

    ``version`` is a bare version or the write's ``If-Match`` (any strong tag may match).
    """
    found = lock_sessions([stored_id(session_id)])
    if not found or found[0].group_id != current_group_id():  # another group's: the same 404
        raise not_found(session_id)
    session = found[0]
    check_version(session, version)
    return session


def check_version(session: SessionLike, version: int | Precondition | None) -> None:
    """Refuse a write to a session (taken for it) that is not at the ``version`` the client saw.

    A write with a key (``idempotency``) checks its key first: a resend stored before answers
    what it stored, whatever the version is now.
    """
    expected = precondition(version)
    if expected is not None and not expected.matches(str(session.version)):
        raise Conflict(
            "stale_round",
            "This device saw version {value} of the session, but it is at version {version} "
            "now: another device changed it. Reload to see what changed.",
            "If-Match",
            value=expected.shown() if isinstance(version, Precondition) else version,
            version=session.version,
        )


def take_players(names: Iterable[str]) -> dict[str, Player]:
    """Return the players of these names, locked for this write, adding the new ones first.

    New names are inserted with ``ON CONFLICT DO NOTHING``, so phones seating one new player
    at once all get the same row; then every row is locked (PostgreSQL ``FOR UPDATE``, in id
    order; SQLite: the write transaction), so no rename or merge of them can cross this write.
    A name renamed or merged away while this write waited is added again, as a new player.
    """
    wanted = sorted(set(names))
    begin_write()
    for _try in range(TAKE_TRIES):
        found = lock_players(wanted)
        missing = [name for name in wanted if name not in found]
        if not missing:
            return found
        db.session.execute(new_players(missing))
    raise lost_race()


def new_players(names: Sequence[str]) -> Insert:
    """Return the insert of these players that leaves a name another write took alone."""
    group = current_group_id()
    rows: list[dict[str, object]] = [
        {"name": name, "created_at": utcnow(), "group_id": group} for name in names
    ]
    return inserted_once(Player, rows, ["group_id", "name"])


def lock_players(names: Iterable[str]) -> dict[str, Player]:
    """Take the players of these names (those that exist) for this write, in id order, fresh."""
    begin_write()
    rows = db.session.scalars(
        select(Player)
        .where(Player.name.in_(sorted(set(names))), Player.group_id == current_group_id())
        .order_by(Player.id)
        .with_for_update(of=Player)
        .execution_options(populate_existing=True)
    )
    return {player.name: player for player in rows}


def audit(
    session: SessionLike, action: str, number: int | None, before: object, after: object
) -> None:
    """Append an audit entry to the session's trail (in the caller's transaction), counted in
    the session's kept totals (``limits``): an ORM object added, or for a session a hot write
    read below the ORM (``rows.SessionRow``), inserted at once."""
    if isinstance(session, SessionRow):
        insert_audit(session.id, action, number, before, after)
    else:
        db.session.add(
            AuditEntry(
                session_id=session.id,
                action=action,
                round_number=number,
                before=before,
                after=after,
            )
        )
    limits.count_entry(session, before, after)


def commit_write(*sessions: SessionLike, conflict: Conflict | None = None) -> None:
    """Commit a write to one or more sessions, which moves each one's ``version`` on.

    A session the write would leave larger than an import accepts is refused ``session_full``
    first (``limits.check_room``); the caller's transaction is then rolled back whole. A
    session a hot write read below the ORM sends its changed columns first, in one UPDATE.
    """
    now = utcnow()
    for session in sessions:
        limits.check_room(session)
    for session in sessions:
        session.version = (session.version or 0) + 1
        session.updated_at = now
        if isinstance(session, SessionRow):
            write_session(session)
    if all(isinstance(session, SessionRow) for session in sessions):
        with converted(conflict):
            if prepared.committed():  # SQLite: the driver's commit, the ORM's left out
                return
    commit(conflict)


@contextmanager
def converted(conflict: Conflict | None = None) -> Iterator[None]:
    """Turn what a hot write's statements raise, each sent at once (no flush at the commit),
    into what the ORM path's commit refuses: a lost race (``conflict``) or ``Busy``."""
    try:
        yield
    except IntegrityError as error:
        rollback()
        raise (conflict or lost_race()) from error
    except DBAPIError as error:
        if not is_busy(error):
            raise
        rollback()
        raise Busy() from error


def commit(conflict: Conflict | None = None) -> None:
    """Commit, turning a lost race into ``conflict`` (by default ``lost_race``).

    A lost race is a round number or a new player's name stored first by another request, or
    rows found gone. A write that could not get its turn in time (the database stayed busy) is
    refused ``Busy`` (503); nothing of it was stored.
    """
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError) as error:
        rollback()
        raise (conflict or lost_race()) from error
    except DBAPIError as error:
        rollback()
        if not is_busy(error):
            raise
        raise Busy() from error
