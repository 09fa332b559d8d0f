"""Session exports (JSON and CSV), imports that replay every round, and whole-database backups.

An import never trusts stored results: it seats the players, replays each round's input through
the game's rules with the state threaded (as ``services.record_round`` does) and stores the
session, its seats, rounds and audit trail in one transaction, or refuses the whole and stores
nothing.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from . import services
from .extensions import db
from .games import get_game
from .games.base import (
    N_,
    Game,
    Outcome,
    RuleViolation,
    Table,
    leaders,
    mapping,
    quote,
    sequence,
)
from .models import AuditEntry, GameSession, Player, Round, SessionPlayer, utcnow

FORMAT = "refapp-session"
VERSION = 1
BACKUP_VERSION = 1
FINISHERS = ("game", "table")
ACTION = re.compile(r"[a-z_]{1,20}")
#: spreadsheet formula starters a cell must not begin with (CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# -- export ------------------------------------------------------------------------------------


def export(session_id: Any) -> dict[str, Any]:
    """Return a stored session's export, or raise ``not_found``."""
    return export_session(services.load_session(session_id))


def export_session(session: GameSession) -> dict[str, Any]:
    """Return a loaded session as its export: what import needs, plus results for a reader."""
    players = session.players
    totals = services.totals_of(players, session.rounds)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": services.iso(utcnow()),
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "players": players,
        "rules": dict(session.rules),
        "setup": dict(session.setup or {}),
        "created_at": services.iso(session.created_at),
        "finished": session.finished,
        "finished_by": session.finished_by,
        "finished_at": services.iso(session.finished_at),
        "rounds": [services.round_dict(played) for played in session.rounds],
        "totals": totals,
        "winners": leaders(totals) if session.finished else [],
        "audit": services.audit_of(session),
    }


def deltas_csv(session: GameSession, round_word: str = "round", total_word: str = "total") -> str:
    """Return the CSV of per-round deltas: ``round,<players...>``, a row per round, a total row.

    The page's download words the first column's header and the total row in the reader's
    language (round_word, total_word); the names stay as written.
    """
    players = session.players
    out = io.StringIO()
    out.write("\ufeff")  # a byte order mark, so spreadsheet programs read the names as UTF-8
    writer = csv.writer(out)
    writer.writerow([cell(round_word), *(cell(name) for name in players)])
    for played in session.rounds:
        deltas = played.result["deltas"]
        writer.writerow([played.number, *(deltas.get(name, 0) for name in players)])
    totals = services.totals_of(players, session.rounds)
    writer.writerow([cell(total_word), *(totals[name] for name in players)])
    return out.getvalue()


def cell(text: str) -> str:
    """Return text safe for a spreadsheet cell: a leading formula character is quoted with '."""
    return "'" + text if text.startswith(FORMULA_START) else text


# -- import: check and replay, writing nothing --------------------------------------------------


@dataclass
class Replayed:
    """An export checked and replayed through the rules, ready to store."""

    game: Game
    name: str
    players: tuple[str, ...]
    rules: dict[str, Any]
    setup: dict[str, Any]
    initial: dict[str, Any]
    rounds: list[tuple[Outcome, datetime | None, datetime | None]]
    finished_by: str | None
    created_at: datetime | None
    finished_at: datetime | None
    audit: list[dict[str, Any]]
    source: dict[str, Any] = field(default_factory=dict)


