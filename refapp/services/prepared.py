"""The hot writes' statements sent on SQLite's own connection: each Core statement compiled
once, its values converted by the very processors SQLAlchemy would use (JSON, times, booleans;
a JSON column read and written in one call that does as they do), so what is stored and read
is what Core stores and reads, without Core's work around every execution.

On another database (PostgreSQL), or while something listens to the statements sent (a test
counting them), a statement is sent through Core as it is; so is one whose compiled form is not
the one this module reads (SQLAlchemy's processors are not public: another version may differ,
and tests/test_hot_writes_same.py compares what is stored either way).
"""

from __future__ import annotations

import logging
import numbers
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import JSON, Connection, Dialect, Engine, Executable, Pool
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement, Null
from sqlalchemy.types import TypeEngine

from ..extensions import HELD, db
from ..stored_json import loaded, stored

log = logging.getLogger(__name__)

Processor = Callable[[Any], Any] | None
#: what a statement is sent with: one row of values, or several (executemany)
Values = Mapping[str, object] | Sequence[Mapping[str, object]]


@dataclass(frozen=True, slots=True)
class Prepared:
    """A statement compiled for SQLite: its text, its parameters' names in order with their
    processors, and its result columns' processors."""

    sql: str
    names: tuple[str, ...]
    binds: tuple[Processor, ...]
    results: tuple[Processor, ...]
    #: the values the statement holds itself (a JSON path), by parameter name
    fixed: Mapping[str, object]

    def values(self, given: Mapping[str, object]) -> tuple[object, ...]:
        """Return one row of values in the statement's order, each converted for the driver."""
        if self.fixed:
            given = {**self.fixed, **given}
        return tuple(
            [
                given[name] if bind is None else bind(given[name])
                for name, bind in zip(self.names, self.binds, strict=True)
            ]
        )

    def row(self, found: Sequence[object]) -> tuple[Any, ...]:
        """Return one result row with each column converted as Core reads it."""
        return tuple(
            [
                value if read is None else read(value)
                for read, value in zip(self.results, found, strict=True)
            ]
        )


#: statements compiled so far, by their key
PREPARED: dict[str, Prepared] = {}
#: statements whose compiled form ``prepare`` could not read: sent through Core
UNPREPARED: set[str] = set()
#: each thread's request transaction and its connection, last asked for (``connection``)
LAST = threading.local()


def held_here() -> Connection | None:
    """Return the connection this thread's hot write holds (``hold``), if it holds one."""
    found: Connection | None = getattr(HELD, "connection", None)
    return found


def connection() -> Connection:
    """Return the request's connection: the one its hot write holds (``hold``), else the ORM
    session's (``db.session.connection()``), kept for as long as its transaction: a write sends
    a dozen statements on it. Both are held weakly, so a finished request's session is not kept
    alive by it."""
    held = held_here()
    if held is not None:
        return held
    session = db.session()
    transaction = session.get_transaction()
    kept = getattr(LAST, "kept", None)
    if transaction is not None and kept is not None and kept[0]() is transaction:
        found: Connection | None = kept[1]()
        if found is not None:
            return found
    found = session.connection()
    LAST.kept = (weakref.ref(session.get_transaction()), weakref.ref(found))
    return found


def prepare(statement: ClauseElement, dialect: Dialect, keys: Sequence[str] | None) -> Prepared:
    """Compile a statement for a dialect (an INSERT with these columns only)."""
    compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=keys))
    names = tuple(compiled.positiontup or ())
    processors = compiled._bind_processors
    results = tuple(reader(column[3], dialect) for column in compiled._result_columns)
    binds = tuple(
        writer(compiled.binds[name].type, dialect, cast(Processor, processors.get(name)))
        for name in names
    )
    fixed = {
        name: bind.effective_value
        for name, bind in ((name, compiled.binds[name]) for name in names)
        if not bind.required
    }
    return Prepared(compiled.string, names, binds, results, fixed)


def reader(kind: TypeEngine[Any], dialect: Dialect) -> Processor:
    """Return how Core reads a result column of this type: its own processor, or for a JSON
    column ``json_read``, which reads it the same in one call rather than three."""
    made: Processor = kind._cached_result_processor(dialect, None)
    json_text = isinstance(kind, JSON) and kind._str_impl.result_processor(dialect, None) is None
    if made is not None and json_text and dialect._json_deserializer is loaded:
        return json_read
    return made


def writer(kind: TypeEngine[Any], dialect: Dialect, made: Processor) -> Processor:
    """Return how Core writes a bound value of this type: its own processor, or for a JSON
    column ``json_write``, which writes it the same in one call rather than two."""
    json_text = (
        isinstance(kind, JSON)
        and not kind.none_as_null
        and kind._str_impl.bind_processor(dialect) is None
    )
    if made is not None and json_text and dialect._json_serializer is stored:
        return json_write
    return made


