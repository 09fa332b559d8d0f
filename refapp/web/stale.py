"""A stale entry, side by side: the round another phone recorded first and the kept entry, with
what the kept entry would score as the next round. The table chooses: record it or discard it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import services
from ..games.errors import Refusal


@dataclass
class Side:
    """One side of the comparison: a round's number, its deltas, or why it cannot be scored."""

    number: int
    deltas: dict[str, int] = field(default_factory=dict)
    refusal: str | None = None


@dataclass
class StaleChoice:
    """What another phone recorded (``theirs``) and the kept entry as the next round (``mine``)."""

    theirs: Side
    mine: Side


def compare(session_id: int, body: dict[str, Any], count: int) -> StaleChoice:
    """Describe the last stored round and the kept entry checked as round ``count + 1``."""
    rows = services.round_rows(session_id, count - 1, count)
    theirs = Side(count, deltas_of(rows[-1].result) if rows else {})
    mine = Side(count + 1)
    entry = {key: value for key, value in body.items() if key != "expected_round"}
    try:
        mine.deltas = deltas_of(services.check_round(session_id, entry)["result"])
    except Refusal as error:
        mine.refusal = error.message  # shown by the side; recording it would be refused too
    return StaleChoice(theirs, mine)


def deltas_of(result: Any) -> dict[str, int]:
    """Return a round result's points per player (none for a partial check)."""
    deltas = result.get("deltas") if isinstance(result, dict) else None
    return dict(deltas) if isinstance(deltas, dict) else {}
