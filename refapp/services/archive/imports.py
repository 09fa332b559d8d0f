"""Imports: an export checked and replayed through the rules, then stored in one transaction.

An import never trusts stored results: it seats the players, replays each round's input through
the game's rules with the state threaded (as ``rounds.record_round`` does) and stores the
session, its seats, rounds and audit trail in one transaction, or refuses the whole and stores
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ...extensions import db
from ...games import game as rules_game
from ...games import get_game
from ...games.errors import RuleViolation, quote
from ...games.game import Game, Outcome, Table, running_totals
from ...games.inputs import mapping, sequence
from ...models import AuditEntry, GameSession, Player, Round, SessionPlayer, utcnow
from .. import values, writes
from ..rounds import round_input
from ..sessions import summarize
from ..values import ID_MAX, player_names, session_name
from .checks import (
    check_format,
    check_summary,
    check_values,
    compare_scores,
    finisher,
    missing,
    moment,
)
from .trail import audit_of, check_trail

#: an upper bound on one round's bytes in an export: measured 26,347 bytes (compact JSON, as the
#: export is sent) for a Mighty hand of five 20-letter accented names with an 11-bid auction and
#: 10 tricks of 5 plays that each carry a suit and a call, its result with the tricks and 15
#: sentences of explanation, its record_round audit entry and one correction (replace_round,
#: the input twice); a typical round without a correction is half of that
ROUND_BYTES = 28 * 1024
#: the import's body limit: the largest session the app allows (values.MAX_ROUNDS rounds of
#: ROUND_BYTES) plus 1 MiB for the rest (players, rules, setup, the session's other entries):
#: 287,768,576 bytes, about 275 MiB; the app-wide MAX_BODY stays for every other request
IMPORT_MAX_BYTES = values.MAX_ROUNDS * ROUND_BYTES + 1024 * 1024


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
    updated_at: datetime | None = None
    #: the session's ``version`` when exported (None when absent or out of range)
    version: int | None = None
    #: the preset the exported rules started from (None: made before presets)
    preset: str | None = None


def replay(body: Any) -> Replayed:
    """Check an export and replay its rounds; raise the first RuleViolation (with its round)."""
    body = mapping(body, "session")
    check_format(body)
    raw_rounds = rounds_of(body)
    check_values(body)
    game = get_game(body.get("game"))
    names = player_names(body.get("players"))
    chosen = game.preset(body.get("preset")) if body.get("preset") is not None else None
    rules = game.resolve_rules(body.get("rules"))
    game.check_players(names, rules)
    setup = setup_of(game, body.get("setup"))
    seated, initial = game.start(names, rules, setup)
    title = session_name(body.get("name"))
    table = Table(tuple(seated), dict(rules))
    rounds = replay_rounds(game, table, initial, raw_rounds)
    state = rounds[-1][0].state if rounds else dict(initial)
    totals = running_totals(
        dict.fromkeys(seated, 0), [outcome.result["deltas"] for outcome, *_ in rounds]
    )
    finished_by = finisher(body, game.is_over(table, state, totals))
    check_summary(body, totals, finished_by)
    audit = audit_of(body.get("audit"))
    check_trail(audit, len(rounds), totals, finished_by)
    return Replayed(
        game=game,
        name=title,
        players=tuple(seated),
        rules=rules,
        setup=setup,
        initial=initial,
        rounds=rounds,
        finished_by=finished_by,
        created_at=moment(body.get("created_at"), "created_at"),
        finished_at=moment(body.get("finished_at"), "finished_at"),
        audit=audit,
        source=source_of(body),
        updated_at=moment(body.get("updated_at"), "updated_at"),
        version=version_of(body.get("session_version")),
        preset=chosen.key if chosen else None,
    )


def rounds_of(body: Mapping[str, Any]) -> list[Any]:
    """Return the export's rounds, refusing more than a session may hold before any is read."""
    raw = body.get("rounds")
    if raw is None:
        raise missing("rounds")
    rounds = sequence(raw, "rounds")
    if len(rounds) > values.MAX_ROUNDS:
        raise RuleViolation(
            "too_many_rounds",
            "A session holds at most {most} rounds; this export has {value}.",
            "rounds",
            most=values.MAX_ROUNDS,
            value=len(rounds),
        )
    return rounds


def version_of(raw: Any) -> int | None:
    """Return the exported session's version, or None when it is absent or no stored version."""
    return raw if type(raw) is int and 1 <= raw <= ID_MAX else None


