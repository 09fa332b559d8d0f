"""The only writer of sessions and rounds: record, replace (with replay), undo, finish, audit.

Every function here checks first and writes after, in one transaction, so a rejected input
changes nothing. Pages and the API read through ``load_session`` and ``describe``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, func, null, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import selectinload, undefer
from sqlalchemy.orm.exc import StaleDataError

from .extensions import db
from .games import get_game
from .games.base import N_, Game, RuleViolation, Table, leaders, quote, whole_number
from .models import AuditEntry, GameSession, Player, Round, SessionPlayer, utcnow

NAME_MAX = 40
#: ids are INTEGER columns: 32 bits on PostgreSQL, so a larger id cannot exist (nor be queried)
ID_MAX = 2**31 - 1
SESSION_NAME_MAX = 100
#: the most rounds a session holds (``too_many_rounds``); the import size limit fits it
MAX_ROUNDS = 10_000
#: Unicode categories a name must not hold: controls, surrogates, format characters (bidi
#: overrides, zero-width spaces: they reorder or hide text), line and paragraph separators
HIDDEN_CATEGORIES = frozenset(("Cc", "Cs", "Cf", "Zl", "Zp"))


# -- reading -----------------------------------------------------------------------------------


def load_session(session_id: Any, *, with_rounds: bool = True) -> GameSession:
    """Return a session with its seats (and rounds) loaded in a fixed number of queries."""
    if isinstance(session_id, bool) or not isinstance(session_id, int) or session_id > ID_MAX:
        raise not_found(session_id)  # beyond the id column's range: cannot exist
    query = select(GameSession).where(GameSession.id == session_id)
    if with_rounds:
        query = query.options(selectinload(GameSession.rounds))
    session = db.session.scalars(query).one_or_none()
    if session is None:
        raise not_found(session_id)
    return session


def not_found(session_id: Any) -> RuleViolation:
    """Return the error for a session that does not exist."""
    return RuleViolation("not_found", "There is no session {value}.", None, value=quote(session_id))


def table_of(session: GameSession) -> Table:
    """Return the pure rules' view of a session's seats and house rules."""
    return Table(tuple(session.players), dict(session.rules))


def totals_of(players: Sequence[str], rounds: Sequence[Any]) -> dict[str, int]:
    """Sum the rounds' deltas per player (every seated player, zeros included)."""
    totals = dict.fromkeys(players, 0)
    for played in rounds:
        for name, delta in played.result["deltas"].items():
            totals[name] = totals.get(name, 0) + delta
    return totals


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A stored round as pages and the API read it (no ORM object: long sessions read fast)."""

    number: int
    input: dict[str, Any]
    result: dict[str, Any]
    recorded_at: datetime
    corrected_at: datetime | None


def round_rows(
    session_id: int, after: int | None = None, through: int | None = None
) -> list[PlayedRound]:
    """Return a session's rounds in order (numbered above ``after``, up to ``through``)."""
    query = (
        select(Round.number, Round.input, Round.result, Round.recorded_at, Round.corrected_at)
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    )
    if after is not None and after > 0:
        query = query.where(Round.number > after)
    if through is not None:
        query = query.where(Round.number <= through)
    return [PlayedRound(*row) for row in db.session.execute(query)]


def history_rows(
    session_id: int, after: int, through: int | None = None
) -> tuple[list[PlayedRound], list[tuple[int, dict[str, int]]]]:
    """Return the rounds after..through as full rows, and every round's deltas, in one query.

    The database picks the deltas out of each stored result (what the chart draws) and sends
    inputs and results only for the rounds shown, so a long session's page parses little.
    """
    shown = Round.number > after
    if through is not None:
        shown = and_(shown, Round.number <= through)
    rows = db.session.execute(
        select(
            Round.number,
            Round.result["deltas"],
            case((shown, Round.input), else_=null()),
            case((shown, Round.result), else_=null()),
            Round.recorded_at,
            Round.corrected_at,
        )
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    )
    full, deltas = [], []
    for number, changes, entered, result, recorded, corrected in rows:
        deltas.append((number, dict(changes or {})))
        if result is not None:
            full.append(PlayedRound(number, entered, result, recorded, corrected))
    return full, deltas


