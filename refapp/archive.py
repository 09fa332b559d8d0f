"""Session exports (JSON and CSV), imports that replay every round, and whole-database backups.

An import never trusts stored results: it seats the players, replays each round's input through
the game's rules with the state threaded (as ``services.record_round`` does) and stores the
session, its seats, rounds and audit trail in one transaction, or refuses the whole and stores
nothing. Results, totals and winners the export carries for a reader must agree with the
replay, and its audit trail must be one the app could have written.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, text
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
#: every action the app writes into an audit trail
ACTIONS = (
    "create_session",
    "record_round",
    "replace_round",
    "delete_round",
    "finish_session",
    "rename_player",
    "import_session",
)
#: the actions that concern no single round (their ``round`` is null)
ROUNDLESS = ("create_session", "finish_session", "rename_player", "import_session")
#: the most audit entries an import may carry: ten changes per round of the largest session
AUDIT_MAX = 10 * services.MAX_ROUNDS
#: spreadsheet formula starters a cell must not begin with (CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: what a spreadsheet may split a cell at: a locale's list separator (, or ;), a tab, a pipe
CELL_SEPARATOR = re.compile(r"[,;\t|]")
#: a UTF-16 surrogate standing alone: JSON can write it (\ud800), UTF-8 cannot
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: the largest number an import may hold: every database and JSON reader keeps it exact
NUMBER_MAX = 2**53
#: how deep an import may nest objects and lists (a round nests 6 deep; JSON writers recurse)
DEPTH_MAX = 40
#: imported times lie between this and now (plus a clock's skew between two machines)
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(minutes=5)
#: an upper bound on one round's bytes in an export: measured 26,347 bytes (compact JSON, as the
#: export is sent) for a Mighty hand of five 20-letter accented names with an 11-bid auction and
#: 10 tricks of 5 plays that each carry a suit and a call, its result with the tricks and 15
#: sentences of explanation, its record_round audit entry and one correction (replace_round,
#: the input twice); a typical round without a correction is half of that
ROUND_BYTES = 28 * 1024
#: the import's body limit: the largest session the app allows (services.MAX_ROUNDS rounds of
#: ROUND_BYTES) plus 1 MiB for the rest (players, rules, setup, the session's other entries):
#: 287,768,576 bytes, about 275 MiB; the app-wide MAX_BODY stays for every other request
IMPORT_MAX_BYTES = services.MAX_ROUNDS * ROUND_BYTES + 1024 * 1024


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
        "updated_at": services.iso(session.updated_at),
        "session_version": session.version,
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
    language (round_word, total_word); the names stay as written. Every text cell is quoted, so
    a separator inside a name never splits it, whatever separator the spreadsheet expects.
    """
    players = session.players
    out = io.StringIO()
    out.write("\ufeff")  # a byte order mark, so spreadsheet programs read the names as UTF-8
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([cell(round_word), *(cell(name) for name in players)])
    for played in session.rounds:
        deltas = played.result["deltas"]
        writer.writerow([played.number, *(deltas.get(name, 0) for name in players)])
    totals = services.totals_of(players, session.rounds)
    writer.writerow([cell(total_word), *(totals[name] for name in players)])
    return out.getvalue()


def cell(text: str) -> str:
    """Return text safe for a spreadsheet cell: quoted with ' if a formula could start in it.

    A formula may start at the cell's beginning or after any separator a spreadsheet might split
    at (``x;=1+1`` in a semicolon locale), spaces before it ignored.
    """
    parts = CELL_SEPARATOR.split(text)
    risky = any(part.lstrip().startswith(FORMULA_START) for part in parts)
    return "'" + text if risky else text


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
    updated_at: datetime | None = None
    #: the session's ``version`` when exported (None when absent or out of range)
    version: int | None = None


