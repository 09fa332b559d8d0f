"""A player's figures read from whole sessions at once: the oracle the stored figures are
held to (refapp keeps figures a round at a time, through ``refapp.games.stats``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from refapp.games.game import running_totals
from refapp.games.stats import figures_from, record_from, round_tally, session_part
from refapp.games.tally import Tally, summed

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

    def place(self, name: str) -> int | None:
        """Return a player's place once the session counts (finished with a round), else None."""
        if not self.finished or not self.results:
            return None
        scores = self.totals
        return 1 + sum(1 for other in self.players if scores[other] > scores[name])


def totals(players: Iterable[str], results: Iterable[Result]) -> dict[str, int]:
    """Sum the deltas per player, every seated player included."""
    return running_totals(dict.fromkeys(players, 0), [r.get("deltas", {}) for r in results])


def sitting_part(name: str, sitting: Sitting) -> Tally:
    """Return one session's part in a player's figures, read from its results."""
    rounds = summed(round_tally(sitting.game, name, result) for result in sitting.results)
    place = sitting.place(name)
    return session_part(rounds, place == 1, place)


def record(name: str, sittings: Iterable[Sitting]) -> dict[str, Any]:
    """Return the figures every game shares, read from the sessions' results."""
    return record_from(summed(sitting_part(name, sitting) for sitting in sittings))


def figures(game: str, name: str, sittings: Iterable[Sitting]) -> dict[str, Any]:
    """Return a player's figures in one game, read from the sessions' results."""
    mine = [sitting for sitting in sittings if sitting.game == game]
    return figures_from(game, summed(sitting_part(name, sitting) for sitting in mine))
