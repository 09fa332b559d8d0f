"""Bare extension objects, bound to the app in ``create_app``."""

import sqlite3
import threading
from typing import Any

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_sqlalchemy.session import Session as FlaskSession
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase

from .stored_json import loaded, stored

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with named constraints, so migrations can alter them on SQLite too."""

    metadata = MetaData(naming_convention=NAMING)


#: objects keep what was written when a write commits, so its answer needs no second read
#: (every write takes its rows afresh first: ``writes.lock_sessions``)
#: each thread's hot write's own connection on SQLite, while it holds one (services/prepared.py)
HELD = threading.local()


def held_connection() -> Connection | None:
    """Return the connection this thread's hot write holds, if it holds one."""
    found: Connection | None = getattr(HELD, "connection", None)
    return found


class Session(FlaskSession):
    """Flask-SQLAlchemy's session, joining a hot write's own connection while one is held: what
    it reads and writes then is in that write's transaction (``prepared.hold``)."""

    def get_bind(self, *args: Any, **kwargs: Any) -> Engine | Connection:
        """Return the held connection while a hot write holds one, else the engine."""
        held = held_connection()
        if held is not None and kwargs.get("bind") is None:
            return held
        return super().get_bind(*args, **kwargs)


#: JSON columns are written by ``stored_json.stored`` and read by ``stored_json.loaded``
db = SQLAlchemy(
    model_class=Base,
    session_options={"expire_on_commit": False, "class_": Session},
    engine_options={"json_serializer": stored, "json_deserializer": loaded},
)
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()


#: how long a write waits for another write's turn before it is refused ``busy`` (503), in ms.
#: It must lie well above the longest time a write holds SQLite's one write lock. Measured with
#: bench/longest_write.py on the shared 2-core test machine: an import of a 10,000-hand Mighty
#: session holds it 1.4 s of its 3.8 s (the replay runs before the lock); a correction of its
#: round 1 takes 0.37 s and holds it 0.01 s, as its replay also runs before the lock and plays
#: again only the rounds whose input or state before changed (when it replayed every round
#: under the lock: 3.8 s, and 8.7 s on a slower club server); the longest correction,
#: every later hand played again and written, takes 2.3 s and holds it 0.3 s. The largest
#: import holds it 12 s (docs/deployment.md): 30 s leaves more than twice that. On PostgreSQL
#: (lock_timeout, the same length) a correction locks only its own session's rows, so other
#: tables' writes do not wait for it at all.
BUSY_TIMEOUT_MS = 30_000
#: the bytes of an SQLite database file each connection reads through a memory map (``PRAGMA
#: mmap_size``): a ceiling of address space, not an allocation. The pages a read touches are the
#: system's own file cache - counted in the process's resident size while mapped, but shared by
#: every connection and worker process, never copied, and dropped by the system when it needs
#: the memory. With SQLite's private page cache alone (2 MB a connection) a session longer than
#: ~800 rounds went back to the file for most of its pages at every read: its read grew 16x for
#: 10x rounds (bench/read_session.py: 7.3 ms of CPU at 3000 rounds, 0.44 at 300). A larger
#: page cache (``PRAGMA cache_size=-65536``, 64 MiB) cut it to 5.9 ms but each connection kept a
#: private copy of every page it had read or written: 500-round imports sent one after another
#: left each of a server's 8 threads' connections ~10 MB larger (resident 126 -> 176 MiB).
#: Mapped, the read takes 4.0 ms (growth 9x, floor B's 8x) and an import keeps no more than
#: without it. An import's own connection reads unmapped (``unmapped``): it touches every page
#: of the tables it grows, and mapped they would all count in its resident size at its peak
#: (a 14 MB import: 126 MiB mapped, 25 MiB unmapped; bench/import_memory.py). The map covers
#: the file from its start: 1 GiB maps a club's whole file, several
#: times the largest session (``limits.SESSION_MAX_BYTES``, 274 MiB), so every session's rounds
#: are read mapped wherever the file keeps them. Where a map fails (a 32-bit system short of
#: address space) SQLite reads that file as before.
MMAP_BYTES = 1024 * 1024 * 1024


@event.listens_for(Engine, "connect")
def _connection_settings(dbapi_connection: Any, connection_record: object) -> None:
    """Set each new connection's wait for a lock, and SQLite's foreign keys and WAL.

    SQLite: WAL (readers never block the writer), a busy timeout and reads through a memory
    map large enough for the longest session (``MMAP_BYTES``). PostgreSQL: a lock timeout of the
    same length, so a write stuck behind a row lock is refused ``busy`` too.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        cursor.close()
    elif type(dbapi_connection).__module__.startswith("psycopg"):
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {BUSY_TIMEOUT_MS}")
        dbapi_connection.commit()


#: the mark of a connection read unmapped until it goes back to the pool
UNMAPPED = "refapp_unmapped"


def unmapped(connection: Connection) -> None:
    """Read this SQLite connection's file without the memory map until it goes back to the pool
    (``_mapped_again``): for a write that touches far more pages than any read (an import)."""
    pooled = connection.connection
    if isinstance(pooled.driver_connection, sqlite3.Connection):
        pooled.driver_connection.execute("PRAGMA mmap_size=0")
        pooled.info[UNMAPPED] = True


@event.listens_for(Engine, "checkin")
def _mapped_again(dbapi_connection: Any, connection_record: Any) -> None:
    """Map a connection read unmapped (``unmapped``) again as it goes back to the pool, its page
    cache emptied (``PRAGMA shrink_memory``: the write filled it, and a pooled connection would
    keep it for good)."""
    if dbapi_connection is not None and connection_record.info.pop(UNMAPPED, False):
        dbapi_connection.execute("PRAGMA shrink_memory")
        dbapi_connection.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
