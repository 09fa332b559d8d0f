"""Corrections: a past round's input replaced and the rounds after it replayed, all or nothing.

Checked first and written after, in one transaction taken through ``writes``: a refused
correction changes nothing. What the replay reads and plays is ``replays``'; how far the later
rounds' running totals moved is kept apart (``running_shifts``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from ..games import get_game
from ..games.errors import Refusal
from ..games.game import running_totals
from ..models import utcnow
from . import (
    figures,
    hot_rows,
    idempotency,
    later_rounds,
    limits,
    marks,
    replays,
    running_shifts,
    writes,
)
from .round_inputs import correction_numbers, round_input
from .round_rows import RowsToWrite
from .rows import SessionLike, SessionRow
from .sessions import close, reopen, state_before, table_of

log = logging.getLogger(__name__)


def replace_round(
    session_id: object,
    number: object,
    raw: object,
    *,
    version: int | writes.Precondition | None = None,
    key: str | None = None,
) -> SessionRow:
    """Replace round n's input and replay every later round; all or nothing."""
    return replace_rounds(session_id, {number: raw}, version=version, key=key)


@dataclass
class Correction:
    """A correction worked out from a session as read at ``version`` with seats ``players``:
    every later round replayed (``replays``) with the corrected inputs ``entered`` by number."""

    version: int
    players: tuple[str, ...]
    entered: dict[int, dict[str, object]]
    replayed: list[replays.Replayed]
    #: why the correction is refused, when it is (then nothing was replayed to keep)
    refused: Refusal | None = None

    def holds_for(self, session: SessionLike) -> bool:
        """Return True when this was worked out from the session as it is now (taken for the
        write): the same version and the same seats."""
        return self.version == session.version and self.players == tuple(session.players)


#: a correction's replay looking at more rounds than this gives the write lock back while it
#: is worked out, so no other write waits for it (``replace_rounds``)
SHORT_REPLAY = 32


def work_out(session: SessionLike, corrections: object, most: int | None = None) -> Correction:
    """Replay a session from its first corrected round; raises what a correction refuses.

    Only the rounds the replay must look at are read (``replays``): for a game whose end reads
    the running totals (a target score), every round from the first corrected one on (their
    deltas and state, and the input and result of those played again); for another, the
    corrected rounds and the rounds a changed state reaches. The session's version and seats
    are read first, so a write committed while the rest is read moves them on. With ``most``,
    a replay that would look at more rounds raises ``replays.LongReplay``.
    """
    version, players = session.version, tuple(session.players)
    wanted = correction_numbers(corrections, session.round_count)
    first = min(wanted)
    entered = {number: round_input(raw) for number, raw in wanted.items()}
    game, table = get_game(session.game), table_of(session)
    start = state_before(session, first)
    every = game.end_reads_totals(table)  # then every later round is looked at
    if most is not None and (session.round_count - first + 1 if every else len(entered)) > most:
        raise replays.LongReplay()
    later: later_rounds.LaterRounds
    if every:
        later = later_rounds.EveryRound(session.id, first)
        before = running_totals(session.totals, [row.deltas for row in later.rounds], -1)
    else:  # the totals before only move as far as the rounds' deltas do: any start will do
        later = later_rounds.CorrectedRounds(session.id, list(entered), session.round_count)
        before = dict.fromkeys(table.players, 0)
    replayed = replays.replay_changes(game, table, start, later, entered, before, most)
    return Correction(version, players, entered, replayed)


def worked_out_before_the_lock(
    session_id: object, corrections: object, version: int | writes.Precondition | None
) -> Correction | None:
    """Work a correction out before its write takes the lock, so its replay, however long,
    keeps no other write waiting (a refusal is kept too, to be raised under the lock); None when
    the session is missing or not at the version the client saw (the lock refuses it).

    Without the lock its reads may straddle another write's commit (PostgreSQL's READ
    COMMITTED, SQLite between statements): a rename landing between the seats and the rounds
    gives a table and states that disagree. Such a plan is never kept (the write's version moved
    on: ``Correction.holds_for``), and anything it raised but a refusal drops it (None): the
    correction is worked out again under the lock, where the same failure would be real.
    """
    try:
        session = hot_rows.read(session_id)
    except Refusal:
        return None
    seen = session.version
    expected = writes.precondition(version)
    if expected is not None and not expected.matches(str(seen)):
        return None
    try:
        return work_out(session, corrections)
    except Refusal as error:
        return Correction(seen, tuple(session.players), {}, [], refused=error)
    except SQLAlchemyError:
        raise
    except Exception as error:  # a read torn by another write: see the docstring
        log.warning(
            "session %s: a correction worked out before the lock failed (%s); "
            "worked out again under the lock",
            session.id,
            type(error).__name__,
        )
        return None