def state_before(session: GameSession, number: int) -> dict[str, Any]:
    """Return the game state before round ``number``: the state stored with the round before."""
    if number <= 1:
        return dict(session.initial_state)
    state = db.session.scalar(
        select(Round.state).where(Round.session_id == session.id, Round.number == number - 1)
    )
    return dict(session.initial_state if state is None else state)


@dataclass
class SessionView:
    """A session as read: its game, table, the rounds shown, totals, public state and winners.

    ``rounds`` holds the rounds asked for (all, none or the last few); ``count`` is how many
    the session has.
    """

    session: GameSession
    game: Game
    table: Table
    rounds: list[PlayedRound]
    totals: dict[str, int]
    state: dict[str, Any]
    winners: list[str]
    count: int = 0


#: which rounds a read carries: every one, none, or the last N (``?rounds=`` in the API)
ALL_ROUNDS: int | None = None


def rounds_wanted(raw: Any) -> int | None:
    """Read ``?rounds=``: ``all`` (None: every round), ``none`` (0) or ``last:N`` (N)."""
    text = "all" if raw is None else str(raw).strip().lower()
    if text == "all":
        return ALL_ROUNDS
    if text == "none":
        return 0
    head, _, tail = text.partition(":")
    if head == "last" and tail.isdigit() and len(tail) <= 6:
        return int(tail)
    raise RuleViolation(
        "invalid_value",
        "rounds must be all, none or last:N (a whole number), not {value}.",
        "rounds",
        value=quote(raw),
    )


def describe(session: GameSession, last: int | None = ALL_ROUNDS) -> SessionView:
    """Read a session into what pages and the API show, in a fixed number of queries.

    Standings come from the totals the service keeps on the session, so only the rounds shown
    (``last``: None for all, else the last N) are read from their rows.
    """
    game = get_game(session.game)
    table = table_of(session)
    count = session.round_count
    rounds = [] if last == 0 else round_rows(session.id, None if last is None else count - last)
    totals = {name: session.totals.get(name, 0) for name in table.players}
    public = game.public_state(table, state_before(session, count + 1), totals)
    winners = leaders(totals) if session.finished else []
    return SessionView(session, game, table, rounds, totals, public, winners, count)


def iso(moment) -> str | None:
    """Write a stored time as ISO 8601 UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=utcnow().tzinfo)
    return moment.isoformat()


def round_dict(played: Round | PlayedRound) -> dict[str, Any]:
    """Return the API's round object (the explanation in English; its templates stay for pages)."""
    result = {key: value for key, value in played.result.items() if key != "explanation_parts"}
    return {
        "number": played.number,
        "input": played.input,
        "result": result,
        "recorded_at": iso(played.recorded_at),
        "corrected_at": iso(played.corrected_at),
    }


def session_dict(view: SessionView) -> dict[str, Any]:
    """Return the API's session object (its ``rounds`` as many as were read)."""
    session = view.session
    return {
        "id": session.id,
        "version": session.version,
        "game": session.game,
        "name": session.name,
        "players": list(view.table.players),
        "rules": dict(session.rules),
        "rounds": [round_dict(played) for played in view.rounds],
        "rounds_total": view.count,
        "totals": view.totals,
        "state": view.state,
        "finished": session.finished,
        "finished_by": session.finished_by,
        "winners": view.winners,
        "created_at": iso(session.created_at),
        "updated_at": iso(session.updated_at),
    }


