"""A correction's replay over the stored rounds: play what changed, keep what did not.

A round's outcome is a pure function of the table, the state before it and its input. So a later
round whose input was not corrected, and whose state before is the one stored, keeps its stored
input, result and state: it is not played again. One played again from another state keeps its
stored result where the game says that state cannot change it (``Game.replay_round``) and its
checked input is the stored one. Once a played round leaves the state stored after it, the
rest of the session only has its running totals and the game's end checked.
Only what that needs is read (``later_rounds``); how far the running totals
of the rounds after moved is kept apart (``running_shifts``), not written into each.
"""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Table as SqlTable
from sqlalchemy import Text, Update, bindparam, cast, update

from .. import stored_json
from ..games.errors import Refusal
from ..games.game import AnyGame, AnyOutcome, Outcome, Table, past_the_end, running_totals
from ..models import Round
from . import later_rounds, prepared


class CollectorPause:
    """Keeps Python's cyclic garbage collector off while any correction is worked out.

    A long replay builds a million small objects (inputs, results, states) that live until its
    write ends and hold no reference cycles (reference counting frees them). With the collector
    on, each new batch of them makes it walk all of them again: half of a long correction's
    time. Nested and concurrent pauses count, and the collector comes back on (if it was on
    before the first) when the last one ends.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.resume = False

    @contextmanager
    def held(self) -> Iterator[None]:
        """Keep the collector off for the block."""
        with self.lock:
            if self.depth == 0:
                self.resume = gc.isenabled()
                gc.disable()
            self.depth += 1
        try:
            yield
        finally:
            with self.lock:
                self.depth -= 1
                if self.depth == 0 and self.resume:
                    gc.enable()


#: the one pause every correction takes (``replace_rounds``)
collector_paused = CollectorPause().held


@dataclass(slots=True)
class Replayed:
    """A later round after the replay, with the running totals after it, replayed and stored.

    A round played again carries its new input, result and state, each encoded once as the
    database keeps JSON (compared, measured and written as such); ``entered`` is its input as
    checked (for the audit). A round not played again keeps its stored input, result and state
    (of which only its deltas and state were read): its texts are None.
    """

    stored: later_rounds.StoredRound
    state: Mapping[str, object]
    totals: dict[str, int]
    stored_totals: dict[str, int]
    entered: Mapping[str, object] | None = None
    input_text: str | None = None
    result_text: str | None = None
    state_text: str | None = None
    #: a round played again: its new input and result as values (its answer is made of them)
    outcome_input: Mapping[str, object] | None = None
    outcome_result: Mapping[str, object] | None = None

    @property
    def number(self) -> int:
        """Return the round's number."""
        return self.stored.number

    @property
    def played(self) -> bool:
        """Return True when the round was played again."""
        return self.input_text is not None

    @property
    def changed(self) -> bool:
        """Return True when the replay changed the round's input, result or state."""
        stored = self.stored
        return self.played and (
            self.input_text != stored.input_text
            or self.result_text != stored.result_text
            or self.state != stored.state
        )

    @property
    def outcome_changed(self) -> bool:
        """Return True when the replay changed the round's input or result (as stored text):
        a round played again whose only change is its state keeps its stored input, result,
        answer and figures, which are what they would be written again."""
        stored = self.stored
        return self.played and (
            self.input_text != stored.input_text or self.result_text != stored.result_text
        )

    @property
    def grown(self) -> int:
        """Return the bytes the round's new input and result add to the stored ones."""
        if not self.played:
            return 0
        new = len(self.input_text or "") + len(self.result_text or "")
        return new - len(self.stored.input_text or "") - len(self.stored.result_text or "")


class LongReplay(Exception):
    """A replay looks at more rounds than it was given (``replay_changes``'s ``most``)."""


def replay_changes(
    game: AnyGame,
    table: Table,
    state: Mapping[str, object],
    rounds: later_rounds.LaterRounds,
    corrected: Mapping[int, Mapping[str, object]],
    totals: Mapping[str, int],
    most: int | None = None,
) -> list[Replayed]:
    """Replay the later ``rounds`` (from the state and totals before the first) with the
    ``corrected`` inputs by round number; return every round looked at as replayed, in order.

    A round is played when its input was corrected or the state before it is no longer the
    stored one; any other keeps its stored outcome. Every round looked at is checked not to
    follow the game's end under the new running totals (``later_rounds.CorrectedRounds``
    looks at fewer: then ``totals`` may be any start, the game's end not reading them, and
    only how far each round's running totals moved holds). A broken rule is raised with its
    ``round``, as ``game.replay`` does. Past ``most`` rounds looked at, ``LongReplay`` is raised.
    """
    table = game.with_house_rules(table)  # typed once, not again for every round
    running, stored_running = dict(totals), dict(totals)
    replayed: list[Replayed] = []
    moved = False  # the state before the next round is no longer the stored one
    row: later_rounds.StoredRound | None = rounds.first()
    while row is not None:
        if most is not None and len(replayed) >= most:
            raise LongReplay()
        try:
            if game.is_over(table, state, running):
                raise past_the_end(row.number)
            outcome, texts = None, None
            if row.number in corrected:
                rounds.need(row)
                outcome = game.play(table, state, corrected[row.number])
            elif moved:
                outcome, texts = played_again(game, table, state, rounds.need(row))
        except Refusal as error:
            if error.round is None:
                error.round = row.number
            raise
        stored_running = running_totals(stored_running, [row.deltas])
        if outcome is None:
            running = running_totals(running, [row.deltas])
            state = row.state
            replayed.append(Replayed(row, state, running, stored_running))
            moved = False
        else:
            replayed.append(replayed_round(row, outcome, texts, running, stored_running, corrected))
            running, state = replayed[-1].totals, outcome.state
            moved = state != row.state
        row = rounds.after(row, moved)
        if row is not None and replayed[-1].number != row.number - 1:  # rounds passed over
            state = rounds.stored_state_before(row)
    return replayed


