"""Imports: an export checked and replayed through the rules, then stored in one transaction.

An import never trusts stored results: it seats the players, replays each round's input through
the game's rules with the state threaded (as ``rounds.record_round`` does) and stores the
session, its seats, rounds and audit trail in one transaction, or refuses the whole and stores
nothing. It reads its export a part at a time (``reading``) and keeps what it makes in spools
(``staging``) until it stores them a batch at a time, so even the largest session's import holds
only a small part of it in memory (docs/deployment.md has the figures).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import IO, Any

from ...extensions import db, unmapped
from ...games import game as rules_game
from ...games import get_game
from ...games.errors import MalformedInput, Refusal, quote
from ...games.game import AnyGame, AnyOutcome, Table
from ...games.inputs import mapping, sequence
from ...models import GameSession
from .. import limits, stored_rounds
from ..location import location_text
from ..round_inputs import round_input
from ..values import ID_MAX, player_names, session_name
from . import apart
from .checks import check_format, check_summary, compare_scores, finisher, missing, moment
from .reading import LISTED, ExportParts, export_data, read_export
from .replayed import Replayed, ReplayedRounds
from .staging import Spool, pack
from .storing import commit, store
from .trail import check_trail
from .trail_steps import Start
from .write_keys import read_keys

#: the import's body limit (limits.EXPORT_MAX_BYTES: the largest session's export, ~275 MiB);
#: the app-wide MAX_BODY stays for every other request
ROUND_BYTES = limits.ROUND_BYTES
IMPORT_MAX_BYTES = limits.EXPORT_MAX_BYTES


def replay(body: ExportParts | Any) -> Replayed:
    """Check an export and replay its rounds; raise the first Refusal (with its round).

    ``body`` is an export read from a file (``reading.read_export``) or held in memory.
    """
    parts = body if isinstance(body, ExportParts) else export_data(mapping(body, "session"))
    given = parts.fields
    check_format(given)
    listed(given, "rounds", required=True)
    game = get_game(given.get("game"))
    names = player_names(given.get("players"))
    chosen = game.preset(given.get("preset")) if given.get("preset") is not None else None
    rules = game.resolve_rules(given.get("rules"), stored=True)
    game.check_players(names, rules)
    setup = setup_of(game, given.get("setup"))
    seated, initial = game.start(names, rules, setup)
    title = session_name(given.get("name"))
    place = location_text(given.get("location"))
    table = Table(tuple(seated), dict(rules))
    times = {
        key: moment(given.get(key), key) for key in ("created_at", "finished_at", "updated_at")
    }
    rounds = replay_rounds(game, table, initial, parts.rounds())
    trail = None
    try:
        finished_by = finisher(given, game.is_over(table, rounds.state, rounds.totals))
        check_summary(given, rounds.totals, finished_by)
        listed(given, "audit", required=False)
        start = Start(game, table, setup, initial, rounds.inputs, rounds.states)
        trail = check_trail(parts.entries, start, rounds.totals, finished_by)
        listed(given, "keys", required=False)
        keys = read_keys(parts.keys(), rounds.now)
        rounds.inputs.clear()  # only the trail compares them: a restore keeps many replayed
        rounds.states.clear()
        most = limits.session_max_bytes(game)
        refusal = limits.full(trail.count + 1, rounds.size + trail.size, most)
        if refusal is not None:
            refusal.field = "audit" if trail.count + 1 > limits.AUDIT_MAX else None
            raise refusal
    except BaseException:
        rounds.rows.close()
        if trail is not None:
            trail.rows.close()
        raise
    return Replayed(
        game=game,
        name=title,
        players=tuple(seated),
        rules=rules,
        setup=setup,
        initial=initial,
        rounds=rounds,
        finished_by=finished_by,
        created_at=times["created_at"],
        finished_at=times["finished_at"],
        trail=trail,
        source=source_of(given),
        updated_at=times["updated_at"],
        version=version_of(given.get("session_version")),
        preset=chosen.key if chosen else None,
        keys=keys,
        location=place,
    )


def listed(given: Mapping[str, Any], key: str, *, required: bool) -> None:
    """Refuse rounds (or an audit trail) that are absent when required, or not a list."""
    value = given.get(key)
    if value is None:
        if required:
            raise missing(key)
    elif value is not LISTED:
        sequence(value, key)


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


def setup_of(game: AnyGame, raw: Any) -> dict[str, Any]:
    """Return the session's setup (e.g. Dalmuti's initial_draw), only the game's own keys."""
    if raw is None:
        return {}
    given = mapping(raw, "setup")
    for key in given:
        if key not in game.setup_keys:
            raise MalformedInput(
                "invalid_value",
                "{game} sessions have no setup {value}.",
                f"setup.{key}",
                game=game.title,
                value=quote(key),
            )
    return {key: given[key] for key in game.setup_keys if given.get(key) is not None}