@dataclass
class SessionFilter:
    """What the sessions list is narrowed to: game, a player's name, status, dates, page."""

    game: str | None = None
    player: str | None = None
    finished: bool | None = None
    date_from: date | None = None
    date_to: date | None = None
    page: int = 1
    per_page: int = 50
    #: the pages list active sessions first, by latest activity; the API newest first
    active_first: bool = False

    @classmethod
    def from_args(cls, args: Mapping[str, str], **defaults: Any) -> SessionFilter:
        """Read the filter from query parameters, refusing bad values with ``invalid_value``."""
        wanted = cls(**defaults)
        for key in ("game", "player"):
            text = (args.get(key) or "").strip()
            if has_control(text):  # a NUL cannot even be sent to PostgreSQL
                raise bad_parameter(key, text, "printable text")
        wanted.game = (args.get("game") or "").strip() or None
        wanted.player = unicodedata.normalize("NFC", (args.get("player") or "").strip()) or None
        status = (args.get("status") or args.get("finished") or "").strip().lower()
        if status:
            known = {"active": False, "false": False, "finished": True, "true": True}
            if status not in known:
                raise bad_parameter("status", status, "active or finished")
            wanted.finished = known[status]
        for key in ("from", "to"):
            text = (args.get(key) or "").strip()
            if text:
                try:
                    setattr(wanted, f"date_{key}", date.fromisoformat(text))
                except ValueError:
                    raise bad_parameter(key, text, "a date like 2026-11-27") from None
        for key, most in (("page", 100_000), ("per_page", 500)):
            text = (args.get(key) or "").strip()
            if text:
                if not text.isdigit() or not 1 <= int(text) <= most:
                    raise bad_parameter(key, text, f"a whole number from 1 to {most}")
                setattr(wanted, key, int(text))
        return wanted


def bad_parameter(key: str, value: str, wanted: str) -> RuleViolation:
    """Return the refusal of a query parameter, quoting it."""
    return RuleViolation(
        "invalid_value",
        "The filter {key} must be {wanted}, not {value}.",
        key,
        key=key,
        wanted=wanted,
        value=quote(value),
    )


def list_sessions(wanted: SessionFilter | None = None) -> tuple[list[dict[str, Any]], int]:
    """Return one page of sessions and how many match, in a fixed number of queries."""
    wanted = wanted or SessionFilter()
    query = select(GameSession)
    if wanted.game:
        query = query.where(GameSession.game == wanted.game)
    if wanted.finished is not None:
        query = query.where(GameSession.finished == wanted.finished)
    if wanted.player:
        seated = (
            select(SessionPlayer.session_id)
            .join(Player, Player.id == SessionPlayer.player_id)
            .where(Player.name == wanted.player)
        )
        query = query.where(GameSession.id.in_(seated))
    if wanted.date_from:
        query = query.where(GameSession.created_at >= day_start(wanted.date_from))
    if wanted.date_to and wanted.date_to < date.max:  # the last day there is bounds nothing
        query = query.where(GameSession.created_at < day_start(wanted.date_to + timedelta(days=1)))
    total = db.session.scalar(select(func.count()).select_from(query.subquery())) or 0
    if wanted.active_first:
        order = [GameSession.finished, GameSession.updated_at.desc(), GameSession.id.desc()]
    else:
        order = [GameSession.created_at.desc(), GameSession.id.desc()]
    page = db.session.scalars(
        query.order_by(*order)
        .limit(wanted.per_page)
        .offset((max(wanted.page, 1) - 1) * wanted.per_page)
    ).all()
    return [session_row(session) for session in page], total


def day_start(day: date) -> datetime:
    """Return midnight UTC at the start of a day."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def session_row(session: GameSession) -> dict[str, Any]:
    """Return a session as the lists show it: game, players, rounds, leaders or winners."""
    players = session.players
    totals = {name: session.totals.get(name, 0) for name in players}
    top = leaders(totals) if session.round_count else []
    return {
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "players": players,
        "created_at": iso(session.created_at),
        "updated_at": iso(session.updated_at),
        "rounds": session.round_count,
        "finished": session.finished,
        "totals": totals,
        "leaders": top,
        "winners": leaders(totals) if session.finished else [],
    }


def audit_entries(session_id: Any) -> list[dict[str, Any]]:
    """Return a session's audit trail, oldest first."""
    return audit_of(load_session(session_id, with_rounds=False))