@writes.transaction()
def replace_rounds(
    session_id: object,
    corrections: object,
    *,
    version: int | writes.Precondition | None = None,
    key: str | None = None,
) -> SessionRow:
    """Replace the inputs of one or more rounds and replay from the first of them; all or nothing.

    A replay looking at no more than ``SHORT_REPLAY`` rounds is worked out under the write lock.
    A longer one gives the lock back and is worked out without it (its refusal too); under the
    lock again it is kept when the session is still at the version it was worked out from, else
    worked out again. Only the rounds corrected or whose input, result or state changed are
    written back, in one statement (a round whose only change is its state: its state alone).
    """
    with replays.collector_paused():
        return _replace_rounds(session_id, corrections, version, key)


def _replace_rounds(
    session_id: object,
    corrections: object,
    version: int | writes.Precondition | None,
    key: str | None = None,
) -> SessionRow:
    """Do ``replace_rounds`` (the cyclic garbage collector kept off meanwhile)."""
    target = idempotency.correction_target(corrections)
    digest = idempotency.digest_for(key, "replace_rounds", None, target)
    session = taken_for(session_id, key, digest, version)
    try:
        planned = work_out(session, corrections, SHORT_REPLAY)
    except replays.LongReplay:  # the lock given back while it is worked out (once)
        writes.give_back()
        early = worked_out_before_the_lock(session_id, corrections, version)
        session = taken_for(session_id, key, digest, version)
        held = early is not None and early.holds_for(session)  # no other write came between
        planned = early if early is not None and held else work_out(session, corrections)
    if planned.refused is not None:
        raise planned.refused
    entered, replayed = planned.entered, planned.replayed
    limits.grow(session, grown_by(replayed))

    with writes.converted():
        written = _rows_written(session, entered, replayed)
        replays.write_rounds(written.rows)
        running_shifts.add(session.id, running_shifts.of_replay(replayed, session.round_count))
        _close_or_reopen(session, replayed)
        store = hot_rows.CoreRows(session)
        figures.rounds_replaced(session, written.old_results, written.new_results, store)
        marks.rounds_rewritten(session, written.marked)
        idempotency.keep(session, key, digest, "replace_rounds", min(entered))
        writes.commit_write(session)
    last = replayed[-1] if replayed else None
    if last is not None and last.number == session.round_count:  # else its last state stands
        session.last_state = dict(last.state if last.changed else last.stored.state)
    return session


def taken_for(
    session_id: object,
    key: str | None,
    digest: str,
    version: int | writes.Precondition | None,
) -> SessionRow:
    """Take a session for a correction, refusing a key stored before or another version."""
    session = hot_rows.take(session_id)
    idempotency.check(session, key, digest)
    writes.check_version(session, version)
    return session


def _rows_written(
    session: SessionLike, entered: Mapping[int, object], replayed: list[replays.Replayed]
) -> RowsToWrite:
    """Return the rows a correction writes back, auditing each corrected round on the way."""
    now = utcnow()
    written = RowsToWrite()
    for item in replayed:
        corrected = item.number in entered
        written.add(item, corrected, now)
        if corrected:
            writes.audit(session, "replace_round", item.number, item.stored.input, item.entered)
    return written


def _close_or_reopen(session: SessionLike, replayed: list[replays.Replayed]) -> None:
    """Move the session's totals as far as its last round's; when that round was looked at,
    close the session if the game is over after it, else reopen it (a session the table ended
    stays ended). A last round not looked at kept its state, and the game's end does not read
    the totals (``work_out``): the session's end is as it was."""
    last = replayed[-1]
    session.totals = running_shifts.moved(
        session.totals, running_shifts.moved_by(last.totals, last.stored_totals)
    )
    if session.finished_by != "table" and last.number == session.round_count:
        if get_game(session.game).is_over(table_of(session), last.state, session.totals):
            close(session, "game")
        else:
            reopen(session)


def grown_by(replayed: list[replays.Replayed]) -> int:
    """Return the bytes a correction adds to its rounds: each round played again, its new
    input and result less the stored ones (their JSON text as kept, measured not re-encoded)."""
    return sum(item.grown for item in replayed)
