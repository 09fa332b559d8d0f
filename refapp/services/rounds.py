"""Rounds: the referee's dry run, record and undo (corrections: ``corrections``).

Every function here checks first and writes after, in one transaction taken through
``writes``, so a rejected input changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Literal, TypedDict

from sqlalchemy import select

from ..extensions import db
from ..games import get_game
from ..games.errors import Conflict, Refusal, RuleViolation
from ..games.game import past_the_end, running_totals
from ..models import Round, utcnow
from . import (
    figures,
    hot_rows,
    idempotency,
    limits,
    marks,
    running_shifts,
    stored_rounds,
    values,
    writes,
)
from .round_inputs import expected_round, round_input, round_number
from .rows import RecordedRound, SessionRow
from .sessions import close, finished_error, load_session, reopen, state_before, table_of

log = logging.getLogger(__name__)


class CheckedRound(TypedDict):
    """A dry run's round as the API answers it: never stored, so it has no time."""

    number: int
    input: dict[str, object]
    result: dict[str, object]
    recorded_at: None
    dry_run: Literal[True]


def check_round(
    session_id: object, raw: object, number: object = None, *, whole: bool = False
) -> CheckedRound:
    """Check (and score, if complete) a round without storing anything: the referee's dry run.

    Without ``number`` it is the next round of a running session; with one, a correction of
    that round, checked against the state before it. Parts of a round may be sent alone, unless
    ``whole``: then what recording it would refuse (a part missing too) is refused.
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
    if number is None and game.is_over(table_of(session), before, session.totals):
        raise past_the_end(target)
    outcome = game.play(table_of(session), before, round_input(raw), partial=not whole)
    return {
        "number": target,
        "input": outcome.input,
        "result": outcome.result,
        "recorded_at": None,
        "dry_run": True,
    }


@writes.transaction()
def record_round(
    session_id: object,
    raw: object,
    *,
    version: int | writes.Precondition | None = None,
    key: str | None = None,
) -> tuple[RecordedRound, SessionRow]:
    """Check and score a round, then store it with its audit entry; returns (round, session).

    Only the last round's state and the session's summary are read, so recording costs the
    same however long the session is. A ``key`` stored before raises ``idempotency.Stored``.
    Below the ORM: the session and its seats are read by Core (``hot_rows``) and every row is
    written by one Core statement a table.
    """
    session = hot_rows.take(session_id)
    digest = idempotency.digest_for(key, "record_round", None, raw)
    idempotency.check(session, key, digest)
    writes.check_version(session, version)
    if session.finished:
        raise finished_error(session)
    number = session.round_count + 1
    if isinstance(raw, Mapping):
        expected_round(raw, number)
    if number > values.MAX_ROUNDS:
        raise RuleViolation(
            "too_many_rounds",
            "A session holds at most {most} rounds; start a new session to go on.",
            None,
            most=values.MAX_ROUNDS,
        )
    entered = round_input(raw)
    game = get_game(session.game)
    table = table_of(session)
    before = hot_rows.state_before(session, number)
    if game.is_over(table, before, session.totals):  # a state stored before its end was known
        raise past_the_end(number)
    outcome = game.play(table, before, entered)
    limits.grow(session, limits.round_bytes(outcome.input, outcome.result))

    now = utcnow()
    start = {name: session.totals.get(name, 0) for name in table.players}
    totals = stored_rounds.running_after(start, outcome.result["deltas"])
    played = RecordedRound(number, outcome.input, outcome.result, outcome.state, now)
    with writes.converted():
        stored_rounds.insert_round(session.id, played, totals)
        session.round_count = number
        session.totals = totals
        figures.round_added(session, now)
        marks.round_recorded(session)
        if game.is_over(table, outcome.state, session.totals):
            close(session, "game")
        figures.round_recorded(session, outcome.result, hot_rows.CoreRows(session))
        idempotency.keep(session, key, digest, "record_round", number)
        writes.audit(session, "record_round", number, None, outcome.input)
        writes.commit_write(session)
    return played, session


def already_recorded(session_id: object, raw: object) -> bool:
    """Return True when the round a device meant to record (its ``expected_round``) is stored
    with this very input: a retry whose first answer the network lost, not a second round."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("expected_round"), int):
        return False
    session = load_session(session_id, with_rounds=False)
    number = raw["expected_round"]
    played = db.session.scalar(
        select(Round).where(Round.session_id == session.id, Round.number == number)
    )
    if played is None or number != session.round_count:
        return False
    entered = round_input(raw)
    if played.input == entered:
        return True
    game = get_game(session.game)
    try:
        outcome = game.play(table_of(session), state_before(session, number), entered)
    except Refusal:
        return False
    same: bool = outcome.input == played.input
    return same


@writes.transaction()
def delete_round(
    session_id: object,
    number: object,
    *,
    version: int | writes.Precondition | None = None,
    key: str | None = None,
) -> SessionRow:
    """Undo the last round (kept in the audit trail); a game-ended session reopens."""
    session = hot_rows.take(session_id)
    digest = idempotency.digest_for(key, "delete_round", number, None)
    idempotency.check(session, key, digest)
    writes.check_version(session, version)
    count = session.round_count
    target = round_number(number, count)
    if target != count:
        raise Conflict(
            "not_last_round",
            "Only the last round ({last}) can be undone, not round {value}; correct earlier "
            "rounds instead.",
            None,
            last=count,
            value=target,
        )
    if session.finished_by == "table":
        raise finished_error(session)
    removed, before = stored_rounds.last_two(session.id, target)
    previous = None if before is None else before.recorded_at
    old = removed.input
    limits.grow(session, -limits.round_bytes(old, removed.result))  # its input stays in the entry
    session.totals = running_totals(session.totals, [removed.result["deltas"]], -1)
    session.round_count = target - 1
    with writes.converted():
        figures.round_taken(session, removed.recorded_at, previous)
        marks.round_undone(session, target)
        stored_rounds.delete_round(removed.id)
        running_shifts.cut(session.id, target - 1)
        reopen(session)
        figures.round_undone(session, removed.result, hot_rows.CoreRows(session))
        idempotency.round_undone(session, target)
        idempotency.keep(session, key, digest, "delete_round", target)
        writes.audit(session, "delete_round", target, old, None)
        writes.commit_write(session)
    # the state it answers with: the one the round before left (none: the initial state)
    session.last_state, session.state_read = None if before is None else before.state, True
    return session
