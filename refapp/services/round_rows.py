"""The rows a correction writes back: each replayed round's new column values, assembled once.

One dict per row to write (input, result and state as JSON text, encoded once by the replay;
the round's answer as the API sends it; how far the running totals moved is kept apart, as
``running_shifts``). Rows of the same columns go in one statement (``replays.write_rounds``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from . import replays, stored_rounds


@dataclass
class RowsToWrite:
    """The rows a correction writes, and the results it replaced and wrote (for the figures)."""

    rows: list[dict[str, object]] = field(default_factory=list)
    old_results: list[Mapping[str, object]] = field(default_factory=list)
    new_results: list[Mapping[str, object]] = field(default_factory=list)
    #: the rounds played again whose results were written: their marks are set again
    marked: list[tuple[int, Mapping[str, object], datetime]] = field(default_factory=list)

    def add(self, item: replays.Replayed, corrected: bool, now: datetime) -> None:
        """Add a replayed round's row when something of it changed (nothing when none did)."""
        columns: dict[str, object] = {}
        if not corrected and item.changed and item.stored.answered and not item.outcome_changed:
            columns["state"] = item.state_text  # input, result, answer and figures as stored
        elif corrected or item.changed:
            columns.update(played_again(item, corrected, now))
            self.old_results.append(json.loads(item.stored.result_text or "{}"))
            assert item.outcome_result is not None
            self.new_results.append(item.outcome_result)
            self.marked.append((item.number, item.outcome_result, item.stored.recorded_at or now))
        if columns:
            self.rows.append({"row_id": item.stored.id, **columns})


def played_again(item: replays.Replayed, corrected: bool, now: datetime) -> dict[str, object]:
    """Return a round's columns after it was played again: input, result, state and answer
    (a corrected round is stamped ``now``; another keeps its stamp)."""
    assert item.outcome_input is not None and item.outcome_result is not None
    corrected_at = now if corrected else item.stored.corrected_at
    return {
        "input": item.input_text,
        "result": item.result_text,
        "state": item.state_text,
        "corrected_at": corrected_at,
        "answer": stored_rounds.answer_text(
            item.number,
            item.outcome_input,
            item.outcome_result,
            item.stored.recorded_at,
            corrected_at,
        ),
    }