def replayed_round(
    row: later_rounds.StoredRound,
    outcome: AnyOutcome,
    texts: tuple[str, str] | None,
    running: Mapping[str, int],
    stored_running: dict[str, int],
    corrected: Mapping[int, object],
) -> Replayed:
    """Return a round played again as replayed, with the running totals after it."""
    # a stored result kept (texts) has the stored deltas: it need not be decoded for them
    totals = running_totals(running, [row.deltas if texts else outcome.result["deltas"]])
    input_text, result_text = texts or (
        stored_json.stored(outcome.input),
        stored_json.stored(outcome.result),
    )
    return Replayed(
        row,
        outcome.state,
        totals,
        stored_running,
        entered=outcome.input if row.number in corrected else None,
        input_text=input_text,
        result_text=result_text,
        state_text=stored_json.stored(outcome.state),
        outcome_input=outcome.input,
        outcome_result=outcome.result,
    )


class StoredResult(Mapping[str, object]):
    """A stored result as its JSON text, decoded only when a key of it is first read (a game
    keeping it may not read it at all)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.decoded: dict[str, object] | None = None

    def value(self) -> dict[str, object]:
        """Return the result decoded (once)."""
        if self.decoded is None:
            self.decoded = json.loads(self.text)
        return self.decoded

    def __getitem__(self, key: str) -> object:
        return self.value()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.value())

    def __len__(self) -> int:
        return len(self.value())


def played_again(
    game: AnyGame, table: Table, state: Mapping[str, object], row: later_rounds.StoredRound
) -> tuple[AnyOutcome, tuple[str, str] | None]:
    """Play a stored round again (its input not corrected) from another state before it.

    The game may keep the round's stored result (``Game.replay_round``): it is kept, with its
    stored text, only when the input checked is the stored one byte for byte, so the round is
    stored as playing it in full would; otherwise it is played in full. Returns the outcome and,
    when the stored result was kept, the texts of its input and result.
    """
    assert row.input is not None and row.input_text is not None and row.result_text is not None
    known = Outcome(row.input, StoredResult(row.result_text), row.state)
    outcome = game.replay_round(table, state, row.input, known)
    if outcome.result is not known.result:
        return outcome, None
    input_text = stored_json.stored(outcome.input)
    if input_text != row.input_text:
        return game.play(table, state, row.input), None
    return outcome, (input_text, row.result_text)


#: the columns a replay gives as JSON text already encoded (``Replayed``): written as they are
ENCODED = ("input", "result", "state")


def write_rounds(rows: Sequence[Mapping[str, object]]) -> None:
    """Write the replayed rounds' new column values: one executemany UPDATE by row id for each
    set of columns the rows name (a correction's rows usually name one).

    Each row maps ``row_id`` and the columns it sets; those named in ENCODED hold their JSON
    text, stored as it is rather than encoded again.
    """
    groups: dict[tuple[str, ...], list[Mapping[str, object]]] = {}
    for row in rows:
        groups.setdefault(tuple(key for key in row if key != "row_id"), []).append(row)
    for keys, group in groups.items():
        prepared.run(
            f"rounds {keys}",
            update_of(keys),
            [
                {"row_id": row["row_id"], **{f"new_{key}": row[key] for key in keys}}
                for row in group
            ],
        )


def update_of(keys: Sequence[str]) -> Update:
    """Return the UPDATE of these Round columns by row id, their values bound as ``new_<key>``,
    made once for each set of columns and database.

    Core, not the ORM's bulk update: no Round object of a correction is loaded (the commit
    expires any loaded before), so there is nothing to keep in step.
    """
    sqlite = prepared.connection().dialect.name == "sqlite"
    found = UPDATES.get((tuple(keys), sqlite))
    if found is None:
        rounds = Round.__table__
        assert isinstance(rounds, SqlTable)  # a mapped class's table
        values: dict[str, object] = {}
        for key in keys:
            column = rounds.c[key]
            value: object = bindparam(f"new_{key}", type_=Text if key in ENCODED else column.type)
            if key in ENCODED and not sqlite:  # SQLite keeps JSON as text; others read it as JSON
                value = cast(value, column.type)
            values[key] = value
        found = update(rounds).where(rounds.c.id == bindparam("row_id")).values(values)
        UPDATES[(tuple(keys), sqlite)] = found
    return found


#: the UPDATEs of rounds made so far, by their columns and whether the database is SQLite
UPDATES: dict[tuple[tuple[str, ...], bool], Update] = {}
