"""What every write keeps beside a round: its API answer as JSON text and the running totals.

A read then sends the stored text as it is (no decoding, no rebuilding), and the chart draws a
bounded sample of the stored running totals, whatever the session's length.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, Protocol


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


def encode(value: Any) -> str:
    """Return value as the compact JSON text the API sends (keys in their stored order)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def answer_text(
    number: int,
    entered: Mapping[str, Any],
    result: Mapping[str, Any],
    recorded_at: datetime | None,
    corrected_at: datetime | None,
) -> str:
    """Return the round object as the JSON text stored with the round and sent as it is."""
    return encode(round_object(number, entered, result, recorded_at, corrected_at))


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