def json_write(value: Any) -> Any:
    """Write a JSON column's value as SQLAlchemy's JSON type does (``none_as_null`` off): with
    the engine's serializer (``stored_json.stored``), None and ``JSON.NULL`` as JSON null, an
    SQL ``null()`` as NULL."""
    if value is JSON.NULL:
        value = None
    elif isinstance(value, Null):
        return None
    return stored(value)


def json_read(value: Any) -> Any:
    """Read a JSON column's value as SQLAlchemy's SQLite JSON type does: with the engine's
    deserializer (``stored_json.loaded``), a number stored bare as itself, None as None."""
    if value is None:
        return None
    try:
        return loaded(value)
    except TypeError:
        if isinstance(value, numbers.Number):
            return value
        raise


def run(
    key: str, statement: Executable, given: Values, keys: Sequence[str] | None = None
) -> list[tuple[Any, ...]]:
    """Send a statement (made once, known by ``key``) with one or several rows of values and
    return the rows it read, on SQLite's own connection, else through Core."""
    driver = getattr(HELD, "driver", None)  # a held connection on SQLite, nothing watching
    taken = HELD.connection if driver is not None else connection()
    found = None
    if driver is not None or (taken.dialect.name == "sqlite" and not watched(taken)):
        found = PREPARED.get(key) or prepared_once(key, statement, taken.dialect, keys)
    if found is None:
        sending = list(given) if several(given) else given
        result = taken.execute(statement, sending)  # type: ignore[arg-type]
        return [tuple(row) for row in result] if result.returns_rows else []
    return sent(taken, found, given) if driver is None else sent_on(driver, found, given)


def prepared_once(
    key: str, statement: Executable, dialect: Dialect, keys: Sequence[str] | None
) -> Prepared | None:
    """Compile a statement for SQLite's own connection once; None (sent through Core from then
    on) when SQLAlchemy's compiled form is not the one ``prepare`` reads (another version)."""
    if key in UNPREPARED:
        return None
    assert isinstance(statement, ClauseElement)
    try:
        found = prepare(statement, dialect, keys)
    except (AttributeError, KeyError, TypeError, IndexError):
        log.warning("statement %s is sent through Core: its compiled form is not as read", key)
        UNPREPARED.add(key)
        return None
    PREPARED[key] = found
    return found


def watched(connection: Connection) -> bool:
    """Return True when something listens to the statements sent (a test counting them): then
    they go through Core, which tells it of each one."""
    return bool(connection._has_events or connection.engine._has_events)


def begin_immediate(connection: Connection) -> None:
    """Start SQLite's write transaction on the driver's own connection (as Core raises it, a
    failure: the busy timeout ran out)."""
    driver = connection.connection.driver_connection
    assert driver is not None  # an open connection has its driver's connection
    dbapi = connection.dialect.loaded_dbapi
    try:
        driver.execute("BEGIN IMMEDIATE")
    except dbapi.Error as error:
        raise DBAPIError.instance("BEGIN IMMEDIATE", None, error, dbapi.Error) from error


def hold() -> bool:
    """Take this thread's connection for the hot write, without the ORM session (on SQLite, when
    the request's session is in no transaction): its statements and commit then cost none of the
    session's work. Anything that asks the session for a connection meanwhile is given this one
    (``extensions.Session``), so the write stays one transaction. False (nothing taken) on
    another database or while the session holds a transaction."""
    if held_here() is not None:
        return True
    if db.session.registry.has() and db.session().in_transaction():
        return False
    engine = db.engine
    if engine.dialect.name != "sqlite":
        return False
    held = HELD.connection = kept(engine)
    driver = held.connection.driver_connection
    # statements go straight to the driver unless something listens to them (``watched``)
    HELD.driver = None if watched(held) or not isinstance(driver, sqlite3.Connection) else driver
    return True


#: each thread's connection kept from one hot write to its next, with its engine (``kept``)
KEPT = threading.local()


def kept(engine: Engine) -> Connection:
    """Return the connection this thread keeps for the engine's hot writes, taken from its pool
    the first time: a write then costs no checkout and return (44 us of a record's CPU at the
    table). A thread keeps one at most: one kept for another engine (another app, in tests) or
    from a pool since disposed goes back first. The pool holds it as checked out, so a server's
    connections stay bounded by its threads; ``give_back`` returns it (before copying the
    database file, or when done with the app)."""
    found: tuple[Pool, Connection] | None = getattr(KEPT, "pair", None)
    if found is not None:
        held = found[1]
        fresh = not held.closed and not held.invalidated and held.get_transaction() is None
        if found[0] is engine.pool and fresh:
            return held
        give_back()
    taken = engine.connect()
    KEPT.pair = (engine.pool, taken)
    return taken


