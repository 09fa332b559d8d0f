"""Flask commands: whole-database backup and restore, through the models (SQLite or PostgreSQL)."""

import json
import os
from pathlib import Path

import click
from flask.cli import with_appcontext
from flask_babel import force_locale

from . import archive
from .extensions import db


def register(app) -> None:
    """Add refapp's commands to the app's CLI."""
    app.cli.add_command(backup)
    app.cli.add_command(restore)


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup(path: Path) -> None:
    """Write every player and session (rounds' inputs, audit trails) to PATH as one JSON file."""
    data = archive.backup()
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
        os.replace(partial, path)  # a backup is whole or absent, never half written
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise click.ClickException(f"Could not write {path}: {error.strerror or error}") from error
    rounds = sum(len(session["rounds"]) for session in data["sessions"])
    click.echo(f"Backed up {len(data['sessions'])} session(s) with {rounds} round(s) to {path}.")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--force",
    is_flag=True,
    help="Add the backup's sessions even though the database already holds sessions.",
)
@with_appcontext
def restore(path: Path, force: bool) -> None:
    """Restore a backup from PATH: every session replayed through the rules, all or nothing.

    The rules' messages are written in English: a command has no reader's language to follow.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise click.ClickException(f"{path} is not a readable JSON backup: {error}") from error
    with force_locale("en"):
        try:
            sessions = archive.restore(data, force=force)
        except archive.RestoreRefused as refused:
            db.session.rollback()
            raise click.ClickException(f"Nothing was restored; {refused}") from refused
    rounds = sum(len(session.rounds) for session in sessions)
    click.echo(f"Restored {len(sessions)} session(s) with {rounds} round(s) from {path}.")
