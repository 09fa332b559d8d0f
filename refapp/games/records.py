"""Records: the marks a round or a counted session sets, each a candidate for a record of its
game (pure). A record is the highest mark of its key in its game (the lowest for
``worst_round``); ties go to whoever set it first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Mark:
    """A value a player set: one round's points, a contract made, a session's final total."""

    key: str
    value: int
    player: str


#: the records every game keeps (a game adds its own: ``Game.record_keys``)
SHARED_KEYS = ("highest_total", "best_round", "worst_round")
#: the records the lowest mark holds
LOWEST = frozenset({"worst_round"})


def round_marks(result: Mapping[str, object]) -> list[Mark]:
    """Return the best and the worst one player scored in a round (the first seated on a tie)."""
    deltas = result.get("deltas")
    if not isinstance(deltas, (dict, Mapping)) or not deltas:
        return []
    scores = {str(name): int(value) for name, value in deltas.items()}
    best = max(scores, key=lambda name: scores[name])
    worst = min(scores, key=lambda name: scores[name])
    return [Mark("best_round", scores[best], best), Mark("worst_round", scores[worst], worst)]


def total_mark(players: Sequence[str], totals: Mapping[str, int]) -> Mark | None:
    """Return a counted session's highest final total (the first seated on a tie)."""
    if not players:
        return None
    best = max(players, key=lambda name: totals.get(name, 0))
    return Mark("highest_total", totals.get(best, 0), best)
