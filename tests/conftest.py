"""Fixtures: an app on a temporary SQLite file, its client, and a helper for the JSON API."""

from __future__ import annotations

import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask_migrate import upgrade
from hypothesis import HealthCheck, settings
from sqlalchemy import event

from refapp import create_app, database_url
from refapp.extensions import db
from refapp.group_models import Group, default_row
from refapp.services import prepared

from . import pg_rollback
from .speed import TEMPLATE_CODE, remember_url_builders, use_memory_for_tmp_path

# an app per test, without paying per test for what every app builds the same (tests/speed.py)
use_memory_for_tmp_path()
remember_url_builders()

#: property tests never fail on a deadline or a slow example in a loaded CI: they check rules,
#: not speed (a test's own @settings may still narrow max_examples)
settings.register_profile(
    "refapp", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
#: in CI (CI=true) every property test draws the same examples each run, so a green main stays
#: green and a red run is reproducible; a developer's runs stay random and go on hunting (a find
#: is fixed at its root and kept as an explicit case, e.g. tests/test_digits.py)
settings.register_profile("ci", parent=settings.get_profile("refapp"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "refapp")

#: run the suite against another database (e.g. PostgreSQL): its tables are dropped per test
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


#: at most this many examples per property test with --quick (make test-fast): a strategy's
#: simplest values and a few drawn ones, enough to catch a broken path while working; make test
#: and CI draw each test's own number
QUICK_EXAMPLES = 5

#: files whose tests wait on real time or other processes rather than compute: servers over
#: HTTP, child processes and their time limits, lock and busy timeouts (marked ``waits``)
WAITING_FILES = frozenset(
    {
        "tests/test_import_apart.py",  # imports in child processes, killed past their limits
        "tests/test_import_turns.py",  # a second large import waiting for the first one's turn
        "tests/test_serialized_writes.py",  # writes raced over HTTP, each widened by a sleep
        "tests/test_figures_races.py",  # writes raced through gunicorn's processes
        "tests/test_races_busy.py",  # writes waiting out the database's busy timeout
        "tests/test_serve_workers.py",  # server processes started and stopped
    }
)


#: files whose tests need their writes committed on PostgreSQL, as another connection reads or
#: writes them (threads of a served app, child processes, a lock held from outside): their tables
#: are emptied before each test instead of the test's transaction rolled back
COMMITTED_FILES = frozenset(
    {
        "tests/test_import_apart.py",  # the import's child process commits, the server reads it
        "tests/test_races_busy.py",  # a lock held from another connection
        "tests/test_races_rename_correction.py",  # reads and writes racing in threads
        "tests/test_serialized_writes.py",  # writes racing through a served app's threads
        "tests/test_throttle_shared_address.py",  # a guesser's thread counted in the database
        "tests/test_hosts_throttle.py",  # two apps (hosts) counting on one database
        "tests/test_two_phones.py",  # phones recording at once from threads
    }
)


#: files whose tests hold a timing bar but are not marked ``serial`` in the file (marked here)
TIMED_FILES = frozenset(
    {
        "tests/test_e2e_live.py",  # a second phone shows another's round within a poll's time
    }
)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--quick``: fewer examples per property test (the quick loop, make test-fast)."""
    parser.addoption(
        "--quick",
        action="store_true",
        help=f"draw at most {QUICK_EXAMPLES} examples in each property test (make test-fast)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``serial`` and ``waits`` markers (the others are in pyproject.toml)."""
    config.addinivalue_line(
        "markers",
        "serial: holds a timing bar that a second test process on the same cores would break; "
        "make test runs these alone, after the parallel run (-n 2)",
    )
    config.addinivalue_line(
        "markers",
        "waits: waits on real time or other processes (servers, child processes, lock "
        "timeouts); make test runs it, make test-fast leaves it out",
    )


def fewer_examples(item: pytest.Item) -> None:
    """Draw at most QUICK_EXAMPLES examples in the item's property test, if it is one."""
    test = getattr(item, "obj", None)
    chosen = getattr(test, "_hypothesis_internal_use_settings", None)
    if chosen is not None and chosen.max_examples > QUICK_EXAMPLES:
        test._hypothesis_internal_use_settings = settings(chosen, max_examples=QUICK_EXAMPLES)


def shares_module_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module-scoped fixture (a server started once for its file)."""
    info = getattr(item, "_fixtureinfo", None)
    definitions = info.name2fixturedefs.values() if info else ()
    return any(defs and defs[-1].scope == "module" for defs in definitions)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``browser`` every test that drives Chromium: its live server runs on SQLite whatever
    the suite's database (tests/browser_support.py), so the PostgreSQL run leaves it out. On
    another database (TEST_DATABASE_URL) keep only the tests that reach it: every one does so
    through the ``migrated`` fixture (``app``, ``client``, ``api``, a race's ``database``); the
    rest (pure rules, SQLite files of their own) ran the same in the SQLite run. A test using a
    module-scoped fixture is grouped with its file for ``--dist loadgroup``. The tests of
    WAITING_FILES are marked ``waits``; with ``--quick`` property tests draw fewer examples."""
    quick = config.getoption("quick")
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        path = item.nodeid.split("::")[0]
        if path in WAITING_FILES:
            item.add_marker(pytest.mark.waits)
        if path in TIMED_FILES:
            item.add_marker(pytest.mark.serial)
        if quick:
            fewer_examples(item)
        if shares_module_fixture(item):
            # with -n 2 --dist loadgroup its file's tests share one process, so one server
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    if not TEST_DATABASE_URL:
        return
    kept = [item for item in items if "migrated" in getattr(item, "fixturenames", ())]
    chosen = {id(item) for item in kept}
    config.hook.pytest_deselected(items=[item for item in items if id(item) not in chosen])
    items[:] = kept


def make_test_app(url: str, engine: dict[str, Any] | None = None):
    """Return an app for tests on the given database (CSRF off: tests post forms directly)."""
    config = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": url,
    }
    if engine is not None:
        config["SQLALCHEMY_ENGINE_OPTIONS"] = engine
    return with_shared_templates(create_app(config))


def with_shared_templates(app):
    """Return the app, its Jinja sharing the templates the process compiled (tests/speed.py)."""
    app.jinja_env.bytecode_cache = TEMPLATE_CODE
    return app


def migrated_sqlite_app(path):
    """Return an app on a new SQLite file at path, its tables built by the migrations."""
    app = make_test_app(f"sqlite:///{path}")
    with app.app_context():
        upgrade()
    return app


def worker_database(url: str) -> str:
    """Return the URL of this test process's own database: with -n 2 each xdist worker has one,
    named after the given one and the worker (``refapp_ci_gw0``; .ci/run makes them, or a user
    allowed to create databases makes them here), so no worker empties or locks the rows of
    another's test."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    given = sa.engine.make_url(url)
    own = given.set(database=f"{given.database}_{worker}")
    engine = sa.create_engine(given, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            found = connection.scalar(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own.database}
            )
            if not found:
                try:
                    connection.execute(sa.text(f'CREATE DATABASE "{own.database}"'))
                except sa.exc.ProgrammingError:
                    pytest.exit(
                        f"make the database {own.database} (and one per -n worker), owned by "
                        f"{given.username}, or run make test-pg with PG_WORKERS=0",
                        returncode=2,
                    )
    finally:
        engine.dispose()
    return own.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def migrated(tmp_path_factory) -> str | None:
    """With TEST_DATABASE_URL, empty this process's database and build it by the migrations,
    once; note its id sequences (a rolled-back test starts them at 1 again)."""
    if not TEST_DATABASE_URL:
        return None
    url = worker_database(database_url(TEST_DATABASE_URL, str(tmp_path_factory.mktemp("pg"))))
    app = make_test_app(url)
    with app.app_context():
        db.drop_all()
        db.session.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        upgrade()
        POSTGRES.sequences = pg_rollback.sequence_names(db.engine)
        db.engine.dispose()
    return url


class PostgresState:
    """What the PostgreSQL run knows between tests: the sequences, and whether rows a test
    committed may still be there (a committed test ran since the last clean-up)."""

    def __init__(self) -> None:
        self.sequences: list[str] = []
        self.committed = True  # what the migrations stored: emptied before the first test


POSTGRES = PostgresState()


def keeps_commits(item: pytest.Item) -> bool:
    """Whether the test's writes must be committed (another connection reads or writes them)."""
    return item.nodeid.split("::")[0] in COMMITTED_FILES or "app" not in getattr(
        item, "fixturenames", ()
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Note a PostgreSQL test that commits: the next rolled-back test empties the tables first."""
    if TEST_DATABASE_URL and keeps_commits(item):
        POSTGRES.committed = True


def emptied(app) -> None:
    """Empty every table of the app's database and restart its ids (TRUNCATE)."""
    with app.app_context():
        names = ", ".join(table.name for table in db.metadata.sorted_tables)
        db.session.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        db.session.execute(Group.__table__.insert().values(**default_row()))  # the default group
        db.session.execute(sa.text("SELECT setval('club_group_id_seq', 1)"))
        db.session.commit()


def rolled_back_app(url: str):
    """Return an app on PostgreSQL whose writes are rolled back at the test's end, on empty
    tables with ids from 1, and what rolls it back (tests/pg_rollback.py)."""
    if POSTGRES.committed:
        cleaner = make_test_app(url)
        emptied(cleaner)
        with cleaner.app_context():
            db.engine.dispose()
        POSTGRES.committed = False
    app = make_test_app(url, pg_rollback.ENGINE_OPTIONS)
    with app.app_context():
        rolled = pg_rollback.RolledBack(db.engine)
        pg_rollback.sequences_restarted(db.engine, POSTGRES.sequences)
    return app, rolled


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """Return a SQLite file with refapp's empty tables, built once per process (xdist worker):
    each test copies it (a fraction of a millisecond) instead of running create_all (~30 ms)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    app = make_test_app(f"sqlite:///{path}")
    with app.app_context():
        db.create_all()
        # WAL (refapp/extensions.py): fold the log into the file so the file alone is complete
        db.session.execute(sa.text("PRAGMA wal_checkpoint(TRUNCATE)"))
        db.session.remove()
        db.engine.dispose()
    return path


def fresh_sqlite(request: pytest.FixtureRequest, path: Path) -> str:
    """Copy the empty-tables template to path and return its URL."""
    shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
    return f"sqlite:///{path}"


@pytest.fixture
def app(request, tmp_path, migrated):
    """Return an app with a fresh, empty database: on SQLite a copy of the empty-tables file; on
    PostgreSQL (migrated once) the test's writes rolled back at its end, or for a test of
    COMMITTED_FILES committed, the tables emptied first."""
    rolled = None
    if not migrated:
        app = make_test_app(fresh_sqlite(request, tmp_path / "test.sqlite"))
    elif keeps_commits(request.node):
        app = make_test_app(migrated)
        emptied(app)
    else:
        app, rolled = rolled_back_app(migrated)
    yield app
    if rolled is not None:
        with app.app_context():
            db.session.remove()
            tables = [table.name for table in db.metadata.sorted_tables]
        if rolled.finish(tables):  # committed by another connection (a second app, a child)
            POSTGRES.committed = True
    prepared.give_back()  # the connection this thread kept for the app's hot writes
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def guarded(request, tmp_path):
    """Return an app whose table has the password 'owl' (CSRF on, as in production)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "PASSWORD": "owl",
            "SQLALCHEMY_DATABASE_URI": fresh_sqlite(request, tmp_path / "g.sqlite"),
        }
    )
    yield with_shared_templates(app)
    prepared.give_back()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    """Return a test client."""
    return app.test_client()