def replay(body: Any) -> Replayed:
    """Check an export and replay its rounds; raise the first RuleViolation (with its round)."""
    body = mapping(body, "session")
    check_format(body)
    raw_rounds = rounds_of(body)
    check_values(body)
    game = get_game(body.get("game"))
    names = services.player_names(body.get("players"))
    rules = game.resolve_rules(body.get("rules"))
    game.check_players(names, rules)
    setup = setup_of(game, body.get("setup"))
    seated, initial = game.start(names, rules, setup)
    title = services.session_name(body.get("name"))
    table = Table(tuple(seated), dict(rules))
    rounds, state, totals = [], dict(initial), dict.fromkeys(seated, 0)
    for index, raw in enumerate(raw_rounds):
        try:
            played = replay_round(game, table, state, totals, index, raw)
        except RuleViolation as error:
            error.round = index + 1
            raise
        rounds.append(played)
        state = played[0].state
        for name, delta in played[0].result["deltas"].items():
            totals[name] = totals.get(name, 0) + delta
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
    )


def rounds_of(body: Mapping[str, Any]) -> list[Any]:
    """Return the export's rounds, refusing more than a session may hold before any is read."""
    raw = body.get("rounds")
    if raw is None:
        raise missing("rounds")
    rounds = sequence(raw, "rounds")
    if len(rounds) > services.MAX_ROUNDS:
        raise RuleViolation(
            "too_many_rounds",
            "A session holds at most {most} rounds; this export has {value}.",
            "rounds",
            most=services.MAX_ROUNDS,
            value=len(rounds),
        )
    return rounds


def version_of(raw: Any) -> int | None:
    """Return the exported session's version, or None when it is absent or no stored version."""
    return raw if type(raw) is int and 1 <= raw <= services.ID_MAX else None


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