def replay_rounds(
    game: AnyGame, table: Table, initial: Mapping[str, Any], raw_rounds: Iterable[Any]
) -> ReplayedRounds:
    """Replay the exported rounds through the rules (games.game.replay), checking each entry.

    Each entry's shape is checked as the replay pulls its input, so refusals come in round
    order; every refusal carries its round. Each round is spooled as it is replayed.
    """
    rounds = ReplayedRounds(Spool(), totals=dict.fromkeys(table.players, 0), state=dict(initial))
    current: list[Any] = [None, 0]  # the entry being replayed, and how many were pulled

    def inputs() -> Iterator[Any]:
        for index, raw in enumerate(raw_rounds):
            entry, given = round_entry(index, raw)
            current[:] = [entry, index + 1]
            yield given

    try:
        for index, outcome in enumerate(rules_game.replay(game, table, initial, inputs())):
            keep_round(rounds, index, current[0], outcome)
    except Refusal as error:
        rounds.rows.close()
        if error.round is None:
            error.round = current[1] or 1
        raise
    except BaseException:
        rounds.rows.close()
        raise
    return rounds


def keep_round(
    rounds: ReplayedRounds, index: int, entry: Mapping[str, Any], outcome: AnyOutcome
) -> None:
    """Check a replayed round against its export and spool it; keep what the trail compares."""
    recorded, corrected = checked_round(entry, index, outcome)
    for name, delta in outcome.result["deltas"].items():
        rounds.totals[name] = rounds.totals.get(name, 0) + delta
    row = round_row(index + 1, outcome, recorded or rounds.now, corrected, rounds.totals)
    rounds.rows.add(row)
    rounds.inputs.append(pack(outcome.input))
    rounds.states.append(pack(outcome.state))
    rounds.state = outcome.state
    rounds.size += limits.round_bytes(outcome.input, outcome.result)
    times = [time for time in (rounds.latest, recorded, corrected) if time is not None]
    rounds.latest = max(times, default=None)


def round_row(
    number: int,
    outcome: AnyOutcome,
    recorded: datetime,
    corrected: datetime | None,
    totals: Mapping[str, int],
) -> dict[str, Any]:
    """Return a replayed round as its row in ``rounds``, but for its session (every column an
    import writes is set here, and only here: ``store`` inserts these rows in bulk), with the
    running ``totals`` after it and its answer as a write stores them."""
    return {
        "number": number,
        "input": outcome.input,
        "result": outcome.result,
        "state": outcome.state,
        "recorded_at": recorded,
        "corrected_at": corrected,
        "answer": stored_rounds.answer_text(
            number, outcome.input, outcome.result, recorded, corrected
        ),
        "running": dict(totals),
    }


def round_entry(index: int, raw: Any) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """Check one exported round's shape; return it and its input as the rules read it."""
    where = f"rounds.{index}"
    entry = mapping(raw, where)
    number = entry.get("number")
    if number is not None and (isinstance(number, bool) or number != index + 1):
        raise MalformedInput(
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
    entry: Mapping[str, Any], index: int, outcome: AnyOutcome
) -> tuple[datetime | None, datetime | None]:
    """Compare a replayed round with the result its export claims; return its times."""
    where = f"rounds.{index}"
    if entry.get("result") is not None:
        result = mapping(entry["result"], f"{where}.result")
        compare_scores(result.get("deltas"), outcome.result["deltas"], f"{where}.result.deltas")
    recorded = moment(entry.get("recorded_at"), f"{where}.recorded_at")
    corrected = moment(entry.get("corrected_at"), f"{where}.corrected_at")
    return recorded, corrected


def import_file(raw: IO[bytes], size: int | None = None) -> GameSession:
    """Recreate a session from an export in a file, read a part at a time (see ``reading``).

    A body of more than ``apart.APART`` bytes is imported in a child process, so this server's
    threads keep answering meanwhile (``apart``); a smaller one here (``import_here``).
    """
    if apart.is_apart(size):
        return apart.import_apart(raw, size or 0, import_here)
    return import_here(raw, size)


def import_here(raw: IO[bytes], size: int | None = None, token: str | None = None) -> GameSession:
    """Recreate a session from an export in a file, in this process and thread.

    A body of ``size`` bytes larger than any session of its game is refused as soon as its
    game is read (``limits.check_import_size``); ``token`` as ``import_session`` keeps it.
    """
    return import_session(read_export(raw, size=size), token)


def import_session(body: ExportParts | Any, token: str | None = None) -> GameSession:
    """Recreate a session from its export (replayed through the rules) in one transaction.

    The copy gets a new id; its times are the export's, but for its last change (now). An
    import done apart keeps its child's ``token`` in its audit entry, where the server finds
    the session when the child's answer is lost (``apart.stored_by``).
    """
    unmapped(db.session.connection())  # it touches every page it grows (extensions.py)
    replayed = replay(body)
    if token is not None:
        replayed.source[apart.TOKEN_KEY] = token
    try:
        apart.claim(token)
        session = store(replayed, "export", {})
        commit()
    finally:
        replayed.close()
    return session
