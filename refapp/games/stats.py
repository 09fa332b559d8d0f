"""A player's figures across sessions, per game, read from the rounds' stored results (pure).

Every figure counts what the stored results say, so it matches the score sheet: no Flask, no
database. Averages are rounded to two decimals and are None when there is nothing to average.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .game import leaders, running_totals
from .mighty import POINT_CARDS

Result = Mapping[str, Any]

#: the outcomes of a Mighty round in which a hand was played (not a misdeal, not all passed)
PLAYED_HANDS = ("ruling_win", "critic", "opposition_win")


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


def dixit(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Return the storyteller turns, how often some (not all, not none) found the card, the bonus.

    The vote bonus is averaged over the turns the player voted in (not their own as storyteller),
    as scored, so after any cap.
    """
    told = [result for result in results if result.get("storyteller") == name]
    some = sum(result.get("outcome") == "some_found" for result in told)
    bonuses = [
        result["vote_bonus"][name] for result in results if name in result.get("vote_bonus", {})
    ]
    return {
        "storyteller_turns": len(told),
        "some_found": some,
        "some_found_share": average(some, len(told)),
        "average_vote_bonus": average(sum(bonuses), len(bonuses)),
    }


def made(result: Result) -> bool:
    """Return True if the boss's contract was made: a win, or a critic that paid the ruling side."""
    outcome = result.get("outcome")
    return outcome == "ruling_win" or (outcome == "critic" and result.get("m", 0) > 0)


def mighty(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Return the hands as boss, contracts made, the average bid, times as friend, runs, back-runs.

    Runs (the ruling side took all 20 point cards) and back-runs (the opposition took at least
    the bid) count the hands the player was on the ruling side, as boss or friend.
    """
    hands = [result for result in results if result.get("outcome") in PLAYED_HANDS]
    led = [result for result in hands if result.get("boss") == name]
    ruling = [result for result in hands if name in (result.get("boss"), result.get("friend"))]
    return {
        "hands_played": len(hands),
        "hands_as_boss": len(led),
        "contracts_made": sum(made(result) for result in led),
        "average_bid": average(sum(result["contract"]["bid"] for result in led), len(led)),
        "times_as_friend": sum(result.get("friend") == name for result in hands),
        "runs": sum(result.get("ruling_points") == POINT_CARDS for result in ruling),
        "back_runs": sum(bool(result.get("back_run")) for result in ruling),
    }


def dalmuti(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Return the average finishing place (1 = first out) and the hands at either end of the ranks.

    The Greater Dalmuti and Greater Peasant are read from the ranks during the hand, so after a
    greater revolution; a revolution counts for the player who declared it.
    """
    hands = [result for result in results if name in result.get("ranks_after", ())]
    places = [result["ranks_after"].index(name) + 1 for result in hands]
    during = [result.get("ranks_during") or [] for result in hands]
    return {
        "hands_played": len(hands),
        "average_finish": average(sum(places), len(places)),
        "hands_as_greater_dalmuti": sum(ranks[:1] == [name] for ranks in during),
        "hands_as_greater_peasant": sum(ranks[-1:] == [name] for ranks in during),
        "revolutions": sum(result.get("revolution_by") == name for result in hands),
    }


#: each game's own figures, by slug
FIGURES: dict[str, Callable[[str, Sequence[Result]], dict[str, Any]]] = {
    "dalmuti": dalmuti,
    "mighty": mighty,
    "dixit": dixit,
}


def figures(game: str, name: str, sittings: Iterable[Sitting]) -> dict[str, Any]:
    """Return a player's figures in one game: the shared record, then the game's own."""
    sittings = [sitting for sitting in sittings if sitting.game == game]
    results = [result for sitting in sittings for result in sitting.results]
    own = FIGURES.get(game)
    return {**record(name, sittings), **(own(name, results) if own else {})}