def check_values(body: Any) -> None:
    """Refuse anywhere in an export what storage and backups cannot hold faithfully.

    Text must be valid Unicode (no lone surrogate, in keys or values), numbers finite and at
    most NUMBER_MAX in size, nesting at most DEPTH_MAX deep. The walk uses its own stack, so no
    nesting can exhaust Python's; it reports the first bad value in document order.
    """
    stack: list[tuple[Any, str, int]] = [(body, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > DEPTH_MAX:
            raise too_deep(where)
        if isinstance(value, dict):
            for key in value:
                check_text(key, where)
            items = [(item, joined(where, key), depth + 1) for key, item in value.items()]
            stack.extend(reversed(items))
        elif isinstance(value, list):
            items = [(item, joined(where, index), depth + 1) for index, item in enumerate(value)]
            stack.extend(reversed(items))
        elif isinstance(value, str):
            check_text(value, where)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            check_number(value, where)


def joined(where: str, key: Any) -> str:
    """Return the field path of a key or index inside where."""
    return f"{where}.{key}" if where else str(key)


def check_text(value: str, where: str) -> None:
    """Refuse text holding a lone surrogate (it cannot be written as UTF-8)."""
    if LONE_SURROGATE.search(value):
        raise RuleViolation(
            "invalid_value",
            "Text in {where} is not valid Unicode (it holds a lone surrogate): {value}.",
            where or None,
            where=where or "the export",
            value=excerpt(value),
        )


def check_number(value: int | float, where: str) -> None:
    """Refuse NaN, infinities and numbers too large to keep exactly."""
    if not math.isfinite(value) or abs(value) > NUMBER_MAX:
        raise RuleViolation(
            "invalid_value",
            "{where} must be a finite number of at most {most} in size, not {value}.",
            where or None,
            where=where or "the export",
            most=NUMBER_MAX,
            value=excerpt(value),
        )


def too_deep(where: str) -> RuleViolation:
    """Return the refusal of values nested deeper than any export nests them."""
    return RuleViolation(
        "invalid_value",
        "{where} is nested more than {most} levels deep.",
        where or None,
        where=where or "the export",
        most=DEPTH_MAX,
    )


def excerpt(value: Any) -> str:
    """Quote a value for a message, cut short when it is long."""
    shown = quote(value)
    return shown if len(shown) <= 60 else shown[:60] + "..."


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
    """Check one exported round, play its input from the state before it, compare its result."""
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
    if entry.get("result") is not None:
        result = mapping(entry["result"], f"{where}.result")
        compare_scores(result.get("deltas"), outcome.result["deltas"], f"{where}.result.deltas")
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


# -- import: what the export tells a reader must agree with the replay ---------------------------


def check_summary(body: Mapping[str, Any], totals: Mapping[str, int], by: str | None) -> None:
    """Refuse totals or winners (each only when given) that differ from the replay's."""
    if body.get("totals") is not None:
        compare_scores(body["totals"], totals, "totals")
    if body.get("winners") is not None:
        compare_winners(body["winners"], leaders(totals) if by else [], "winners")


def compare_scores(given: Any, wanted: Mapping[str, int], where: str) -> None:
    """Refuse points per player (totals, a round's deltas) that differ from the replay's."""
    given = mapping(given, where)
    for name in [*wanted, *(name for name in given if name not in wanted)]:
        value = given.get(name)
        if isinstance(value, bool) or value != wanted.get(name):
            raise disagrees(f"{where}.{name}", value, wanted.get(name))


def compare_winners(given: Any, wanted: list[str], where: str) -> None:
    """Refuse a list of winners that names other players than the replay's (in any order)."""
    names = sequence(given, where)
    if not all(isinstance(name, str) for name in names) or sorted(names) != sorted(wanted):
        raise disagrees(where, names, wanted)


def disagrees(where: str, given: Any, wanted: Any) -> RuleViolation:
    """Return the refusal of a value in the export that the replay contradicts."""
    return RuleViolation(
        "import_disagrees",
        "The export says {where} is {given}, but its rounds, replayed, give {wanted}.",
        where,
        where=where,
        given=excerpt(given),
        wanted=excerpt(wanted),
    )


# -- import: the audit trail ---------------------------------------------------------------------


def audit_of(raw: Any) -> list[dict[str, Any]]:
    """Return the exported audit entries, each checked alone, oldest first ([] when absent)."""
    if raw is None:
        return []
    items = sequence(raw, "audit")
    if len(items) > AUDIT_MAX:
        raise RuleViolation(
            "invalid_value",
            "An audit trail holds at most {most} entries; this export has {value}.",
            "audit",
            most=AUDIT_MAX,
            value=len(items),
        )
    return [audit_entry(item, f"audit.{index}") for index, item in enumerate(items)]


def audit_entry(item: Any, where: str) -> dict[str, Any]:
    """Return one exported audit entry checked: a known action, a round in range, a time."""
    entry = mapping(item, where)
    action = entry.get("action")
    if action not in ACTIONS:
        raise RuleViolation(
            "missing_field" if action is None else "invalid_value",
            "An audit entry's action is one of {known}, not {value}.",
            f"{where}.action",
            known=", ".join(ACTIONS),
            value=excerpt(action),
        )
    number = entry.get("round")
    if number is not None and (type(number) is not int or not 1 <= number <= services.MAX_ROUNDS):
        raise RuleViolation(
            "invalid_value",
            "An audit entry's round is a round number or null, not {value}.",
            f"{where}.round",
            value=excerpt(number),
        )
    return {
        "at": moment(entry.get("at"), f"{where}.at"),
        "action": action,
        "round_number": number,
        "before": entry.get("before"),
        "after": entry.get("after"),
    }


def check_trail(
    entries: Sequence[dict[str, Any]], count: int, totals: Mapping[str, int], by: str | None
) -> None:
    """Refuse a trail the app could not have written for these rounds.

    The round count is followed from the last import_session entry (what came before it was
    checked by that import) or from the start; it must end at the rounds imported. Every
    finish_session entry must name the leaders of its own totals.
    """
    if not entries:
        return
    start = 0
    for index, entry in enumerate(entries):
        where = f"audit.{index}"
        if entry["action"] == "import_session":
            imported_rounds(entry, where)
            start = index + 1
        elif entry["action"] == "finish_session":
            finish_totals(entry, where)
    count_from = imported_rounds(entries[start - 1], f"audit.{start - 1}") if start else 0
    finished = follow_rounds(entries, start, count_from)
    if finished is not None and by != "table":
        raise RuleViolation(
            "import_disagrees",
            "Audit entry {entry} says the table ended the session, but the export says "
            "finished_by is {value}.",
            "finished_by",
            entry=f"audit.{finished}",
            value=quote(by),
        )
    trail_count = trail_rounds(entries, start, count_from)
    if trail_count != count:
        raise RuleViolation(
            "import_disagrees",
            "The audit trail ends with {trail} round(s), but the export has {count}.",
            "audit",
            trail=trail_count,
            count=count,
        )
    if by == "table":
        check_last_finish(entries, totals)


def imported_rounds(entry: Mapping[str, Any], where: str) -> int:
    """Return how many rounds an import_session entry says were imported."""
    after = entry["after"] if isinstance(entry["after"], Mapping) else {}
    rounds = after.get("rounds")
    if type(rounds) is not int or not 0 <= rounds <= services.MAX_ROUNDS:
        raise RuleViolation(
            "invalid_value",
            "An import_session audit entry says how many rounds were imported (0 to {most}), "
            "not {value}.",
            f"{where}.after.rounds",
            most=services.MAX_ROUNDS,
            value=excerpt(rounds),
        )
    return rounds


def follow_rounds(entries: Sequence[dict[str, Any]], start: int, count: int) -> int | None:
    """Follow the round count along the trail from ``start``; return the table's finish entry.

    Each entry's round must have existed when it was written: record_round n is the next
    round, replace_round n an existing one, delete_round n the last one; the others name none.
    After the table's finish_session no round is recorded or undone.
    """
    finished = None
    for index in range(start, len(entries)):
        action, number = entries[index]["action"], entries[index]["round_number"]
        where = f"audit.{index}"
        if (action == "create_session" and index != 0) or (
            finished is not None and action in ("record_round", "delete_round", "finish_session")
        ):
            raise out_of_place(action, where)
        if action in ROUNDLESS:
            if number is not None:
                raise RuleViolation(
                    "invalid_value",
                    "A {action} audit entry names no round, not {value}.",
                    f"{where}.round",
                    action=action,
                    value=quote(number),
                )
            finished = index if action == "finish_session" else finished
            continue
        if not round_existed(action, number, count):
            raise RuleViolation(
                "invalid_value",
                "A {action} audit entry cannot name round {value} when the session had "
                "{count} round(s).",
                f"{where}.round",
                action=action,
                value=quote(number),
                count=count,
            )
        count += {"record_round": 1, "delete_round": -1}.get(action, 0)
    return finished


def round_existed(action: str, number: int | None, count: int) -> bool:
    """Return True if a round entry fits a session of count rounds: record_round the next one,
    replace_round an existing one, delete_round the last one."""
    if number is None:
        return False
    if action == "record_round":
        return number == count + 1
    if action == "delete_round":
        return number == count
    return number <= count


def trail_rounds(entries: Sequence[dict[str, Any]], start: int, count: int) -> int:
    """Return the round count the trail ends with (its entries already checked)."""
    for entry in entries[start:]:
        count += {"record_round": 1, "delete_round": -1}.get(entry["action"], 0)
    return count


def out_of_place(action: str, where: str) -> RuleViolation:
    """Return the refusal of an entry the app never writes at that point of a trail."""
    return RuleViolation(
        "invalid_value",
        "A {action} audit entry cannot come at this point of the trail: a session is created "
        "once, first, and the table's finish ends its rounds.",
        f"{where}.action",
        action=action,
    )


def finish_totals(entry: Mapping[str, Any], where: str) -> dict[str, int]:
    """Return a finish_session entry's totals, refusing winners that are not their leaders."""
    after = mapping(entry["after"], f"{where}.after")
    totals = mapping(after.get("totals"), f"{where}.after.totals")
    for name, value in totals.items():
        if type(value) is not int:
            raise RuleViolation(
                "invalid_value",
                "A total is a whole number, not {value}.",
                f"{where}.after.totals.{name}",
                value=excerpt(value),
            )
    winners = sequence(after.get("winners"), f"{where}.after.winners")
    wanted = leaders(totals)
    if not all(isinstance(name, str) for name in winners) or sorted(winners) != sorted(wanted):
        raise RuleViolation(
            "import_disagrees",
            "The export says {where} is {given}, but the entry's own totals make {wanted} the "
            "winners.",
            f"{where}.after.winners",
            where=f"{where}.after.winners",
            given=excerpt(winners),
            wanted=excerpt(wanted),
        )
    return dict(totals)


def check_last_finish(entries: Sequence[dict[str, Any]], totals: Mapping[str, int]) -> None:
    """Refuse a last finish_session whose totals differ from the replay's, if nothing since
    (a correction, a rename) may explain the difference."""
    for index in range(len(entries) - 1, -1, -1):
        action = entries[index]["action"]
        if action in ("replace_round", "rename_player"):
            return
        if action == "finish_session":
            where = f"audit.{index}"
            compare_scores(finish_totals(entries[index], where), totals, f"{where}.after.totals")
            return


def moment(raw: Any, where: str) -> datetime | None:
    """Return an ISO 8601 time as UTC (a time without a zone is taken as UTC), or None.

    The time must lie between EARLIEST and now (with CLOCK_SKEW): a time near year 1 or 9999
    cannot even be converted to UTC, and no session happened before 1970 or in the future.
    """
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
            value=excerpt(raw),
        ) from None
    try:
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00: the year before 1 in UTC
        raise out_of_range(raw, where) from None
    if not EARLIEST <= value <= utcnow() + CLOCK_SKEW:
        raise out_of_range(raw, where)
    return value


def out_of_range(raw: str, where: str) -> RuleViolation:
    """Return the refusal of a time before 1970 or in the future."""
    return RuleViolation(
        "invalid_value",
        "{where} must be a time between {earliest} and now, not {value}.",
        where,
        where=where,
        earliest=EARLIEST.date().isoformat(),
        value=quote(raw),
    )


def missing(path: str) -> RuleViolation:
    """Return the error for a required field that is absent."""
    return RuleViolation("missing_field", "The field {path} is required.", path, path=path)


# -- import: write --------------------------------------------------------------------------------


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
    """Return a restored session's version: past the exported one (else past one per entry of
    its trail), so a phone's cached version never matches the restored session by chance."""
    if replayed.version is not None:
        return min(replayed.version + 1, services.ID_MAX)
    return len(replayed.audit) + 2


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


@dataclass
class Restored:
    """A restore's sessions (in the backup's order) and those that could not keep their id."""

    sessions: list[GameSession]
    #: (the id in the backup, the id given instead) for each session whose id was taken
    renumbered: list[tuple[Any, int]] = field(default_factory=list)


def session_count() -> int:
    """Return how many sessions the database holds."""
    return db.session.scalar(select(func.count(GameSession.id))) or 0


def restore(data: Any, *, force: bool = False) -> Restored:
    """Restore a backup: check and replay every session first, then store all in one transaction.

    A database that already holds sessions is refused (``database_not_empty``) unless ``force``,
    which adds the backup's sessions alongside them. Sessions keep their ids and times, so
    links to them still work; a session whose id is already taken gets a new one.
    """
    try:
        exports, people = backup_contents(data, force)
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
        restored = store_restored(replayed, known)
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
    """Return each backed-up session's id where it can be kept (a valid id nobody holds), else
    None (a new id)."""
    taken = set(db.session.scalars(select(GameSession.id)))
    kept: list[int | None] = []
    for session_id in wanted:
        usable = type(session_id) is int and 1 <= session_id <= services.ID_MAX
        if usable and session_id not in taken:
            taken.add(session_id)
            kept.append(session_id)
        else:
            kept.append(None)
    return kept


def advance_session_ids() -> None:
    """Move PostgreSQL's session id sequence to the highest id, after ids were given explicitly
    (SQLite always takes the next id after the highest)."""
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