def audit_of(session: GameSession) -> list[dict[str, Any]]:
    """Return a loaded session's audit trail, oldest first, in one query."""
    entries = db.session.scalars(
        select(AuditEntry).where(AuditEntry.session_id == session.id).order_by(AuditEntry.id)
    )
    return [
        {
            "at": iso(entry.at),
            "action": entry.action,
            "round": entry.round_number,
            "before": entry.before,
            "after": entry.after,
        }
        for entry in entries
    ]


# -- checking plain input ------------------------------------------------------------------------


def player_name(value: Any, where: str) -> str:
    """Return one player's name trimmed and NFC (1..40 printable characters), or raise at where."""
    if not isinstance(value, str):
        raise RuleViolation(
            "missing_field" if value is None else "invalid_value",
            "A player's name must be text, not {value}.",
            where,
            value=quote(value),
        )
    name = unicodedata.normalize("NFC", value.strip())
    if not 1 <= len(name) <= NAME_MAX or has_control(name):
        raise RuleViolation(
            "invalid_value",
            "A player's name has 1 to {most} printable characters after trimming; "
            "{value} does not.",
            where,
            most=NAME_MAX,
            value=quote(value),
        )
    return name


def player_names(raw: Any) -> list[str]:
    """Return the seat list as trimmed names, or raise naming the bad entry."""
    if not isinstance(raw, list):
        raise RuleViolation(
            "missing_field" if raw is None else "invalid_value",
            "players must be a list of names in seat order, not {value}.",
            "players",
            value=quote(raw),
        )
    names: list[str] = []
    for index, value in enumerate(raw):
        where = f"players.{index}"
        name = player_name(value, where)
        if name in names:
            raise RuleViolation(
                "duplicate_player",
                "{value} is seated twice; names must differ.",
                where,
                value=quote(name),
            )
        names.append(name)
    return names


def has_control(text: str) -> bool:
    """Return True if text holds characters a name must not: controls (NUL, newlines ...) and
    the invisible ones that hide or reorder text (U+202E, U+200B ...)."""
    return any(unicodedata.category(char) in HIDDEN_CATEGORIES for char in text)


def session_name(raw: Any) -> str:
    """Return a session's optional display name, trimmed."""
    if raw is None:
        return ""
    if not isinstance(raw, str) or has_control(raw) or len(raw.strip()) > SESSION_NAME_MAX:
        raise RuleViolation(
            "invalid_value",
            "A session name is text of at most {most} printable characters, not {value}.",
            "name",
            most=SESSION_NAME_MAX,
            value=quote(raw),
        )
    return raw.strip()


# -- writing ---------------------------------------------------------------------------------------
#
# Every write to a session (record, correct, undo, finish, rename) runs alone against it: it
# starts with ``lock_session`` (a row lock on PostgreSQL, an immediate write transaction on
# SQLite), reads what it needs fresh under that lock, and ends with ``commit_write``, which
# bumps the session's ``version``. Two phones can then never interleave their writes.


def create_session(body: Mapping[str, Any]) -> GameSession:
    """Seat the players, fix the house rules and store a new session (with its audit entry)."""
    game = get_game(body.get("game"))
    names = player_names(body.get("players"))
    rules = game.resolve_rules(body.get("rules"))
    game.check_players(names, rules)
    setup = {key: body[key] for key in game.setup_keys if body.get(key) is not None}
    seated, initial = game.start(names, rules, setup)
    title = session_name(body.get("name"))

    known = {
        player.name: player
        for player in db.session.scalars(select(Player).where(Player.name.in_(seated)))
    }
    session = GameSession(
        game=game.slug, name=title, rules=rules, setup=setup, initial_state=initial
    )
    for seat, name in enumerate(seated):
        player = known.get(name) or Player(name=name)
        session.seats.append(SessionPlayer(seat=seat, player=player))
    db.session.add(session)
    db.session.flush()
    audit(
        session,
        "create_session",
        None,
        None,
        {"game": game.slug, "name": title, "players": list(seated), "rules": rules, **setup},
    )
    commit()
    return session


