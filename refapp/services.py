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

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .extensions import db
from .games import get_game
from .games.base import N_, Game, RuleViolation, Table, leaders, quote, whole_number
from .models import AuditEntry, GameSession, Player, Round, SessionPlayer, utcnow

NAME_MAX = 40
#: ids are INTEGER columns: 32 bits on PostgreSQL, so a larger id cannot exist (nor be queried)
ID_MAX = 2**31 - 1
SESSION_NAME_MAX = 100


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


def round_rows(session_id: int) -> list[PlayedRound]:
    """Return a session's rounds in order, in one query, as plain rows."""
    rows = db.session.execute(
        select(Round.number, Round.input, Round.result, Round.recorded_at, Round.corrected_at)
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    )
    return [PlayedRound(*row) for row in rows]


def state_before(session: GameSession, number: int) -> dict[str, Any]:
    """Return the game state before round ``number``: the state stored with the round before."""
    if number <= 1:
        return dict(session.initial_state)
    state = db.session.scalar(
        select(Round.state).where(Round.session_id == session.id, Round.number == number - 1)
    )
    return dict(session.initial_state if state is None else state)


def state_after(session: GameSession, rounds: Sequence[Round]) -> dict[str, Any]:
    """Return the game state after the given rounds (the last one's stored state)."""
    return dict(rounds[-1].state) if rounds else dict(session.initial_state)


@dataclass
class SessionView:
    """A session as read: its game, table, rounds, totals, public state and winners."""

    session: GameSession
    game: Game
    table: Table
    rounds: list[PlayedRound]
    totals: dict[str, int]
    state: dict[str, Any]
    winners: list[str]


def describe(session: GameSession) -> SessionView:
    """Read a session into what pages and the API show, in a fixed number of queries."""
    game = get_game(session.game)
    table = table_of(session)
    rounds = round_rows(session.id)
    totals = totals_of(table.players, rounds)
    public = game.public_state(table, state_before(session, len(rounds) + 1), totals)
    winners = leaders(totals) if session.finished else []
    return SessionView(session, game, table, rounds, totals, public, winners)


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
    """Return the API's session object."""
    session = view.session
    return {
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "players": list(view.table.players),
        "rules": dict(session.rules),
        "rounds": [round_dict(played) for played in view.rounds],
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
    if wanted.date_to:
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
    """Return True if text holds control characters (NUL, newlines, ...) a name must not."""
    return any(unicodedata.category(char) in ("Cc", "Cs") for char in text)


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
    """Commit, turning a lost race (a round number, a new player's name) into ``stale_round``."""
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise RuleViolation("stale_round", N_(conflict)) from error


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


def record_round(session_id: Any, raw: Any) -> tuple[Round, GameSession]:
    """Check and score a round, then store it with its audit entry; returns (round, session).

    Only the last round's state and the session's summary are read, so recording costs the
    same however long the session is.
    """
    session = load_session(session_id, with_rounds=False)
    if session.finished:
        raise finished_error(session)
    number = session.round_count + 1
    if isinstance(raw, Mapping):
        expected_round(raw, number)
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
    totals = {
        name: session.totals.get(name, 0) + outcome.result["deltas"].get(name, 0)
        for name in table.players
    }
    session.round_count = number
    session.totals = totals
    if game.is_over(table, outcome.state, totals):
        close(session, "game")
    session.updated_at = utcnow()
    audit(session, "record_round", number, None, outcome.input)
    commit()
    return played, session


def replace_round(session_id: Any, number: Any, raw: Any) -> GameSession:
    """Replace round n's input and replay every later round; all or nothing."""
    session = load_session(session_id)
    rounds = session.rounds
    target = round_number(number, len(rounds))
    entered = round_input(raw)
    game = get_game(session.game)
    table = table_of(session)

    state = state_after(session, rounds[: target - 1])
    totals = totals_of(table.players, rounds[: target - 1])
    replayed = []
    for played in rounds[target - 1 :]:
        given = entered if played.number == target else played.input
        try:
            if game.is_over(table, state, totals):
                raise finished_error(session)
            outcome = game.play(table, state, given)
        except RuleViolation as error:
            error.round = played.number
            raise
        replayed.append((played, outcome))
        state = outcome.state
        for name, delta in outcome.result["deltas"].items():
            totals[name] = totals.get(name, 0) + delta

    old = rounds[target - 1].input
    for played, outcome in replayed:
        played.input = outcome.input
        played.result = outcome.result
        played.state = outcome.state
    rounds[target - 1].corrected_at = utcnow()
    summarize(session)
    if session.finished_by != "table":
        if game.is_over(table, state, totals):
            close(session, "game")
        else:
            reopen(session)
    session.updated_at = utcnow()
    audit(session, "replace_round", target, old, rounds[target - 1].input)
    commit()
    return session


def delete_round(session_id: Any, number: Any) -> GameSession:
    """Undo the last round (kept in the audit trail); a game-ended session reopens."""
    session = load_session(session_id)
    rounds = session.rounds
    target = round_number(number, len(rounds))
    if target != len(rounds):
        raise RuleViolation(
            "not_last_round",
            "Only the last round ({last}) can be undone, not round {value}; correct earlier "
            "rounds instead.",
            None,
            last=len(rounds),
            value=target,
        )
    if session.finished_by == "table":
        raise finished_error(session)
    removed = rounds[-1]
    old = removed.input
    session.rounds.remove(removed)
    summarize(session)
    reopen(session)
    session.updated_at = utcnow()
    audit(session, "delete_round", target, old, None)
    commit()
    return session


def finish_session(session_id: Any) -> GameSession:
    """End a session by the table's decision; winners are the highest totals."""
    session = load_session(session_id)
    if session.finished:
        raise finished_error(session)
    close(session, "table")
    session.updated_at = utcnow()
    totals = totals_of(session.players, session.rounds)
    audit(session, "finish_session", None, None, {"totals": totals, "winners": leaders(totals)})
    commit()
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
    """Keep the session's round count and totals (for list pages) in step with its rounds."""
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
