"""Flask commands: whole-database backup and restore, and counting the players' figures again."""

import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_babel import force_locale
from sqlalchemy import select

from . import club
from .extensions import db
from .games.errors import quote
from .group_models import Group
from .services import ID_MAX, projection, recount
from .services.archive import backups

T = TypeVar("T")


def register(app: Flask) -> None:
    """Add refapp's commands to the app's CLI."""
    app.cli.add_command(backup)
    app.cli.add_command(restore)
    app.cli.add_command(rebuild_figures)


#: the option that names the group a backup or a restore is of (without it: the default group)
GROUP = click.option(
    "--group", "slug", default=None, help="The group's slug (its /g/<slug>/ address)."
)


def address_group(slug: str | None) -> None:
    """Make this command address the group of this slug (None: the default group)."""
    if slug is None:
        return
    found = db.session.scalar(select(Group.id).where(Group.slug == slug))
    if found is None:
        raise click.ClickException(f"There is no group {quote(slug)} on this server.")
    current_app.config[club.CHILD_GROUP] = found


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@GROUP
@with_appcontext
def backup(path: Path, slug: str | None) -> None:
    """Write a group's players, sessions (rounds' inputs, audit trails) and saved rules to PATH
    as one JSON file (--group: that group's; without it the default group's)."""
    address_group(slug)
    try:
        sessions, rounds = write_whole(path, backups.write_backup)
    except OSError as error:
        raise click.ClickException(f"Could not write {path}: {error.strerror or error}") from error
    except Exception as error:  # e.g. text that is not valid Unicode: nothing was written
        raise click.ClickException(f"Could not write {path}: {error}") from error
    click.echo(f"Backed up {sessions} session(s) with {rounds} round(s) to {path}.")


def write_whole(path: Path, write: Callable[[IO[str]], T]) -> T:
    """Write a file with ``write`` whole or not at all: any failure leaves no file behind.

    NaN and infinities are refused: they are not JSON, and PostgreSQL could not restore them.
    """
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            written = write(handle)
        os.replace(partial, path)  # a backup is whole or absent, never half written
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return written


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--force",
    is_flag=True,
    help="Add the backup's sessions even though the group already holds sessions.",
)
@GROUP
@with_appcontext
def restore(path: Path, force: bool, slug: str | None) -> None:
    """Restore a backup from PATH into a group (--group; without it the default group): every
    session replayed through the rules, all or nothing.

    Sessions keep their ids, so links to them still work; an id already taken (with --force)
    is replaced by a new one, and the command says so.

    The rules' messages are written in English: a command has no reader's language to follow.
    """
    address_group(slug)
    with force_locale("en"):
        try:
            with path.open("rb") as raw:
                restored = backups.restore_file(raw, force=force)
        except OSError as error:
            raise click.ClickException(f"{path} is not a readable backup: {error}") from error
        except backups.RestoreRefused as refused:
            db.session.rollback()
            raise click.ClickException(f"Nothing was restored; {refused}") from refused
    for old, new in restored.renumbered:
        click.echo(renumbered(old, new))
    rounds = sum(session.round_count for session in restored.sessions)
    click.echo(
        f"Restored {len(restored.sessions)} session(s) with {rounds} round(s) from {path}; "
        "they keep their ids and times."
    )


def renumbered(old: object, new: int) -> str:
    """Say that a restored session has a new id, and why: its own was taken, or is no id."""
    if type(old) is int and 1 <= old <= ID_MAX:
        return f"Session {old} of the backup is now session {new}: its id was taken."
    return f"A session of the backup with the id {quote(old)} is now session {new}: no usable id."


@click.command("rebuild-figures")
@click.option(
    "--if-stale",
    is_flag=True,
    help="Only if the stored figures were counted by older definitions (make migrate).",
)
@with_appcontext
def rebuild_figures(if_stale: bool) -> None:
    """Count every session's times and places, every player's and pair's figures, every record
    and rating again from the rounds, a session at a time.

    Writes wait while it runs; pages keep reading. Every write keeps the figures up to date, so
    this is for after a restore or import made by an older refapp, to check them, or (with
    ``--if-stale``) after an upgrade that changed what they count.
    """
    if if_stale and not projection.stale():
        click.echo("The stored figures are up to date.")
        return
    done = recount.rebuild()
    click.echo(
        f"Counted {done.sessions} session(s) with {done.rounds} round(s) and {done.seats} "
        f"seat(s): {done.rows} player figures row(s) written."
    )