def begin_write() -> None:
    """Start this request's transaction as a writer (SQLite: BEGIN IMMEDIATE), if not yet one.

    SQLite then admits one writer at a time for the whole transaction, so what is read after
    this cannot change before the commit; other writers wait (busy timeout) for their turn.
    """
    connection = db.session.connection()
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.driver_connection
    if not driver.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def lock_sessions(ids: Sequence[int]) -> list[GameSession]:
    """Take several sessions for one write, in id order (so two writers never deadlock).

    Objects this request read before are refreshed: a write decides on what is stored now.
    """
    begin_write()
    db.session.expire_all()
    return list(
        db.session.scalars(
            select(GameSession)
            .where(GameSession.id.in_(sorted(ids)))
            .order_by(GameSession.id)
            .with_for_update(of=GameSession)
            .execution_options(populate_existing=True)
        )
    )


def lock_session(session_id: Any, version: int | None = None) -> GameSession:
    """Take one session for a write, refusing it when it is not the ``version`` the client saw."""
    if isinstance(session_id, bool) or not isinstance(session_id, int) or session_id > ID_MAX:
        raise not_found(session_id)
    found = lock_sessions([session_id])
    if not found:
        raise not_found(session_id)
    session = found[0]
    if version is not None and version != session.version:
        raise RuleViolation(
            "stale_round",
            "This device saw version {value} of the session, but it is at version {version} "
            "now: another device changed it. Reload to see what changed.",
            "If-Match",
            value=version,
            version=session.version,
        )
    return session


def commit_write(session: GameSession) -> None:
    """Commit a write to a session, which moves its ``version`` on."""
    session.version = (session.version or 0) + 1
    session.updated_at = utcnow()
    commit()


def audit(session: GameSession, action: str, number: int | None, before: Any, after: Any) -> None:
    """Append an audit entry to the session's trail (in the caller's transaction)."""
    db.session.add(
        AuditEntry(
            session_id=session.id, action=action, round_number=number, before=before, after=after
        )
    )


def commit(
    conflict: str = N_("Another device recorded this round first; reload and try again."),
) -> None:
    """Commit, turning a lost race (a round number, a new player's name) into ``stale_round``.

    A write that could not get its turn in time (the database stayed busy) or found its rows
    gone is a lost race too; nothing of it was stored.
    """
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise RuleViolation("stale_round", N_(conflict)) from error
    except OperationalError as error:
        db.session.rollback()
        if "locked" not in str(error.orig):
            raise
        raise busy() from error


def busy() -> RuleViolation:
    """Return the refusal of a write that waited too long for its turn."""
    return RuleViolation(
        "stale_round", "The session is busy with another change; try again in a moment."
    )


def expected_round(raw: Mapping[str, Any], next_number: int) -> None:
    """Refuse a round meant for another point in the session (two phones at one table)."""
    if raw.get("expected_round") is None:
        return
    expected = whole_number(raw["expected_round"], "expected_round")
    if expected != next_number:
        raise RuleViolation(
            "stale_round",
            "This device was recording round {value}, but the session is at round {next}; "
            "reload to see what changed.",
            "expected_round",
            value=expected,
            next=next_number,
        )


def round_input(raw: Any) -> dict[str, Any]:
    """Return the round body without the service's own keys."""
    if not isinstance(raw, Mapping):
        raise RuleViolation("invalid_json", "The round must be a JSON object.")
    return {key: value for key, value in raw.items() if key != "expected_round"}


