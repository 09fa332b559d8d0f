"""Whole-database backups and their restore: every session replayed, all or nothing."""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from ...club import current_group_id
from ...extensions import db
from ...games.errors import Conflict, MalformedInput, Refusal, RuleViolation, quote
from ...games.inputs import mapping, sequence
from ...models import GameSession, Player, utcnow
from .. import rule_sets
from ..sessions import iso
from ..values import ID_MAX, player_names
from .checks import missing, moment
from .exports import dumps, export_chunks, read_snapshot
from .imports import replay
from .reading import ExportParts, read_export_from
from .replayed import Replayed
from .storing import commit, store
from .stream import JsonStream

#: the most characters a backup's own field may take (its players, its saved rule sets)
FIELD_MOST = 16 * 1024 * 1024

BACKUP_VERSION = 1


def backup() -> dict[str, Any]:
    """Return every player and every session's export as a dict (a small database: tests)."""
    out = io.StringIO()
    write_backup(out)
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def write_backup(handle: IO[str]) -> tuple[int, int]:
    """Write every player, every session's export (oldest first) and the saved rule sets.

    Each session is written as its export streams (``exports.export_chunks``), all from one
    snapshot of the database, so a backup holds about one batch of rows in memory whatever
    the database's size. Returns how many sessions and rounds were written.
    """
    read_snapshot()
    mine = current_group_id()  # a command's: the default group's, or its --group
    players = db.session.scalars(select(Player).where(Player.group_id == mine).order_by(Player.id))
    people = [{"name": player.name, "created_at": iso(player.created_at)} for player in players]
    handle.write(f'{{"refapp_backup":{BACKUP_VERSION},"created_at":{dumps(iso(utcnow()))},')
    handle.write(f'"players":{dumps(people)},"sessions":[')
    ids = db.session.scalars(
        select(GameSession.id)
        .where(GameSession.group_id == mine)
        .order_by(GameSession.created_at, GameSession.id)
    ).all()
    rounds = 0
    for index, session_id in enumerate(ids):
        session = db.session.get_one(GameSession, session_id)
        handle.write("," if index else "")
        for chunk in export_chunks(session):
            handle.write(chunk)
        rounds += session.round_count
        db.session.expunge(session)
    handle.write(f'],"rule_sets":{dumps(rule_sets.list_rule_sets())}}}')
    return len(ids), rounds


#: a backup stays in memory up to this size while it is written for a download, then on disk
SPOOL_IN_MEMORY = 1024 * 1024
#: characters sent at a time
CHUNK = 64 * 1024


def backup_chunks() -> Iterator[str]:
    """Yield the request's group's backup (``write_backup``), written first to a temporary
    file (on disk past ``SPOOL_IN_MEMORY``) so a download holds no more than a chunk of it."""
    with tempfile.SpooledTemporaryFile(SPOOL_IN_MEMORY, mode="w+", encoding="utf-8") as spool:
        write_backup(spool)
        spool.seek(0)
        while chunk := spool.read(CHUNK):
            yield chunk


def read_backup(raw: IO[bytes]) -> dict[str, Any]:
    """Read a backup file: its fields, and each session as an export read a part at a time.

    Its ``sessions`` are ``reading.ExportFile`` objects: each session's fields, its rounds and
    entries counted and placed in the file, read again only when it is replayed.
    """
    stream = JsonStream(raw)
    if not stream.is_object():
        raise RestoreRefused(MalformedInput("invalid_json", "A backup is a JSON object."))
    data: dict[str, Any] = {}
    for key in stream.keys(""):
        if key == "sessions" and stream.is_list():
            data[key] = []
            for index in stream.items(key):
                try:
                    data[key].append(read_export_from(stream, raw))
                except Refusal as error:
                    raise RestoreRefused(error, index, None) from error
        else:
            data[key] = stream.value(key, FIELD_MOST)
    stream.finish()
    return data


class RestoreRefused(ValueError):
    """A backup that cannot be restored; nothing was stored."""

    def __init__(self, error: Refusal, index: int | None = None, source: Any = None):
        self.error = error
        self.index = index
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.index is not None:
            where = f"session {self.index + 1} of the backup (id {quote(self.source)}): "
        if self.error.round is not None:
            where += f"round {self.error.round}: "
        field_note = f" (field {self.error.field})" if self.error.field else ""
        return f"{where}{self.error.code}: {self.error.message}{field_note}"


@dataclass
class Restored:
    """A restore's sessions (in the backup's order) and those that could not keep their id."""

    sessions: list[GameSession]
    #: (the id in the backup, the id given instead) for each session whose id was taken
    renumbered: list[tuple[Any, int]] = field(default_factory=list)


def session_count() -> int:
    """Return how many sessions the group holds (the one a command or request addresses)."""
    mine = select(func.count(GameSession.id)).where(GameSession.group_id == current_group_id())
    return db.session.scalar(mine) or 0


def restore_file(raw: IO[bytes], *, force: bool = False) -> Restored:
    """Restore a backup from a file, each session read from it a part at a time (``restore``)."""
    try:
        data = read_backup(raw)
    except Refusal as error:
        raise RestoreRefused(error) from error
    return restore(data, force=force)


def restore(data: Any, *, force: bool = False) -> Restored:
    """Restore a backup: check and replay every session first, then store all in one transaction.

    A database that already holds sessions is refused (``database_not_empty``) unless ``force``,
    which adds the backup's sessions alongside them. Sessions keep their ids and times, so
    links to them still work; a session whose id is already taken gets a new one.
    """
    try:
        exports, people = backup_contents(data, force)
    except Refusal as error:
        raise RestoreRefused(error) from error
    replayed: list[Replayed] = []
    try:
        return restore_replayed(data, exports, people, replayed)
    finally:
        for one in replayed:
            one.close()


