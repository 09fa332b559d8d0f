"""Running shifts: the running totals a correction moved, kept as one vector over a range.

A round stores every player's running total after it (the chart draws them). A correction that
changes a round's deltas but not the state after it moves the running totals of every later
round by one vector; rewriting those rounds would make a correction's cost grow with the
session. Instead the correction keeps ``(first, last, by)``: rounds ``first`` to ``last`` have
``by`` added to what they store. The chart reads them in its own statement and adds them back
(``applied``; ``shifted`` reads them alone); an undo cuts them at the new last round (``cut``),
so a round recorded again is not moved; a rename, which writes every round's totals again,
drops them (``dropped``); past ``MOST`` they are folded into the rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.sql import bindparam

from ..extensions import db
from ..games.tally import added, summed
from ..models import Round, RunningShift
from . import prepared, replays

#: a session keeps at most this many shifts: one more folds them all into its rounds
MOST = 64


class Shift(NamedTuple):
    """Rounds ``first`` to ``last`` (numbers) have ``by`` added to their stored running totals."""

    first: int
    last: int
    by: dict[str, int]


def ranges(moved: Sequence[tuple[int, dict[str, int]]], last: int) -> list[Shift]:
    """Return the shifts of a correction from the rounds it looked at, in order: each round's
    number and how far its running totals moved, which holds up to the next one looked at (the
    rounds between keep their stored deltas) and, from the last, to round ``last``."""
    shifts: list[Shift] = []
    ends = [number - 1 for number, _by in moved[1:]] + [last]
    for (number, by), end in zip(moved, ends, strict=True):
        if not any(by.values()):
            continue
        if shifts and shifts[-1].by == by and shifts[-1].last == number - 1:
            shifts[-1] = Shift(shifts[-1].first, end, by)
        else:
            shifts.append(Shift(number, end, by))
    return shifts


def of_replay(replayed: Sequence[replays.Replayed], last: int) -> list[Shift]:
    """Return how far a correction's replay moved the running totals, up to round ``last``."""
    return ranges(
        [(item.number, moved_by(item.totals, item.stored_totals)) for item in replayed], last
    )


def moved_by(totals: Mapping[str, int], stored: Mapping[str, int]) -> dict[str, int]:
    """Return how far running ``totals`` are from the ``stored`` ones, player by player."""
    return {name: total - stored.get(name, 0) for name, total in totals.items()}


def moved(running: Mapping[str, int], by: Mapping[str, int]) -> dict[str, int]:
    """Return running totals with a shift's vector added (in the running totals' own order)."""
    return {name: total + by.get(name, 0) for name, total in running.items()}


def add(session_id: int, shifts: Sequence[Shift]) -> None:
    """Keep a correction's shifts; fold the session's shifts into its rounds past ``MOST``."""
    if not shifts:
        return
    rows = [
        {"session_id": session_id, "first_number": s.first, "last_number": s.last, "by": s.by}
        for s in shifts
    ]
    prepared.run("running shifts added", ADD, rows, list(rows[0]))
    (count,) = prepared.run("running shifts counted", COUNT, {"id": session_id})[0]
    if count > MOST:
        fold(session_id)


def cut(session_id: int, last: int) -> None:
    """End every shift at round ``last`` (an undo): a round recorded after it is not moved."""
    prepared.run("running shifts cut", CUT, {"shifted": session_id, "kept": last})


def held(session_id: int) -> list[Shift]:
    """Return a session's shifts."""
    return [Shift(*row) for row in prepared.run("running shifts", HELD, {"id": session_id})]


def shifted(
    session_id: int, points: Sequence[tuple[int, dict[str, int]]]
) -> list[tuple[int, dict[str, int]]]:
    """Return rounds' stored running totals (number, totals) with the session's shifts added."""
    return applied(held(session_id), points)


def applied(
    shifts: Sequence[Shift], points: Sequence[tuple[int, dict[str, int]]]
) -> list[tuple[int, dict[str, int]]]:
    """Return rounds' stored running totals (number, totals) with these shifts added."""
    if not shifts:
        return list(points)
    return [(number, moved(running, total_of(shifts, number))) for number, running in points]


def total_of(shifts: Sequence[Shift], number: int) -> dict[str, int]:
    """Return the sum of the shifts that hold for round ``number``."""
    return summed(shift.by for shift in shifts if shift.first <= number <= shift.last)


def fold(session_id: int) -> None:
    """Write a session's shifts into its rounds' running totals and forget them."""
    shifts = held(session_id)
    begins = sorted(shifts, key=lambda shift: shift.first)
    ends = sorted(shifts, key=lambda shift: shift.last)
    by: dict[str, int] = {}
    rows = []
    for row_id, number, running in prepared.run(
        "running to fold",
        STORED,
        {"id": session_id, "first": begins[0].first, "last": ends[-1].last},
    ):  # in order: ``by`` adds the shifts begun by this round and not ended before it
        while begins and begins[0].first <= number:
            by = added(by, begins.pop(0).by, 1)
        while ends and ends[0].last < number:
            by = added(by, ends.pop(0).by, -1)
        if any(by.values()):
            rows.append({"row_id": row_id, "running": moved(running, by)})
    replays.write_rounds(rows)
    prepared.run("running shifts folded", FOLDED, {"id": session_id})


def dropped(session_id: int) -> None:
    """Forget a session's shifts: its rounds' running totals were all written again (ORM)."""
    db.session.execute(delete(RunningShift).where(RunningShift.session_id == session_id))


#: a correction's shifts, several rows at once
ADD = insert(RunningShift)
COUNT = select(func.count(RunningShift.id)).where(RunningShift.session_id == bindparam("id"))
HELD = (
    select(RunningShift.first_number, RunningShift.last_number, RunningShift.by)
    .where(RunningShift.session_id == bindparam("id"))
    .order_by(RunningShift.id)
)
CUT = (
    update(RunningShift)
    .where(
        RunningShift.session_id == bindparam("shifted"),
        RunningShift.last_number > bindparam("kept"),
    )
    .values(last_number=bindparam("kept"))
)
STORED = (
    select(Round.id, Round.number, Round.running)
    .where(
        Round.session_id == bindparam("id"),
        Round.number.between(bindparam("first"), bindparam("last")),
    )
    .order_by(Round.number)
)
FOLDED = delete(RunningShift).where(RunningShift.session_id == bindparam("id"))