def finished_error(session: GameSession) -> RuleViolation:
    """Return the error for a write to a session that has ended."""
    return RuleViolation(
        "session_finished",
        "Session {id} is finished; no more rounds can be recorded.",
        None,
        id=session.id,
    )


def check_round(session_id: Any, raw: Any, number: Any = None) -> dict[str, Any]:
    """Check (and score, if complete) a round without storing anything: the referee's dry run.

    Without ``number`` it is the next round of a running session; with one, a correction of
    that round, checked against the state before it. Parts of a round may be sent alone.
    """
    session = load_session(session_id, with_rounds=False)
    if number is None:
        if session.finished:
            raise finished_error(session)
        target = session.round_count + 1
        if isinstance(raw, Mapping):
            expected_round(raw, target)
    else:
        target = round_number(number, session.round_count)
    game = get_game(session.game)
    before = state_before(session, target)
    outcome = game.play(table_of(session), before, round_input(raw), partial=True)
    return {
        "number": target,
        "input": outcome.input,
        "result": outcome.result,
        "recorded_at": None,
        "dry_run": True,
    }


def record_round(
    session_id: Any, raw: Any, *, version: int | None = None
) -> tuple[Round, GameSession]:
    """Check and score a round, then store it with its audit entry; returns (round, session).

    Only the last round's state and the session's summary are read, so recording costs the
    same however long the session is.
    """
    session = lock_session(session_id, version)
    if session.finished:
        raise finished_error(session)
    number = session.round_count + 1
    if isinstance(raw, Mapping):
        expected_round(raw, number)
    if number > MAX_ROUNDS:
        raise RuleViolation(
            "too_many_rounds",
            "A session holds at most {most} rounds; start a new session to go on.",
            None,
            most=MAX_ROUNDS,
        )
    entered = round_input(raw)
    game = get_game(session.game)
    table = table_of(session)
    outcome = game.play(table, state_before(session, number), entered)

    played = Round(
        session_id=session.id,
        number=number,
        input=outcome.input,
        result=outcome.result,
        state=outcome.state,
    )
    db.session.add(played)
    session.round_count = number
    session.totals = add_deltas(session.totals, table.players, outcome.result["deltas"])
    if game.is_over(table, outcome.state, session.totals):
        close(session, "game")
    audit(session, "record_round", number, None, outcome.input)
    commit_write(session)
    return played, session


def add_deltas(
    totals: Mapping[str, int], players: Sequence[str], deltas: Mapping[str, int], sign: int = 1
) -> dict[str, int]:
    """Return totals with a round's deltas added (or, with sign -1, taken away)."""
    return {name: totals.get(name, 0) + sign * deltas.get(name, 0) for name in players}


def replace_round(
    session_id: Any, number: Any, raw: Any, *, version: int | None = None
) -> GameSession:
    """Replace round n's input and replay every later round; all or nothing."""
    return replace_rounds(session_id, {number: raw}, version=version)


def correction_numbers(raw: Any, count: int) -> dict[int, Any]:
    """Read ``{"3": input, "4": input}`` (keys may be numbers) into existing round numbers."""
    if not isinstance(raw, Mapping) or not raw:
        raise RuleViolation(
            "missing_field" if raw is None else "invalid_value",
            "rounds must map round numbers to their corrected inputs, not {value}.",
            "rounds",
            value=quote(raw),
        )
    wanted: dict[int, Any] = {}
    for key, given in raw.items():
        text = str(key)
        value = int(text) if text.isdigit() and len(text) <= 9 else key
        wanted[round_number(value, count)] = given
    return dict(sorted(wanted.items()))