def replay(body: Any) -> Replayed:
    """Check an export and replay its rounds; raise the first RuleViolation (with its round)."""
    body = mapping(body, "session")
    check_format(body)
    game = get_game(body.get("game"))
    names = services.player_names(body.get("players"))
    rules = game.resolve_rules(body.get("rules"))
    game.check_players(names, rules)
    setup = setup_of(game, body.get("setup"))
    seated, initial = game.start(names, rules, setup)
    title = services.session_name(body.get("name"))
    table = Table(tuple(seated), dict(rules))
    raw_rounds = body.get("rounds")
    if raw_rounds is None:
        raise missing("rounds")
    rounds, state, totals = [], dict(initial), dict.fromkeys(seated, 0)
    for index, raw in enumerate(sequence(raw_rounds, "rounds")):
        try:
            played = replay_round(game, table, state, totals, index, raw)
        except RuleViolation as error:
            error.round = index + 1
            raise
        rounds.append(played)
        state = played[0].state
        for name, delta in played[0].result["deltas"].items():
            totals[name] = totals.get(name, 0) + delta
    return Replayed(
        game=game,
        name=title,
        players=tuple(seated),
        rules=rules,
        setup=setup,
        initial=initial,
        rounds=rounds,
        finished_by=finisher(body, game.is_over(table, state, totals)),
        created_at=moment(body.get("created_at"), "created_at"),
        finished_at=moment(body.get("finished_at"), "finished_at"),
        audit=audit_of(body.get("audit")),
        source=source_of(body),
    )


def source_of(body: Mapping[str, Any]) -> dict[str, Any]:
    """Return where an export came from, for the import's audit entry (plain values only)."""
    original, exported = body.get("id"), body.get("exported_at")
    return {
        "original_id": original if type(original) is int else None,
        "exported_at": exported if isinstance(exported, str) and len(exported) <= 40 else None,
    }


def check_format(body: Mapping[str, Any]) -> None:
    """Refuse a body that is not a session export of a version this refapp reads."""
    if body.get("format") != FORMAT:
        raise RuleViolation(
            "missing_field" if body.get("format") is None else "invalid_value",
            "format must be {wanted} (a session export), not {value}.",
            "format",
            wanted=quote(FORMAT),
            value=quote(body.get("format")),
        )
    version = body.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise RuleViolation(
            "missing_field" if version is None else "invalid_value",
            "This refapp reads session exports of version {wanted}, not {value}.",
            "version",
            wanted=VERSION,
            value=quote(version),
        )


def setup_of(game: Game, raw: Any) -> dict[str, Any]:
    """Return the session's setup (e.g. Dalmuti's initial_draw), only the game's own keys."""
    if raw is None:
        return {}
    given = mapping(raw, "setup")
    for key in given:
        if key not in game.setup_keys:
            raise RuleViolation(
                "invalid_value",
                "{game} sessions have no setup {value}.",
                f"setup.{key}",
                game=game.title,
                value=quote(key),
            )
    return {key: given[key] for key in game.setup_keys if given.get(key) is not None}


def replay_round(
    game: Game, table: Table, state: Mapping[str, Any], totals: Mapping[str, int], index: int, raw
) -> tuple[Outcome, datetime | None, datetime | None]:
    """Check one exported round and play its input from the state before it."""
    where = f"rounds.{index}"
    entry = mapping(raw, where)
    number = entry.get("number")
    if number is not None and (isinstance(number, bool) or number != index + 1):
        raise RuleViolation(
            "invalid_value",
            "Rounds are numbered 1, 2, 3... in order; round {count} says {value}.",
            f"{where}.number",
            count=index + 1,
            value=quote(number),
        )
    given = entry.get("input")
    if given is None:
        raise missing(f"{where}.input")
    given = mapping(given, f"{where}.input")
    if game.is_over(table, state, totals):
        raise RuleViolation(
            "session_finished",
            "The game ended after round {last}; round {value} cannot follow it.",
            where,
            last=index,
            value=index + 1,
        )
    outcome = game.play(table, state, services.round_input(given))
    recorded = moment(entry.get("recorded_at"), f"{where}.recorded_at")
    corrected = moment(entry.get("corrected_at"), f"{where}.corrected_at")
    return outcome, recorded, corrected


