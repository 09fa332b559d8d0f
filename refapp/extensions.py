"""Bare extension objects, bound to the app in ``create_app``."""

import sqlite3

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

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
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()


#: how long a write waits for another write's turn before it is refused ``busy`` (503), in ms.
#: The longest writes the app allows hold SQLite's lock for seconds: measured with
#: bench/longest_write.py, an import of a 10,000-hand Mighty session 3.2 s and a correction of
#: its round 1 (every later hand replayed) 2.3 s on the development machine, and 8.7 s for such a
#: correction on a slower club server (issue 18); 30 s leaves more than three times that.
BUSY_TIMEOUT_MS = 30_000


@event.listens_for(Engine, "connect")
def _connection_settings(dbapi_connection, connection_record):
    """Set each new connection's wait for a lock, and SQLite's foreign keys and WAL.

    SQLite: WAL (readers never block the writer) and a busy timeout. PostgreSQL: a lock
    timeout of the same length, so a write stuck behind a row lock is refused ``busy`` too.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()
    elif type(dbapi_connection).__module__.startswith("psycopg"):
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {BUSY_TIMEOUT_MS}")
        dbapi_connection.commit()
