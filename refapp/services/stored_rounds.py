"""What every write keeps beside a round: its API answer as JSON text and the running totals.

A read then sends the stored text as it is (no decoding, no rebuilding), and the chart draws a
bounded sample of the stored running totals, whatever the session's length.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import bindparam, delete, insert, select

from .. import stored_json
from . import prepared
from .rows import ROUND


def iso(moment: datetime | None) -> str | None:
    """Write a stored time as ISO 8601 UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def round_object(
    number: int,
    entered: Mapping[str, Any],
    result: Mapping[str, Any],
    recorded_at: datetime | None,
    corrected_at: datetime | None,
) -> dict[str, Any]:
    """Return the API's round object (the explanation in English; its templates stay for pages)."""
    return {
        "number": number,
        "input": entered,
        "result": {key: value for key, value in result.items() if key != "explanation_parts"},
        "recorded_at": iso(recorded_at),
        "corrected_at": iso(corrected_at),
    }


def answer_text(
    number: int,
    entered: Mapping[str, Any],
    result: Mapping[str, Any],
    recorded_at: datetime | None,
    corrected_at: datetime | None,
) -> str:
    """Return the round object as the JSON text stored with the round and sent as it is."""
    return stored_json.stored(round_object(number, entered, result, recorded_at, corrected_at))


def running_after(totals: Mapping[str, int], deltas: Mapping[str, int]) -> dict[str, int]:
    """Return every player's running total after a round with these deltas."""
    return {name: total + deltas.get(name, 0) for name, total in totals.items()}


class Stored(Protocol):
    """A stored round as the ORM holds it: what its answer and running totals are made from."""

    number: int
    input: dict[str, Any]
    result: dict[str, Any]
    recorded_at: datetime
    corrected_at: datetime | None
    answer: str | None
    running: dict[str, int] | None


def rewrite(rounds: Iterable[Stored], players: Iterable[str]) -> None:
    """Set every round's answer and running totals again, in order (after a rename)."""
    totals = dict.fromkeys(players, 0)
    for played in rounds:
        totals = running_after(totals, played.result["deltas"])
        played.running = totals
        played.answer = answer_text(
            played.number, played.input, played.result, played.recorded_at, played.corrected_at
        )


# -- a hot write's rounds, below the ORM -----------------------------------------------------------


class Recorded(Protocol):
    """A round a record just made: its number, input, result, state and time."""

    @property
    def number(self) -> int: ...
    @property
    def input(self) -> dict[str, Any]: ...
    @property
    def result(self) -> dict[str, Any]: ...
    @property
    def state(self) -> dict[str, Any]: ...
    @property
    def recorded_at(self) -> datetime: ...


#: a round's INSERT (made once; sent with the columns a round is inserted with)
INSERT_ROUND = insert(ROUND)


def insert_round(session_id: int, played: Recorded, running: dict[str, int]) -> None:
    """Insert a round just recorded, with its answer and the running totals after it."""
    answer = answer_text(played.number, played.input, played.result, played.recorded_at, None)
    row = {
        "session_id": session_id,
        "number": played.number,
        "input": played.input,
        "result": played.result,
        "state": played.state,
        "recorded_at": played.recorded_at,
        "answer": answer,
        "running": running,
    }
    prepared.run("round", INSERT_ROUND, row, list(row))


@dataclass(frozen=True, slots=True)
class Undone:
    """The last round as an undo reads it: its row id, input, result and time."""

    id: int
    input: dict[str, Any]
    result: dict[str, Any]
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class Before:
    """The round before the one an undo takes out: when it was recorded and the state it left."""

    recorded_at: datetime
    state: dict[str, Any] | None


#: the last round and the one before (its time and state), in one read
LAST_TWO = select(
    ROUND.c.id, ROUND.c.number, ROUND.c.input, ROUND.c.result, ROUND.c.recorded_at, ROUND.c.state
).where(
    ROUND.c.session_id == bindparam("id"), ROUND.c.number.in_(bindparam("numbers", expanding=True))
)


def last_two(session_id: int, number: int) -> tuple[Undone, Before | None]:
    """Return round ``number`` (the last) and the round before it (None: there is none)."""
    rows = prepared.connection().execute(
        LAST_TWO, {"id": session_id, "numbers": [number - 1, number]}
    )
    found = {row.number: row for row in rows}
    last = found[number]
    before = found.get(number - 1)
    undone = Undone(last.id, last.input, last.result, last.recorded_at)
    return undone, None if before is None else Before(before.recorded_at, before.state)


def delete_round(row_id: int) -> None:
    """Delete one round by its row id."""
    prepared.connection().execute(delete(ROUND).where(ROUND.c.id == row_id))