class Api:
    """Calls the JSON API the way a device at the table would."""

    def __init__(self, client) -> None:
        self.client = client

    def create(self, players=("Ann", "Ben", "Cy", "Dee"), game="dixit", **extra: Any) -> dict:
        """Create a session and return its object (asserting success)."""
        response = self.client.post(
            "/api/sessions", json={"game": game, "players": list(players), **extra}
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def record(self, session_id: int, body: dict, *, dry_run: bool = False):
        """Post a round and return the response."""
        suffix = "?dry_run=1" if dry_run else ""
        return self.client.post(f"/api/sessions/{session_id}/rounds{suffix}", json=body)

    def session(self, session_id: int) -> dict:
        """Return the session object."""
        response = self.client.get(f"/api/sessions/{session_id}")
        assert response.status_code == 200
        return response.get_json()

    def audit(self, session_id: int) -> list[dict]:
        """Return the session's audit entries."""
        return self.client.get(f"/api/sessions/{session_id}/audit").get_json()["entries"]


@pytest.fixture
def api(client) -> Api:
    """Return the API helper."""
    return Api(client)


#: statements that open a transaction or set its isolation, which read and write nothing
TRANSACTION_CONTROL = ("BEGIN", "SET TRANSACTION")


class QueryCounter:
    """Counts the SQL statements the app sends while it is active, and the rows its reads return.

    ``rows`` is the sum over every SELECT of the rows it returned: each one is counted again as
    ``SELECT count(*) FROM (<it>)`` with the same parameters, in the same transaction.
    """

    def __init__(self, engine) -> None:
        self.engine = engine
        self.count = 0
        self.rows = 0
        #: the statements counted, as sent
        self.statements: list[str] = []

    def _count(self, conn, cursor, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith(TRANSACTION_CONTROL):
            return  # a read taken as of one moment opens its transaction: not a query
        self.count += 1
        self.statements.append(statement)

    def _rows(self, conn, cursor, statement: str, parameters, context, executemany) -> None:
        if executemany or not statement.lstrip().upper().startswith("SELECT"):
            return
        counting = conn.connection.dbapi_connection.cursor()
        try:
            counting.execute(f"SELECT count(*) FROM ({statement}) AS counted", parameters)
            self.rows += counting.fetchone()[0]
        finally:
            counting.close()

    def __enter__(self) -> QueryCounter:
        event.listen(self.engine, "before_cursor_execute", self._count)
        event.listen(self.engine, "after_cursor_execute", self._rows)
        return self

    def __exit__(self, *exc: Any) -> None:
        event.remove(self.engine, "before_cursor_execute", self._count)
        event.remove(self.engine, "after_cursor_execute", self._rows)


@pytest.fixture
def count_queries(app):
    """Return a factory of query counters on the app's engine."""

    def make() -> QueryCounter:
        with app.app_context():
            return QueryCounter(db.engine)

    return make


#: a four-player turn from the seed: Ann tells, Ben and Cy find it, Dee votes for Ben's card
SEED_TURN = {
    "storyteller": "Ann",
    "positions": ["Dee", "Ann", "Ben", "Cy"],
    "votes": {"Ben": 2, "Cy": 2, "Dee": 3},
}


def turn(storyteller: str, players=("Ann", "Ben", "Cy", "Dee")) -> dict:
    """Return a valid four-player turn for any storyteller: everyone else finds the card."""
    others = [p for p in players if p != storyteller]
    positions = [storyteller, *others]
    return {"storyteller": storyteller, "positions": positions, "votes": dict.fromkeys(others, 1)}


def shown(response) -> str:
    """Return a page's HTML without the <bdi> that isolates each player's name."""
    return re.sub(r"</?bdi>", "", response.get_data(as_text=True))


#: a Mighty hand with its auction: Ann bids 13 spades, everyone passes; Cy holds the joker, the
#: friend card; the opposition took 3 points
MIGHTY_HAND = {
    "dealer": "Ann",
    "bidding": [
        {"player": "Ann", "bid": 13, "trump": "S"},
        {"player": "Ben", "pass": True},
        {"player": "Cy", "pass": True},
        {"player": "Dee", "pass": True},
        {"player": "Eve", "pass": True},
    ],
    "contract": {"boss": "Ann", "bid": 13, "trump": "S"},
    "friend": {"card": "JK", "player": "Cy"},
    "opposition_points": 3,
}


class Clock:
    """A clock the test moves by hand (the app's ``CLOCK``)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 6, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **moved: float) -> None:
        """Move the clock on."""
        self.now += timedelta(**moved)


@pytest.fixture
def clock(app) -> Clock:
    """Return the app's hand-moved clock."""
    moved = Clock()
    app.config["CLOCK"] = moved
    return moved