def finisher(body: Mapping[str, Any], over: bool) -> str | None:
    """Return who ended the session: the table as exported, else the rules as replayed."""
    finished, by = body.get("finished", False), body.get("finished_by")
    if not isinstance(finished, bool):
        raise RuleViolation(
            "invalid_value",
            "finished must be true or false, not {value}.",
            "finished",
            value=quote(finished),
        )
    if (by is not None and by not in FINISHERS) or finished != (by is not None):
        raise RuleViolation(
            "invalid_value",
            "finished_by must be 'game' or 'table' for a finished session and null for a "
            "running one, not {value}.",
            "finished_by",
            value=quote(by),
        )
    if by == "table":
        return "table"
    if over:
        return "game"
    if by == "game":
        raise RuleViolation(
            "invalid_value",
            "The export says the game ended, but its rounds, replayed, do not end it.",
            "finished_by",
        )
    return None


def audit_of(raw: Any) -> list[dict[str, Any]]:
    """Return the exported audit entries, checked, oldest first (optional: [] when absent)."""
    if raw is None:
        return []
    entries = []
    for index, item in enumerate(sequence(raw, "audit")):
        where = f"audit.{index}"
        entry = mapping(item, where)
        action = entry.get("action")
        if not isinstance(action, str) or not ACTION.fullmatch(action):
            raise RuleViolation(
                "missing_field" if action is None else "invalid_value",
                "An audit entry's action is a snake_case word, not {value}.",
                f"{where}.action",
                value=quote(action),
            )
        number = entry.get("round")
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or number < 1
        ):
            raise RuleViolation(
                "invalid_value",
                "An audit entry's round is a round number or null, not {value}.",
                f"{where}.round",
                value=quote(number),
            )
        entries.append(
            {
                "at": moment(entry.get("at"), f"{where}.at"),
                "action": action,
                "round_number": number,
                "before": entry.get("before"),
                "after": entry.get("after"),
            }
        )
    return entries


def moment(raw: Any, where: str) -> datetime | None:
    """Return an ISO 8601 time as UTC (a time without a zone is taken as UTC), or None."""
    if raw is None:
        return None
    try:
        if not isinstance(raw, str) or len(raw) > 40:
            raise ValueError(raw)
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise RuleViolation(
            "invalid_value",
            "{where} must be an ISO 8601 time, not {value}.",
            where,
            where=where,
            value=quote(raw),
        ) from None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def missing(path: str) -> RuleViolation:
    """Return the error for a required field that is absent."""
    return RuleViolation("missing_field", "The field {path} is required.", path, path=path)


# -- import: write --------------------------------------------------------------------------------


def import_session(body: Any) -> GameSession:
    """Recreate a session from its export (replayed through the rules) in one transaction."""
    replayed = replay(body)
    session = store(replayed, "export", {})
    commit()
    return session


def store(replayed: Replayed, source: str, known: dict[str, Player]) -> GameSession:
    """Add a replayed session with its seats, rounds and audit trail (in the caller's transaction).

    ``known`` caches the players by name across the sessions of one restore.
    """
    now = utcnow()
    wanted = [name for name in replayed.players if name not in known]
    if wanted:
        known.update(
            (player.name, player)
            for player in db.session.scalars(select(Player).where(Player.name.in_(wanted)))
        )
    session = GameSession(
        game=replayed.game.slug,
        name=replayed.name,
        rules=replayed.rules,
        setup=replayed.setup,
        initial_state=replayed.initial,
        created_at=replayed.created_at or now,
        updated_at=now,
    )
    for seat, name in enumerate(replayed.players):
        if name not in known:
            known[name] = Player(name=name)
        player = known[name]
        session.seats.append(SessionPlayer(seat=seat, player=player))
    for number, (outcome, recorded, corrected) in enumerate(replayed.rounds, 1):
        session.rounds.append(
            Round(
                number=number,
                input=outcome.input,
                result=outcome.result,
                state=outcome.state,
                recorded_at=recorded or now,
                corrected_at=corrected,
            )
        )
    services.summarize(session)
    if replayed.finished_by:
        session.finished = True
        session.finished_by = replayed.finished_by
        session.finished_at = replayed.finished_at or now
    for entry in replayed.audit:
        session.audit.append(AuditEntry(**{**entry, "at": entry["at"] or now}))
    after = {"source": source, **replayed.source, "rounds": len(replayed.rounds)}
    session.audit.append(
        AuditEntry(at=now, action="import_session", round_number=None, before=None, after=after)
    )
    db.session.add(session)
    return session


