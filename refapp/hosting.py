"""One host or several on one database: the shared secret, the single-host setting, the start.

A server on SQLite is one machine (the database is a file), so it is one host: it makes its own
secret key once, in instance/secret_key, and ``make run`` needs no setting. On PostgreSQL
several app servers may share the database behind a balancer (docs/deployment.md, "Several
hosts"): they must sign cookies and CSRF tokens with one secret, so unless the server is
declared a single host (``REFAPP_SINGLE_HOST=1`` or ``SINGLE_HOST = True``) a start without a
configured secret (``REFAPP_SECRET_KEY`` or ``SECRET_KEY``) is refused with a message. With
several hosts the migrations run once per deploy (``make migrate``), not at each start:
``flask hosts`` tells ``make serve-club`` which, and refuses a start on a database the
migrations have not brought up to date.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

import click
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app
from flask.cli import with_appcontext

from .extensions import db

#: the environment variable (first) and config key holding the secret every host shares
SECRET_ENV, SECRET_KEY = "REFAPP_SECRET_KEY", "SECRET_KEY"
#: the environment variable (first) and config key declaring the one host of its database
SINGLE_ENV, SINGLE_KEY = "REFAPP_SINGLE_HOST", "SINGLE_HOST"
#: what the environment may say for yes and no
YES, NO = frozenset({"1", "true", "yes", "on"}), frozenset({"0", "false", "no", "off", ""})
#: the exit status of a refused start: gunicorn's for a worker that cannot boot, so its master
#: stops instead of starting the worker again and again
REFUSED = 3


def refuse(message: str) -> NoReturn:
    """Stop the start with a message on stderr and a non-zero status (no traceback)."""
    print(f"refapp: {message}", file=sys.stderr)
    raise SystemExit(REFUSED)


def on_postgres(url: str) -> bool:
    """Return True for a PostgreSQL database URL (as ``refapp.database_url`` made it)."""
    return url.startswith(("postgresql", "postgres:"))


def single_host(config: Mapping[str, Any]) -> bool:
    """Return True when the server is declared its database's one host (environment first)."""
    raw = os.environ.get(SINGLE_ENV)
    if raw is None:
        return bool(config.get(SINGLE_KEY, False))
    word = raw.strip().lower()
    if word not in YES | NO:
        refuse(f"{SINGLE_ENV} must be 1 (this server is its database's one host) or 0, not {raw!r}")
    return word in YES


def several_hosts(config: Mapping[str, Any]) -> bool:
    """Return True when other hosts may share this database: PostgreSQL, not declared single."""
    url = str(config.get("SQLALCHEMY_DATABASE_URI") or "")
    return on_postgres(url) and not single_host(config)


def own_secret_key(instance_path: str) -> str:
    """Return the instance's secret key, generated once into instance/secret_key.

    Several worker processes may start on a fresh instance at once: the key is written whole
    to a private file and linked into place, so each reads the one key that won.
    """
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        partial = path.with_name(f".secret_key.{os.getpid()}")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
        try:
            os.link(partial, path)
        except FileExistsError:
            pass  # another process was first: use its key
        finally:
            partial.unlink(missing_ok=True)
    return path.read_text().strip()


def set_secret_key(app: Flask) -> None:
    """Set the app's secret: the environment's, the config's, or (one host) its own file's."""
    configured = os.environ.get(SECRET_ENV) or app.config.get(SECRET_KEY)
    if configured:
        app.config[SECRET_KEY] = configured
        return
    if several_hosts(app.config):
        refuse(
            f"the database is PostgreSQL, which several app servers may share: give every one "
            f"the same secret in {SECRET_ENV} (e.g. the output of "
            f"`python3 -c 'import secrets; print(secrets.token_hex(32))'`), or set "
            f"{SINGLE_ENV}=1 if this server is the database's only one "
            f"(docs/deployment.md, 'Several hosts')"
        )
    app.config[SECRET_KEY] = own_secret_key(app.instance_path)


def pending_migrations() -> bool:
    """Return True when the database is not at the migrations' head (the app context's)."""
    config = current_app.extensions["migrate"].migrate.get_config()
    heads = set(ScriptDirectory.from_config(config).get_heads())
    with db.engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
    return current != heads


@click.command("hosts")
@with_appcontext
def hosts() -> None:
    """Print 'one' (migrate at start) or 'several' (the database must be migrated already)."""
    if not several_hosts(current_app.config):
        click.echo("one")
        return
    if pending_migrations():
        refuse(
            "the database is not at this refapp's migration: with several hosts it is migrated "
            "once per deploy, not at each start; run `make migrate` (one host, once), then start "
            "the servers"
        )
    click.echo("several")


def init_app(app: Flask) -> None:
    """Set the shared secret (or refuse the start) and add ``flask hosts``."""
    set_secret_key(app)
    app.cli.add_command(hosts)
