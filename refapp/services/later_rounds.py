"""The later rounds a correction's replay looks at, read only as far as it needs them.

``EveryRound``: every round after the first corrected one (their deltas and state at once), for a
game whose end reads the running totals. ``CorrectedRounds``: the corrected rounds and the
rounds a changed state reaches, for any other game: the rounds between are neither read nor
played again. Both read the input, result and times of a round played again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Text, bindparam, cast, select

from ..models import Round
from . import prepared

#: how many rounds' inputs and results are read at once where the replay first plays one; each
#: further read of the same replay takes twice as many, up to MOST_READ
FIRST_READ = 8
MOST_READ = 1024


@dataclass(slots=True)
class StoredRound:
    """A later round as stored: its deltas and state, and once read (a round played again)
    its input (decoded), its input and result as the database keeps them (JSON text), its
    times and whether it keeps its API answer (a round stored before answers were kept has
    none)."""

    id: int
    number: int
    deltas: dict[str, int]
    state: dict[str, object]
    input: dict[str, object] | None = None
    input_text: str | None = None
    result_text: str | None = None
    recorded_at: datetime | None = None
    corrected_at: datetime | None = None
    answered: bool = True


def stored_rounds(session_id: int, first: int) -> list[StoredRound]:
    """Return a session's rounds from ``first`` on, in order: deltas and state only."""
    rows = prepared.run("later rounds", LATER, {"id": session_id, "first": first})
    return [StoredRound(*row) for row in rows]


#: a session's rounds from one on, in order: their row id, number, deltas and state
LATER = (
    select(Round.id, Round.number, Round.result["deltas"], Round.state)
    .where(Round.session_id == bindparam("id"), Round.number >= bindparam("first"))
    .order_by(Round.number)
)


class EveryRound:
    """Every later round, its deltas and state read at once, looked at in turn: for a game whose
    end reads the running totals (each round's end is checked with them). The inputs, results
    and times of the rounds played are read ahead in growing batches."""

    def __init__(self, session_id: int, first: int) -> None:
        self.session_id = session_id
        self.rounds = stored_rounds(session_id, first)
        self.read_to = 0  # rounds[:read_to] were read or passed over
        self.batch = FIRST_READ

    def first(self) -> StoredRound:
        """Return the first round to look at."""
        return self.rounds[0]

    def after(self, row: StoredRound, moved: bool) -> StoredRound | None:
        """Return the round to look at after ``row`` (every one, in order)."""
        at = row.number - self.rounds[0].number + 1
        return self.rounds[at] if at < len(self.rounds) else None

    def need(self, row: StoredRound) -> StoredRound:
        """Return ``row`` with its input and result read."""
        at = row.number - self.rounds[0].number
        if at >= self.read_to:
            wanted = self.rounds[at : at + self.batch]
            by_number = {row.number: row for row in wanted}
            for found in read_whole(self.session_id, wanted[0].number, wanted[-1].number):
                kept = by_number[found.number]
                kept.input, kept.input_text, kept.result_text = (
                    found.input,
                    found.input_text,
                    found.result_text,
                )
                kept.recorded_at, kept.corrected_at = found.recorded_at, found.corrected_at
                kept.answered = found.answered
            self.read_to = at + len(wanted)
            self.batch = min(2 * self.batch, MOST_READ)
        return self.rounds[at]

    def stored_state_before(self, row: StoredRound) -> Mapping[str, object]:
        """Return the state stored with the round before ``row``."""
        return self.rounds[row.number - self.rounds[0].number - 1].state


class CorrectedRounds:
    """Only the rounds a correction must look at, read whole when first looked at: each
    corrected round, and after one that left another state than the stored one the rounds
    that follow until one leaves its stored state again (read ahead in growing batches). The
    rounds between keep their stored input, result and state: for a game whose end does not
    read the running totals, they are neither read nor checked again."""

    def __init__(self, session_id: int, corrected: Sequence[int], last: int) -> None:
        self.session_id = session_id
        self.corrected = sorted(corrected)
        self.last = last
        self.read: dict[int, StoredRound] = {}
        self.batch = FIRST_READ

    def first(self) -> StoredRound:
        """Return the first corrected round."""
        return self.whole(self.corrected[0], 1)

    def after(self, row: StoredRound, moved: bool) -> StoredRound | None:
        """Return the round to look at after ``row``: the next one when the state before it is
        no longer the stored one, else the next corrected round (None: none is left)."""
        if moved and row.number < self.last:
            found = self.whole(row.number + 1, self.batch)
            self.batch = min(2 * self.batch, MOST_READ)
            return found
        self.batch = FIRST_READ
        later = [number for number in self.corrected if number > row.number]
        if not later:
            return None
        if later[0] - 1 == row.number:
            return self.whole(later[0], 1)
        self.whole(later[0] - 1, 2)  # with the round before it: the state it starts from
        return self.whole(later[0], 1)  # read already, unless the round before was read ahead

    def stored_state_before(self, row: StoredRound) -> Mapping[str, object]:
        """Return the state stored with the round before ``row`` (read with it)."""
        return self.read[row.number - 1].state

    def need(self, row: StoredRound) -> StoredRound:
        """Return ``row`` (read whole already)."""
        return row

    def whole(self, number: int, ahead: int) -> StoredRound:
        """Return round ``number`` read whole, reading it with the ``ahead`` - 1 after it."""
        if number not in self.read:
            last = min(number + ahead - 1, self.last)
            self.read.update((row.number, row) for row in read_whole(self.session_id, number, last))
        return self.read[number]


#: the rounds a replay looks at (``EveryRound``, ``CorrectedRounds``)
LaterRounds = EveryRound | CorrectedRounds


def read_whole(session_id: int, first: int, last: int) -> list[StoredRound]:
    """Return a session's rounds ``first`` to ``last`` read whole (their input decoded)."""
    rows = prepared.run("whole rounds", WHOLE, {"id": session_id, "first": first, "last": last})
    return [
        StoredRound(row_id, number, deltas, state, json.loads(text), text, result, *rest)
        for row_id, number, deltas, state, text, result, *rest in rows
    ]


#: a session's rounds from one to another: row id, number, deltas, state, input and result (as
#: stored text), times and whether each keeps its answer
WHOLE = (
    select(
        Round.id,
        Round.number,
        Round.result["deltas"],
        Round.state,
        cast(Round.input, Text),
        cast(Round.result, Text),
        Round.recorded_at,
        Round.corrected_at,
        Round.answer.is_not(None),
    )
    .where(
        Round.session_id == bindparam("id"),
        Round.number.between(bindparam("first"), bindparam("last")),
    )
    .order_by(Round.number)
)