def replace_rounds(
    session_id: Any, corrections: Mapping[Any, Any], *, version: int | None = None
) -> GameSession:
    """Replace the inputs of one or more rounds and replay from the first of them; all or nothing.

    Only the rounds from the first corrected one on are read, and only those whose input,
    result or state changed are written back.
    """
    session = lock_session(session_id, version)
    wanted = correction_numbers(corrections, session.round_count)
    first = min(wanted)
    entered = {number: round_input(raw) for number, raw in wanted.items()}
    game = get_game(session.game)
    table = table_of(session)
    later = list(
        db.session.scalars(
            select(Round)
            .where(Round.session_id == session.id, Round.number >= first)
            .order_by(Round.number)
            .options(undefer(Round.state))
        )
    )
    totals = dict(session.totals)
    for played in later:
        totals = add_deltas(totals, table.players, played.result["deltas"], -1)
    state = state_before(session, first)
    replayed = []
    for played in later:
        try:
            if game.is_over(table, state, totals):
                raise finished_error(session)
            outcome = game.play(table, state, entered.get(played.number, played.input))
        except RuleViolation as error:
            error.round = played.number
            raise
        replayed.append((played, outcome))
        state = outcome.state
        totals = add_deltas(totals, table.players, outcome.result["deltas"])

    now = utcnow()
    for played, outcome in replayed:
        old = played.input
        if (old, played.result, played.state) != (outcome.input, outcome.result, outcome.state):
            played.input, played.result, played.state = outcome.input, outcome.result, outcome.state
        if played.number in entered:
            played.corrected_at = now
            audit(session, "replace_round", played.number, old, outcome.input)
    session.totals = totals
    if session.finished_by != "table":
        if game.is_over(table, state, totals):
            close(session, "game")
        else:
            reopen(session)
    commit_write(session)
    return session


def delete_round(session_id: Any, number: Any, *, version: int | None = None) -> GameSession:
    """Undo the last round (kept in the audit trail); a game-ended session reopens."""
    session = lock_session(session_id, version)
    count = session.round_count
    target = round_number(number, count)
    if target != count:
        raise RuleViolation(
            "not_last_round",
            "Only the last round ({last}) can be undone, not round {value}; correct earlier "
            "rounds instead.",
            None,
            last=count,
            value=target,
        )
    if session.finished_by == "table":
        raise finished_error(session)
    removed = db.session.scalars(
        select(Round).where(Round.session_id == session.id, Round.number == target)
    ).one()
    old = removed.input
    session.totals = add_deltas(session.totals, session.players, removed.result["deltas"], sign=-1)
    session.round_count = target - 1
    db.session.delete(removed)
    reopen(session)
    audit(session, "delete_round", target, old, None)
    commit_write(session)
    return session


def finish_session(session_id: Any, *, version: int | None = None) -> GameSession:
    """End a session by the table's decision; winners are the highest totals."""
    session = lock_session(session_id, version)
    if session.finished:
        raise finished_error(session)
    close(session, "table")
    totals = {name: session.totals.get(name, 0) for name in session.players}
    audit(session, "finish_session", None, None, {"totals": totals, "winners": leaders(totals)})
    commit_write(session)
    return session


def round_number(value: Any, count: int) -> int:
    """Return value as an existing round number or raise ``not_found``."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= count:
        return value
    raise RuleViolation(
        "not_found",
        "There is no round {value} (this session has {count}).",
        None,
        value=quote(value),
        count=count,
    )


def summarize(session: GameSession) -> dict[str, int]:
    """Set the session's round count and totals (for list pages) from its loaded rounds."""
    totals = totals_of(session.players, session.rounds)
    session.round_count = len(session.rounds)
    session.totals = totals
    return totals


def close(session: GameSession, by: str) -> None:
    """Mark a session finished, saying whether the rules or the table ended it."""
    if not session.finished:
        session.finished = True
        session.finished_by = by
        session.finished_at = utcnow()


def reopen(session: GameSession) -> None:
    """Reopen a session the rules had ended, after a correction or undo took the end away."""
    session.finished = False
    session.finished_by = None
    session.finished_at = None
