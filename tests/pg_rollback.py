"""A PostgreSQL test's writes undone at its end: one transaction per test, each commit a savepoint.

On PostgreSQL (TEST_DATABASE_URL) the app of a test gets an engine with one connection
(``StaticPool``: the ORM, the fast reads below Flask and the test's own reads all see the same
rows). That connection opens one transaction for the whole test and a savepoint in it; the app's
commit releases the savepoint and opens the next, its rollback returns to the last one. At the end
the transaction is rolled back: no TRUNCATE, nothing written to the disk.

The transaction is REPEATABLE READ, the level an export asks for (``SET TRANSACTION ISOLATION
LEVEL REPEATABLE READ`` after a query is refused unless the level is already the one asked). What
this cannot hold: work committed from another connection (a thread of a served app, a child
process, a lock held from outside, a second app on the same database) - those tests keep
committed rows and a clean-up (``tests/conftest.py``, ``COMMITTED_FILES``); a committed row
left behind by any other test is found at its end (``RolledBack.finish``) and cleaned up before
the next.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg
from sqlalchemy import Engine, event, text
from sqlalchemy.pool import StaticPool

#: the savepoint each commit of the app releases and opens again
STEP = "test_step"

#: the engine options of a test app whose writes are rolled back (one connection for all)
ENGINE_OPTIONS: dict[str, Any] = {"poolclass": StaticPool}


def run(driver: Any, *statements: str) -> None:
    """Run statements on the driver's connection, below SQLAlchemy (no events, not counted)."""
    with driver.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


class RolledBack:
    """An engine whose commits are savepoints of one transaction per connection (see above)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.begun: set[int] = set()
        dialect = engine.dialect
        self.commit, self.rollback = dialect.do_commit, dialect.do_rollback
        dialect.do_commit = self.do_commit  # type: ignore[method-assign]
        dialect.do_rollback = self.do_rollback  # type: ignore[method-assign]
        event.listen(engine, "checkout", self.begin)
        event.listen(engine, "close", self.forget)

    def testing(self, connection: Any) -> bool:
        """Whether the connection (the pool's proxy, or the driver's own) runs a test."""
        return id(getattr(connection, "dbapi_connection", connection)) in self.begun

    def do_commit(self, connection: Any) -> None:
        """Keep the work so far: the next savepoint starts here."""
        if not self.testing(connection):
            return self.commit(connection)
        run(connection, f"RELEASE SAVEPOINT {STEP}", f"SAVEPOINT {STEP}")

    def do_rollback(self, connection: Any) -> None:
        """Undo the work since the last commit."""
        if not self.testing(connection):
            return self.rollback(connection)
        run(connection, f"ROLLBACK TO SAVEPOINT {STEP}")

    def begin(self, dbapi_connection: Any, record: Any, proxy: Any) -> None:
        """Open the test's transaction on a connection the first time it is checked out."""
        if id(dbapi_connection) in self.begun:
            return
        self.rollback(dbapi_connection)  # whatever the connect settings left open
        dbapi_connection.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        run(dbapi_connection, f"SAVEPOINT {STEP}")
        self.begun.add(id(dbapi_connection))

    def forget(self, dbapi_connection: Any, record: Any) -> None:
        """Forget a connection the pool closed (its transaction went with it)."""
        self.begun.discard(id(dbapi_connection))

    def finish(self, tables: Iterable[str]) -> bool:
        """Roll the test's transaction back; return whether any table still holds a row (one
        committed from another connection), in the same round trip's connection."""
        names = list(tables)
        proxy = self.engine.raw_connection()
        try:
            driver = proxy.dbapi_connection
            self.begun.discard(id(driver))
            driver.rollback()
            found = " OR ".join(f"EXISTS (SELECT 1 FROM {name})" for name in names)
            with driver.cursor() as cursor:
                cursor.execute(f"SELECT {found}")
                row = cursor.fetchone()
            driver.rollback()
        finally:
            proxy.close()
        return bool(row and row[0])


def sequences_restarted(engine: Engine, sequences: list[str]) -> None:
    """Start every id sequence at 1 again (a rolled-back test leaves its sequences advanced)."""
    if not sequences:
        return
    # the groups' ids go on after the default group (id 1, which every test's rows start in)
    calls = ", ".join(
        f"setval('{name}', 1, {'true' if name == 'club_group_id_seq' else 'false'})"
        for name in sequences
    )
    with engine.connect() as connection:
        connection.execute(text(f"SELECT {calls}"))


def sequence_names(engine: Engine) -> list[str]:
    """Return the names of the database's sequences (the tables' ids)."""
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT c.relname FROM pg_class c WHERE c.relkind = 'S' ORDER BY c.relname")
        )
        return [row[0] for row in rows]
