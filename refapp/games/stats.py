"""A player's figures across sessions, per game, read from the rounds' stored results (pure).

Every figure counts what the stored results say, so it matches the score sheet: no Flask, no
database. Averages are rounded to two decimals and are None when there is nothing to average.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .game import leaders, running_totals
from .registry import get_game

Result = Mapping[str, Any]


@dataclass(frozen=True)
class Sitting:
    """One session as the figures read it: game, seats, whether it ended, its rounds' results."""

    game: str
    players: Sequence[str]
    finished: bool
    results: Sequence[Result]

    @property
    def totals(self) -> dict[str, int]:
        """Sum the rounds' deltas per seated player (zeros included)."""
        return totals(self.players, self.results)

    @property
    def winners(self) -> list[str]:
        """Return the players on the highest total of a finished session (none while it runs)."""
        return leaders(self.totals) if self.finished else []


def totals(players: Iterable[str], results: Iterable[Result]) -> dict[str, int]:
    """Sum the deltas per player, every seated player included."""
    return running_totals(dict.fromkeys(players, 0), [r.get("deltas", {}) for r in results])


def average(total: float, count: int) -> float | None:
    """Return total / count rounded to two decimals, or None when there is nothing to count."""
    return round(total / count, 2) if count else None


def record(name: str, sittings: Iterable[Sitting]) -> dict[str, Any]:
    """Return the figures every game shares: sessions played and won, rounds, points per round.

    A session is played when the player is seated at it, won when it is finished and the player
    is among its winners; every stored round counts, Mighty's misdeals and all-pass rounds too.
    """
    sittings = list(sittings)
    rounds = sum(len(sitting.results) for sitting in sittings)
    points = sum(sitting.totals.get(name, 0) for sitting in sittings)
    return {
        "sessions_played": len(sittings),
        "sessions_won": sum(name in sitting.winners for sitting in sittings),
        "rounds_played": rounds,
        "points": points,
        "average_points": average(points, rounds),
    }


def figures(game: str, name: str, sittings: Iterable[Sitting]) -> dict[str, Any]:
    """Return a player's figures in one game: the shared record, then the game's own."""
    sittings = [sitting for sitting in sittings if sitting.game == game]
    results = [result for sitting in sittings for result in sitting.results]
    return {**record(name, sittings), **get_game(game).figures(name, results)}