def commit() -> None:
    """Commit the import; a player added by another request at the same moment is a retry."""
    services.commit(N_("Another change was saved at the same moment; try the import again."))


# -- whole-database backup and restore ------------------------------------------------------------


def backup() -> dict[str, Any]:
    """Return every player and every session's export, oldest session first."""
    sessions = db.session.scalars(
        select(GameSession)
        .options(selectinload(GameSession.rounds))
        .order_by(GameSession.created_at, GameSession.id)
    ).all()
    players = db.session.scalars(select(Player).order_by(Player.id))
    return {
        "refapp_backup": BACKUP_VERSION,
        "created_at": services.iso(utcnow()),
        "players": [
            {"name": player.name, "created_at": services.iso(player.created_at)}
            for player in players
        ],
        "sessions": [export_session(session) for session in sessions],
    }


class RestoreRefused(ValueError):
    """A backup that cannot be restored; nothing was stored."""

    def __init__(self, error: RuleViolation, index: int | None = None, source: Any = None):
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


def session_count() -> int:
    """Return how many sessions the database holds."""
    return db.session.scalar(select(func.count(GameSession.id))) or 0


def restore(data: Any, *, force: bool = False) -> list[GameSession]:
    """Restore a backup: check and replay every session first, then store all in one transaction.

    A database that already holds sessions is refused (``database_not_empty``) unless ``force``,
    which adds the backup's sessions alongside them. Sessions get new ids, in the backup's order.
    """
    try:
        data = mapping(data, "backup")
        version = data.get("refapp_backup")
        if isinstance(version, bool) or version != BACKUP_VERSION:
            raise RuleViolation(
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
    except RuleViolation as error:
        raise RestoreRefused(error) from error
    replayed = []
    for index, body in enumerate(exports):
        try:
            replayed.append(replay(body))
        except RuleViolation as error:
            source = body.get("id") if isinstance(body, Mapping) else None
            raise RestoreRefused(error, index, source) from error
    try:
        known = restore_players(people)
        sessions = [store(one, "backup", known) for one in replayed]
        commit()
    except IntegrityError as error:  # a flush before the commit met another writer
        db.session.rollback()
        raise RestoreRefused(
            RuleViolation(
                "stale_round", "Another change was saved at the same moment; try the restore again."
            )
        ) from error
    except RuleViolation as error:
        raise RestoreRefused(error) from error
    return sessions


def backup_players(raw: Any) -> list[tuple[str, datetime | None]]:
    """Return the backup's players (name, created_at), checked like seated names."""
    if raw is None:
        return []
    items = [
        mapping(item, f"players.{index}") for index, item in enumerate(sequence(raw, "players"))
    ]
    names = services.player_names([item.get("name") for item in items])
    return [
        (name, moment(item.get("created_at"), f"players.{index}.created_at"))
        for index, (name, item) in enumerate(zip(names, items, strict=True))
    ]


def restore_players(people: Sequence[tuple[str, datetime | None]]) -> dict[str, Player]:
    """Add the backup's players the database lacks (keeping their first-seen times)."""
    names = [name for name, _ in people]
    known = {
        player.name: player
        for player in db.session.scalars(select(Player).where(Player.name.in_(names)))
    }
    for name, created in people:
        if name not in known:
            known[name] = Player(name=name, created_at=created or utcnow())
            db.session.add(known[name])
    return known
