"""Migrations once per deploy: on PostgreSQL two `flask db upgrade` at once take turns.

migrations/env.py takes an advisory lock before Alembic reads the database's revision, so hosts
migrating together neither race nor fail: the second waits for the first's commit and finds
nothing left to do. ``make serve-club`` migrates at its start only on one host (``flask hosts``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from refapp.extensions import db

from .conftest import make_test_app

ROOT = Path(__file__).resolve().parent.parent
#: migrations/env.py's MIGRATE_LOCK ("MIGR")
MIGRATE_LOCK = 0x4D494752


def upgrade(url: str) -> subprocess.Popen[str]:
    """Start ``flask db upgrade`` on the database as a host of several would run it."""
    env = {**os.environ, "DATABASE_URL": url, "REFAPP_SECRET_KEY": "shared", "FLASK_APP": "refapp"}
    env.pop("REFAPP_SINGLE_HOST", None)
    flask = str(Path(sys.executable).with_name("flask"))
    return subprocess.Popen(
        [flask, "db", "upgrade"], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True
    )


def test_the_makefile_migrates_the_club_server_at_start_only_on_one_host():
    makefile = (ROOT / "Makefile").read_text()
    target = makefile[makefile.index("\nserve-club:") :].split("\n\n")[0]
    assert "serve-club: $(STAMP) $(COMPILED)" in target and "flask hosts" in target
    assert '[ "$$hosts" = one ]' in target and "$(MAKE) --no-print-directory migrate" in target


def test_two_hosts_migrating_at_once_take_turns(migrated):
    if not migrated:
        pytest.skip("PostgreSQL's advisory lock: run with TEST_DATABASE_URL (make test-pg)")
    app = make_test_app(migrated)
    with app.app_context():
        db.drop_all()
        db.session.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.engine.dispose()
    engine = sa.create_engine(migrated)
    try:
        with engine.connect() as holder:
            holder.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATE_LOCK})
            hosts = [upgrade(migrated), upgrade(migrated)]
            time.sleep(3)
            assert [host.poll() for host in hosts] == [None, None]  # both wait for the lock
            assert not sa.inspect(holder).has_table("alembic_version")
            holder.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATE_LOCK})
            holder.commit()
        ended = [host.communicate(timeout=120) for host in hosts]
        assert [host.returncode for host in hosts] == [0, 0], ended
        with engine.connect() as connection:
            revisions = connection.scalars(sa.text("SELECT version_num FROM alembic_version"))
            assert len(list(revisions)) == 1
        assert sum("Running upgrade" in errors for _out, errors in ended) == 1  # one did the work
    finally:
        engine.dispose()