def source_of(body: Mapping[str, Any]) -> dict[str, Any]:
    """Return where an export came from, for the import's audit entry (plain values only)."""
    original, exported = body.get("id"), body.get("exported_at")
    return {
        "original_id": original if type(original) is int else None,
        "exported_at": exported if isinstance(exported, str) and len(exported) <= 40 else None,
    }


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


def replay_rounds(
    game: Game, table: Table, initial: Mapping[str, Any], raw_rounds: list[Any]
) -> list[tuple[Outcome, datetime | None, datetime | None]]:
    """Replay the exported rounds through the rules (games.game.replay), checking each entry.

    Each entry's shape is checked as the replay pulls its input, so refusals come in round
    order; every refusal carries its round.
    """
    entries: list[Mapping[str, Any]] = []

    def inputs():
        for index, raw in enumerate(raw_rounds):
            entry, given = round_entry(index, raw)
            entries.append(entry)
            yield given

    rounds = []
    try:
        for index, outcome in enumerate(rules_game.replay(game, table, initial, inputs())):
            rounds.append(checked_round(entries[index], index, outcome))
    except RuleViolation as error:
        if error.round is None:
            error.round = len(entries) or 1
        raise
    return rounds


def round_entry(index: int, raw: Any) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """Check one exported round's shape; return it and its input as the rules read it."""
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
    return entry, round_input(mapping(given, f"{where}.input"))


def checked_round(
    entry: Mapping[str, Any], index: int, outcome: Outcome
) -> tuple[Outcome, datetime | None, datetime | None]:
    """Compare a replayed round with the result its export claims; return it with its times."""
    where = f"rounds.{index}"
    if entry.get("result") is not None:
        result = mapping(entry["result"], f"{where}.result")
        compare_scores(result.get("deltas"), outcome.result["deltas"], f"{where}.result.deltas")
    recorded = moment(entry.get("recorded_at"), f"{where}.recorded_at")
    corrected = moment(entry.get("corrected_at"), f"{where}.corrected_at")
    return outcome, recorded, corrected


def import_session(body: Any) -> GameSession:
    """Recreate a session from its export (replayed through the rules) in one transaction.

    The copy gets a new id; its times are the export's, but for its last change (now).
    """
    replayed = replay(body)
    session = store(replayed, "export", {})
    commit()
    return session


def store(
    replayed: Replayed,
    source: str,
    known: dict[str, Player],
    *,
    session_id: int | None = None,
    restoring: bool = False,
) -> GameSession:
    """Add a replayed session with its seats, rounds and audit trail (in the caller's transaction).

    ``known`` caches the players by name across the sessions of one restore. A restore passes
    the session's own ``session_id`` (None: a new one) and keeps its last change's time and
    moves its version on (``restoring``); an import is a copy, changed now, at version 1.
    """
    now = utcnow()
    wanted = [name for name in replayed.players if name not in known]
    if wanted:
        known.update(
            (player.name, player)
            for player in db.session.scalars(select(Player).where(Player.name.in_(wanted)))
        )
    session = GameSession(
        id=session_id,
        game=replayed.game.slug,
        name=replayed.name,
        rules=replayed.rules,
        preset=replayed.preset,
        setup=replayed.setup,
        initial_state=replayed.initial,
        created_at=replayed.created_at or now,
        updated_at=last_change(replayed) if restoring else now,
        version=restored_version(replayed) if restoring else 1,
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
    summarize(session)
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


def last_change(replayed: Replayed) -> datetime:
    """Return an exported session's last change: as exported, else its latest time known."""
    if replayed.updated_at:
        return replayed.updated_at
    times = [replayed.created_at, replayed.finished_at]
    for _, recorded, corrected in replayed.rounds:
        times += [recorded, corrected]
    times += [entry["at"] for entry in replayed.audit]
    return max((time for time in times if time is not None), default=utcnow())


def restored_version(replayed: Replayed) -> int:
    """Return a restored session's version: past the exported one, else past its trail's length.

    A phone's cached version then never matches the restored session by chance.
    """
    if replayed.version is not None:
        return min(replayed.version + 1, ID_MAX)
    return len(replayed.audit) + 2


def commit() -> None:
    """Commit the import; a player added by another request at the same moment is a retry."""
    writes.commit(
        RuleViolation(
            "stale_round", "Another change was saved at the same moment; try the import again."
        )
    )