def give_back() -> None:
    """Give the connection this thread keeps back to its pool (nothing when it keeps none)."""
    found: tuple[Pool, Connection] | None = getattr(KEPT, "pair", None)
    KEPT.pair = None
    if found is not None:
        found[1].close()


#: what a forked process's thread kept from its parent: held here, never used nor collected
#: (collecting it would roll back the parent's connection and pool it in the child)
ORPHANED: list[tuple[Pool, Connection]] = []


def forget_kept() -> None:
    """Set aside, untouched, what a forked process's thread kept: its connection is the
    parent's."""
    found: tuple[Pool, Connection] | None = getattr(KEPT, "pair", None)
    if found is not None:
        ORPHANED.append(found)
    KEPT.pair = None


os.register_at_fork(after_in_child=forget_kept)


def let_go() -> None:
    """Roll back what the held connection holds, if anything; the thread keeps it for its next
    write unless it broke (invalidated), then it goes back to its pool."""
    held = held_here()
    if held is None:
        return
    HELD.connection = HELD.driver = None
    try:
        if held.get_transaction() is not None:  # begun by a statement through Core (even one
            held.rollback()  # whose commit failed: its transaction is then left inactive)
        driver = held.connection.driver_connection
        if driver is not None and driver.in_transaction:
            driver.rollback()
    except BaseException:
        give_back()
        raise
    if held.invalidated:
        give_back()


def let_go_at_teardown(_error: BaseException | None = None) -> None:
    """Roll back a write still holding its connection at the end of an app context (``let_go``)."""
    let_go()


def committed() -> bool:
    """Commit a hot write on SQLite's own connection and close the ORM session around it (it
    holds nothing to flush: the write went below it), as ``Session.commit`` would end it without
    its work; False (nothing done) on another database, while statements are watched, or with
    ORM objects to flush. A held connection (``hold``) is always committed here: through the
    ORM session when it joined the write, else on the driver; the thread keeps it (``kept``)."""
    if held_here() is not None:
        commit_held()
        return True
    taken = connection()
    if taken.dialect.name != "sqlite" or watched(taken):
        return False
    session = db.session()
    if session.new or session.dirty or session.deleted:
        return False
    driver_commit(taken)
    session.close()
    return True


def driver_commit(connection: Connection) -> None:
    """Commit on the driver's own connection, a failure raised as Core raises it (the caller
    then rolls the write back whole: ``writes.converted``)."""
    driver = connection.connection.driver_connection
    assert driver is not None  # an open connection has its driver's connection
    dbapi = connection.dialect.loaded_dbapi
    try:
        driver.commit()
    except dbapi.Error as error:
        raise DBAPIError.instance("COMMIT", None, error, dbapi.Error) from error


def commit_held() -> None:
    """Commit the held connection's write (the thread keeps the connection for its next one):
    through the ORM session when it took part (it flushes what it holds, then commits the
    connection's transaction), else on the driver."""
    held = held_here()
    assert held is not None
    session = db.session() if db.session.registry.has() else None
    if session is not None and (
        session.in_transaction() or session.new or session.dirty or session.deleted
    ):
        session.commit()
    if held.in_transaction():  # begun by a statement sent through Core: commit it there
        held.commit()
    else:
        driver_commit(held)
    HELD.connection = HELD.driver = None
    if session is not None:
        session.close()


def several(given: Values) -> bool:
    """Return True for several rows of values (executemany), False for one; a list or a dict
    is told without an ABC check."""
    return isinstance(given, (list, tuple)) or not isinstance(given, (dict, Mapping))


def sent(connection: Connection, prepared: Prepared, given: Values) -> list[tuple[Any, ...]]:
    """Send a prepared statement on the connection's driver; return the rows read, converted."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)  # prepared statements are SQLite's alone
    return sent_on(driver, prepared, given)


def sent_on(driver: sqlite3.Connection, prepared: Prepared, given: Values) -> list[tuple[Any, ...]]:
    """Send a prepared statement on SQLite's own connection; return the rows read, converted
    (every row is read, so the statement is done with when this returns)."""
    try:
        if several(given):
            rows = cast(Sequence[Mapping[str, object]], given)
            cursor = driver.executemany(prepared.sql, [prepared.values(row) for row in rows])
        else:
            cursor = driver.execute(
                prepared.sql, prepared.values(cast(Mapping[str, object], given))
            )
        if not prepared.results:
            return []
        return [prepared.row(found) for found in cursor.fetchall()]
    except sqlite3.Error as error:  # as Core raises it: IntegrityError, OperationalError...
        raise DBAPIError.instance(prepared.sql, None, error, sqlite3.Error) from error
