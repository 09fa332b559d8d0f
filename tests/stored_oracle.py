"""What a session keeps without reading its rows, counted again from them: the tests' oracle.

The services keep a session's audit count, stored bytes and each round's running totals as they
write; these count them afresh (the entries, the JSON as the database holds it, the deltas added
up), so a test compares the kept figure with the rows it stands for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Text, cast, func, select

from refapp.extensions import db
from refapp.models import AuditEntry, Round
from refapp.services.limits import ENTRY_OVERHEAD, ROUND_OVERHEAD
from refapp.services.stored_rounds import running_after


def running_series(
    start: Mapping[str, int], deltas: Iterable[Mapping[str, int]]
) -> list[dict[str, int]]:
    """Return the running totals after each of a run of rounds, from the totals before them."""
    series, totals = [], dict(start)
    for changes in deltas:
        totals = running_after(totals, changes)
        series.append(totals)
    return series


def entry_count(session_id: int) -> int:
    """Return how many audit entries a session holds."""
    query = select(func.count(AuditEntry.id)).where(AuditEntry.session_id == session_id)
    return db.session.scalar(query) or 0


def json_length(column: Any) -> Any:
    """Return the SQL length of a JSON column's stored text (0 when null)."""
    return func.coalesce(func.length(cast(column, Text)), 0)


def stored_bytes(session_id: int) -> int:
    """Return the bytes a session's rounds and trail hold, counted from its rows: what
    ``GameSession.stored_bytes`` keeps without reading them (``services/limits.py``)."""
    rounds = select(
        func.coalesce(
            func.sum(json_length(Round.input) + json_length(Round.result) + ROUND_OVERHEAD), 0
        )
    ).where(Round.session_id == session_id)
    entries = select(
        func.coalesce(
            func.sum(
                json_length(AuditEntry.before) + json_length(AuditEntry.after) + ENTRY_OVERHEAD
            ),
            0,
        )
    ).where(AuditEntry.session_id == session_id)
    return int(db.session.scalar(rounds) or 0) + int(db.session.scalar(entries) or 0)
