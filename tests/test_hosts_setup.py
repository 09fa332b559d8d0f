"""Several hosts, one database: one secret or a refused start, sign-in ages on one clock.

On PostgreSQL several app servers may share the database, so a start without a configured secret
is refused (unless the server is declared the database's one host); on SQLite nothing changes.
A sign-in ages by the database's clock on PostgreSQL, so a host whose clock is hours off keeps
it as long as the others do; on SQLite (one machine) by the machine's clock, as before.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import update

from refapp import access, hosting
from refapp.extensions import db
from refapp.models import SignIn

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = "postgresql+psycopg://refapp@127.0.0.1/refapp"


@pytest.fixture
def bare_env(monkeypatch):
    """Clear the settings these tests set themselves."""
    for name in (hosting.SECRET_ENV, hosting.SINGLE_ENV):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def bare_app(tmp_path, url: str, **config) -> Flask:
    """Return a bare Flask app on ``url`` with its instance folder in tmp_path."""
    app = Flask("refapp_hosts_test", instance_path=str(tmp_path))
    app.config.update(SQLALCHEMY_DATABASE_URI=url, **config)
    return app


def test_postgres_without_a_secret_is_refused_unless_one_host_is_declared(
    tmp_path, bare_env, capsys
):
    app = bare_app(tmp_path, POSTGRES_URL)
    with pytest.raises(SystemExit) as stopped:
        hosting.set_secret_key(app)
    assert stopped.value.code == hosting.REFUSED
    said = capsys.readouterr().err
    assert hosting.SECRET_ENV in said and hosting.SINGLE_ENV in said
    assert not (tmp_path / "secret_key").exists()
    bare_env.setenv(hosting.SINGLE_ENV, "1")
    hosting.set_secret_key(app)  # the one host: its own key, as on SQLite
    assert app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text().strip()


def test_the_configured_secret_is_every_hosts_and_the_environment_wins(tmp_path, bare_env):
    first = bare_app(tmp_path / "a", POSTGRES_URL, SECRET_KEY="from-config")
    hosting.set_secret_key(first)
    assert first.config["SECRET_KEY"] == "from-config"
    bare_env.setenv(hosting.SECRET_ENV, "shared")
    hosts = [bare_app(tmp_path / name, POSTGRES_URL, SECRET_KEY="x") for name in "bc"]
    for host in hosts:
        hosting.set_secret_key(host)
    assert [host.config["SECRET_KEY"] for host in hosts] == ["shared", "shared"]
    assert not (tmp_path / "b" / "secret_key").exists()


def test_sqlite_without_settings_makes_its_own_key_as_before(tmp_path, bare_env):
    app = bare_app(tmp_path, f"sqlite:///{tmp_path / 'x.sqlite'}")
    hosting.set_secret_key(app)
    assert len(app.config["SECRET_KEY"]) == 64
    assert not hosting.several_hosts(app.config)


def test_a_single_host_setting_that_is_not_yes_or_no_is_refused(tmp_path, bare_env, capsys):
    bare_env.setenv(hosting.SINGLE_ENV, "maybe")
    with pytest.raises(SystemExit):
        hosting.set_secret_key(bare_app(tmp_path, POSTGRES_URL))
    assert "'maybe'" in capsys.readouterr().err


def test_a_refused_start_is_a_message_and_a_status_not_a_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in (hosting.SECRET_ENV, hosting.SINGLE_ENV)}
    env.update(DATABASE_URL="postgresql://nobody@127.0.0.1:1/none", PYTHONPATH=str(ROOT))
    started = subprocess.run(
        [sys.executable, "-c", "from refapp import create_app; create_app()"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode == hosting.REFUSED
    assert "REFAPP_SECRET_KEY" in started.stderr and "Traceback" not in started.stderr


def test_flask_hosts_tells_the_start_whether_to_migrate(app, bare_env):
    answer = app.test_cli_runner().invoke(args=["hosts"])
    several = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    assert answer.exit_code == 0 and answer.output.strip() == ("several" if several else "one")
    bare_env.setenv(hosting.SINGLE_ENV, "1")
    assert app.test_cli_runner().invoke(args=["hosts"]).output.strip() == "one"


def test_flask_hosts_refuses_several_hosts_on_a_database_not_migrated(app, bare_env, capsys):
    app.config["SQLALCHEMY_DATABASE_URI"] = POSTGRES_URL  # as several_hosts reads it
    with app.app_context(), pytest.raises(SystemExit) as stopped:
        bare_env.setattr(hosting, "pending_migrations", lambda: True)
        hosting.hosts.callback.__wrapped__()  # type: ignore[union-attr]
    assert stopped.value.code == hosting.REFUSED and "make migrate" in capsys.readouterr().err


def signed_in_client(app):
    """Return a client signed in with the table password 'owl'."""
    client = app.test_client()
    assert client.post("/signin", data={"password": "owl"}).status_code == 302
    assert client.get("/sessions/new?game=dixit").status_code == 200
    return client


def test_a_sign_in_ages_by_the_databases_clock_on_postgres(app, monkeypatch):
    app.config.update(PASSWORD="owl")  # no ACCESS_CLOCK: each host's own clock
    client = signed_in_client(app)
    postgres = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    ahead = time.time() + 13 * 3600  # this host's clock as the app reads it, 13 h ahead
    monkeypatch.setattr(access, "now", lambda: ahead)
    # on PostgreSQL this host's clock does not age the sign-in; on SQLite (one machine) it does
    expected = 200 if postgres else 302
    assert client.get("/sessions/new?game=dixit").status_code == expected
    monkeypatch.undo()
    with app.app_context():
        long_ago = datetime.now(UTC) - timedelta(hours=13)
        db.session.execute(update(SignIn).values(at=long_ago))  # made 13 h ago, by any clock
        db.session.commit()
    assert client.get("/sessions/new?game=dixit").status_code == 302