def restore_replayed(
    data: Any,
    exports: Sequence[Any],
    people: Sequence[tuple[str, datetime | None]],
    replayed: list[Replayed],
) -> Restored:
    """Replay every session of a backup into ``replayed``, then store them all or nothing."""
    for index, body in enumerate(exports):
        try:
            replayed.append(replay(body))
        except Refusal as error:
            fields = body.fields if isinstance(body, ExportParts) else body
            source = fields.get("id") if isinstance(fields, Mapping) else None
            raise RestoreRefused(error, index, source) from error
    try:
        saved_sets = rule_sets.checked_rule_sets(data.get("rule_sets"))
    except Refusal as error:
        raise RestoreRefused(error) from error
    try:
        known = restore_players(people)
        restored = store_restored(replayed, known)
        rule_sets.add_missing_rule_sets(saved_sets)
        commit()
    except IntegrityError as error:  # a flush before the commit met another writer
        db.session.rollback()
        raise RestoreRefused(
            Conflict(
                "lost_race", "Another change was saved at the same moment; try the restore again."
            )
        ) from error
    except Refusal as error:
        raise RestoreRefused(error) from error
    restored.renumbered = [
        (one.source["original_id"], session.id)
        for one, session in zip(replayed, restored.sessions, strict=True)
        if session.id != one.source["original_id"]
    ]
    return restored


def backup_contents(data: Any, force: bool) -> tuple[list[Any], list[tuple[str, datetime | None]]]:
    """Return a backup's session exports and players, refusing a non-empty database unforced."""
    data = mapping(data, "backup")
    version = data.get("refapp_backup")
    if isinstance(version, bool) or version != BACKUP_VERSION:
        raise MalformedInput(
            "missing_field" if version is None else "invalid_value",
            "This refapp reads backups of version {wanted}, not {value}.",
            "refapp_backup",
            wanted=BACKUP_VERSION,
            value=quote(version),
        )
    if data.get("sessions") is None:
        raise missing("sessions")
    exports = sequence(data["sessions"], "sessions")
    people = backup_players(data.get("players"))
    if not force and (count := session_count()):
        raise RuleViolation(
            "database_not_empty",
            "The database already holds {count} session(s); restore into an empty database, "
            "or use --force to add the backup's sessions alongside them.",
            None,
            count=count,
        )
    return exports, people


def store_restored(replayed: Sequence[Replayed], known: dict[str, Player]) -> Restored:
    """Store the restored sessions: those keeping their ids first, then those needing new ones.

    The new ids come after every kept one (PostgreSQL's id sequence is moved past them), so
    they can never collide.
    """
    ids = keepable_ids([one.source["original_id"] for one in replayed])
    sessions: list[GameSession | None] = [None] * len(replayed)
    for index, (one, kept) in enumerate(zip(replayed, ids, strict=True)):
        if kept is not None:
            sessions[index] = store(one, "backup", known, session_id=kept, restoring=True)
    if any(kept is not None for kept in ids):
        db.session.flush()
        advance_session_ids()
    for index, (one, kept) in enumerate(zip(replayed, ids, strict=True)):
        if kept is None:
            sessions[index] = store(one, "backup", known, restoring=True)
    db.session.flush()
    return Restored([session for session in sessions if session is not None])


def keepable_ids(wanted: Sequence[Any]) -> list[int | None]:
    """Return each backed-up session's id where it can be kept, else None (a new id).

    An id can be kept when it is a valid id that no stored session holds.
    """
    taken = set(db.session.scalars(select(GameSession.id)))
    kept: list[int | None] = []
    for session_id in wanted:
        usable = type(session_id) is int and 1 <= session_id <= ID_MAX
        if usable and session_id not in taken:
            taken.add(session_id)
            kept.append(session_id)
        else:
            kept.append(None)
    return kept


def advance_session_ids() -> None:
    """Move PostgreSQL's session id sequence to the highest id, after ids were given explicitly.

    SQLite always takes the next id after the highest, so there is nothing to move there.
    """
    if db.session.get_bind().dialect.name != "postgresql":
        return
    table = GameSession.__tablename__
    sequence_name = f"pg_get_serial_sequence('{table}', 'id')"
    db.session.execute(text(f"SELECT setval({sequence_name}, (SELECT max(id) FROM {table}))"))


def backup_players(raw: Any) -> list[tuple[str, datetime | None]]:
    """Return the backup's players (name, created_at), checked like seated names."""
    if raw is None:
        return []
    items = [
        mapping(item, f"players.{index}") for index, item in enumerate(sequence(raw, "players"))
    ]
    names = player_names([item.get("name") for item in items], at_one_table=False)
    return [
        (name, moment(item.get("created_at"), f"players.{index}.created_at"))
        for index, (name, item) in enumerate(zip(names, items, strict=True))
    ]


def restore_players(people: Sequence[tuple[str, datetime | None]]) -> dict[str, Player]:
    """Add the backup's players the database lacks (keeping their first-seen times)."""
    names, group = [name for name, _ in people], current_group_id()
    known = {
        player.name: player
        for player in db.session.scalars(
            select(Player).where(Player.name.in_(names), Player.group_id == group)
        )
    }
    for name, created in people:
        if name not in known:
            known[name] = Player(name=name, created_at=created or utcnow(), group_id=group)
            db.session.add(known[name])
    return known
