"""Sessions read and written whole: load and describe, create, finish, the audit trail.

Pages and the API read through ``load_session`` and ``describe``, in a fixed number of queries
whatever the session's length.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import Integer, Text, bindparam, cast, literal, null, or_, select, union_all
from sqlalchemy.orm import selectinload

from ..club import current_group_id
from ..extensions import db
from ..games import get_game
from ..games.errors import Conflict
from ..games.game import AnyGame, Table, leaders, running_totals
from ..models import AuditEntry, GameSession, Round, RunningShift, SessionPlayer, utcnow
from . import figures, prepared, rule_sets, running_shifts, stored_rounds, writes
from .location import location_text
from .rows import ROUND, RecordedRound, SessionLike, SessionRow
from .stored_rounds import iso as iso  # pages and the archive read it from here
from .values import not_found, player_names, session_name, stored_id

#: the session a view holds: an ORM one (pages) or the row a hot write wrote (its answer)
S = TypeVar("S", bound=SessionLike)

# -- reading -----------------------------------------------------------------------------------


def load_session(session_id: Any, *, with_rounds: bool = True) -> GameSession:
    """Return a session with its seats (and rounds) loaded in a fixed number of queries."""
    query = select(GameSession).where(
        GameSession.id == stored_id(session_id), GameSession.group_id == current_group_id()
    )
    if with_rounds:
        query = query.options(selectinload(GameSession.rounds))
    session = db.session.scalars(query).one_or_none()
    if session is None:
        raise not_found(session_id)
    return session


def table_of(session: SessionLike) -> Table:
    """Return the pure rules' view of a session's seats and its typed house rules (a hot
    write's row keeps it: its seats and rules stay as read)."""
    if isinstance(session, SessionRow) and session.table is not None:
        return session.table
    table = get_game(session.game).with_house_rules(
        Table(tuple(session.players), dict(session.rules))
    )
    if isinstance(session, SessionRow):
        session.table = table
    return table


def totals_of(players: Sequence[str], rounds: Sequence[Any]) -> dict[str, int]:
    """Sum the rounds' deltas per player (every seated player, zeros included)."""
    return running_totals(dict.fromkeys(players, 0), [p.result["deltas"] for p in rounds])


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """A stored round as pages and the API read it (no ORM object: long sessions read fast)."""

    number: int
    input: dict[str, Any]
    result: dict[str, Any]
    recorded_at: datetime
    corrected_at: datetime | None
    #: the round's stored API answer (every write keeps it; the migration that added the column,
    #: f2a8d3b5c6e7, filled it for the rounds stored before); None only for a round made here
    #: and not stored (a page's preview)
    answer: str | None = None


def round_rows(
    session_id: int, after: int | None = None, through: int | None = None
) -> list[PlayedRound]:
    """Return a session's rounds in order (numbered above ``after``, up to ``through``)."""
    query = (
        select(
            Round.number,
            Round.input,
            Round.result,
            Round.recorded_at,
            Round.corrected_at,
            Round.answer,
        )
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    )
    if after is not None and after > 0:
        query = query.where(Round.number > after)
    if through is not None:
        query = query.where(Round.number <= through)
    return [PlayedRound(*row) for row in db.session.execute(query)]


#: the most points per player the chart draws, whatever the session's length
CHART_POINTS = 240


def chart_points(session_id: int, count: int) -> list[tuple[int, dict[str, int]]]:
    """Return every player's running totals after a sample of at most ``CHART_POINTS`` rounds:
    every ``step``-th round and the last, with the session's few ``running_shifts`` added, in
    one query of bounded rows."""
    if count <= 0:
        return []
    step = -(-count // CHART_POINTS)
    sampled = select(
        literal(0).label("kind"),
        Round.number.label("number"),
        cast(null(), Integer).label("last"),
        cast(Round.running, Text).label("text"),
    ).where(Round.session_id == session_id, Round.number <= count)
    if step > 1:
        sampled = sampled.where(or_(Round.number == count, Round.number % step == 0))
    shifts = select(
        literal(1),
        RunningShift.first_number,
        RunningShift.last_number,
        cast(RunningShift.by, Text),
    ).where(RunningShift.session_id == session_id)
    rows = db.session.execute(union_all(sampled, shifts).order_by("kind", "number")).all()
    # every round keeps its running totals: each write sets them, and the migration that added
    # the column (f2a8d3b5c6e7) filled them for the rounds stored before
    values = json.loads(f"[{','.join(text for *_, text in rows)}]")  # one decode
    points = [(row[1], value) for row, value in zip(rows, values, strict=True) if row[0] == 0]
    moved = [
        running_shifts.Shift(row[1], row[2], value)
        for row, value in zip(rows, values, strict=True)
        if row[0] == 1
    ]
    return running_shifts.applied(moved, points)  # what corrections moved since


def state_before(session: SessionLike, number: int) -> dict[str, Any]:
    """Return the game state before round ``number``: the state stored with the round before."""
    if number <= 1:
        return dict(session.initial_state)
    found = prepared.run("state", STATE, {"id": session.id, "number": number - 1})
    state = found[0][0] if found else None
    return dict(session.initial_state if state is None else state)


#: the state stored with one round (Core: no ORM flush before it)
STATE = select(ROUND.c.state).where(
    ROUND.c.session_id == bindparam("id"), ROUND.c.number == bindparam("number")
)


@dataclass
class ViewOf(Generic[S]):
    """A session as read: its game, table, the rounds shown, totals, public state and winners.

    ``rounds`` holds the rounds asked for (all, none or the last few); ``count`` is how many
    the session has.
    """

    session: S
    game: AnyGame
    table: Table
    rounds: list[PlayedRound]
    totals: dict[str, int]
    state: dict[str, Any]
    winners: list[str]
    count: int = 0


#: a session as pages read it (an ORM session)
SessionView = ViewOf[GameSession]


#: which rounds a read carries: every one (None), none (0), or the last N
ALL_ROUNDS: int | None = None


def describe(
    session: S, last: int | None = ALL_ROUNDS, state: dict[str, Any] | None = None
) -> ViewOf[S]:
    """Read a session into what pages and the API show, in a fixed number of queries.

    Standings come from the totals the service keeps on the session, so only the rounds shown
    (``last``: None for all, else the last N) are read from their rows; a write that has just
    made the state after the last round passes it (``state``), so nothing is read again. The
    session is an ORM one or the row a hot write read and wrote (``rows.SessionRow``).
    """
    game = get_game(session.game)
    table = table_of(session)
    count = session.round_count
    rounds = [] if last == 0 else round_rows(session.id, None if last is None else count - last)
    totals = {name: session.totals.get(name, 0) for name in table.players}
    if state is None:
        state = state_before(session, count + 1)
    public = game.public_state(table, state, totals)
    winners = leaders(totals) if session.finished else []
    return ViewOf(session, game, table, rounds, totals, public, winners, count)


def written_dict(
    session: SessionLike, last: int | None = ALL_ROUNDS, state: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Return the API's session object of a session a write just stored (an ORM session or the
    row a hot write read and wrote)."""
    return session_dict(describe(session, last, state))


def round_dict(played: Round | PlayedRound | RecordedRound) -> dict[str, Any]:
    """Return the API's round object (the explanation in English; its templates stay for pages)."""
    return stored_rounds.round_object(
        played.number, played.input, played.result, played.recorded_at, played.corrected_at
    )


def session_dict(view: ViewOf[Any]) -> dict[str, Any]:
    """Return the API's session object (its ``rounds`` as many as were read)."""
    session, game, table = view.session, view.game, view.table
    preset = rule_sets.preset_of(session)
    return {
        "id": session.id,
        "version": session.version,
        "game": session.game,
        "name": session.name,
        "location": session.location,
        "players": list(table.players),
        "preset": preset,
        "rules_changed": game.rules_changed(table.rules, preset, table.size),
        "rules": dict(table.rules),
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


# -- the audit trail -------------------------------------------------------------------------------


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


# -- writing a session whole ---------------------------------------------------------------------


def create_session(body: Mapping[str, Any]) -> GameSession:
    """Seat the players, fix the house rules and store a new session (with its audit entry)."""
    game = get_game(body.get("game"))
    names = player_names(body.get("players"))
    rules, preset = rule_sets.session_rules(game, body, len(names))
    game.check_players(names, rules)
    setup = {key: body[key] for key in game.setup_keys if body.get(key) is not None}
    seated, initial = game.start(names, rules, setup)
    title = session_name(body.get("name"))
    place = location_text(body.get("location"))

    # everything is checked: now take the players' rows (new ones added), so a rename or merge
    # of one of them runs wholly before or after this session, never across it
    known = writes.take_players(seated)
    session = GameSession(
        group_id=current_group_id(),
        game=game.slug,
        name=title,
        rules=rules,
        setup=setup,
        initial_state=initial,
        preset=preset,
    )
    session.location = place
    for seat, name in enumerate(seated):
        session.seats.append(SessionPlayer(seat=seat, player=known[name]))
    db.session.add(session)
    db.session.flush()
    figures.session_created(session)
    after = {
        "game": game.slug,
        "name": title,
        "players": list(seated),
        "preset": preset,
        "rules": rules,
        **setup,
    }
    if place is not None:
        after["location"] = place
    writes.audit(session, "create_session", None, None, after)
    writes.commit()
    return session


def finished_error(session: SessionLike) -> Conflict:
    """Return the error for a write to a session that has ended."""
    return Conflict(
        "session_finished",
        "Session {id} is finished; no more rounds can be recorded.",
        None,
        id=session.id,
    )


def finish_session(
    session_id: Any, *, version: int | writes.Precondition | None = None
) -> GameSession:
    """End a session by the table's decision; winners are the highest totals."""
    session = writes.lock_session(session_id, version)
    if session.finished:
        raise finished_error(session)
    close(session, "table")
    figures.session_finished(session)
    totals = {name: session.totals.get(name, 0) for name in session.players}
    after = {"totals": totals, "winners": leaders(totals)}
    writes.audit(session, "finish_session", None, None, after)
    writes.commit_write(session)
    return session


def close(session: SessionLike, by: str) -> None:
    """Mark a session finished, saying whether the rules or the table ended it."""
    if not session.finished:
        session.finished = True
        session.finished_by = by
        session.finished_at = utcnow()


def reopen(session: SessionLike) -> None:
    """Reopen a session the rules had ended, after a correction or undo took the end away."""
    session.finished = False
    session.finished_by = None
    session.finished_at = None
