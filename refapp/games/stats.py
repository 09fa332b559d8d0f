"""A player's figures across sessions, per game, read from the rounds' stored results (pure).

Every figure counts what the stored results say, so it matches the score sheet: no Flask, no
database. Each round adds counters to a tally per seated player (``round_tally``); a seat's
tally plus whether its session was won is the session's part (``session_part``); a player's
figures in a game come from the sum of their sessions' parts (``figures_from``), so stored sums
can be kept up to date a round at a time. Averages are rounded to two decimals and are None
when there is nothing to average.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .registry import get_game
from .tally import Figures, Tally, added

#: a round's result as stored (any game's)
Result = Mapping[str, object]


def average(total: float, count: int) -> float | None:
    """Return total / count rounded to two decimals, or None when there is nothing to count."""
    return round(total / count, 2) if count else None


def round_tally(game: str, name: str, result: Result) -> Tally:
    """Return what one round adds for a seated player: a round played, its points, the game's own.

    Every stored round counts, Mighty's misdeals and all-pass rounds too.
    """
    deltas = result.get("deltas")
    points = deltas.get(name, 0) if isinstance(deltas, (dict, Mapping)) else 0
    shared = {"rounds_played": 1, "points": points}
    return added(shared, get_game(game).tally(name, result))


def seat_tallies(game: str, players: Sequence[str], results: Iterable[Result]) -> dict[str, Tally]:
    """Return each seated player's tally of a session's rounds, reading each result once."""
    tallies: dict[str, Tally] = {name: {} for name in players}
    for result in results:
        for name in players:
            tallies[name] = added(tallies[name], round_tally(game, name, result))
    return tallies


def session_part(
    tally: Mapping[str, int], won: bool, place: int | None = None, seconds: int = 0
) -> Tally:
    """Return a session's part in a player's figures: played, its playing time and its rounds'
    tally; once it counts (``place`` given), counted, the place and whether it was won."""
    part = {"sessions_played": 1, "sessions_won": int(won), "played_seconds": seconds}
    if place is not None:
        part.update(sessions_counted=1, session_place_sum=place)
    return added(tally, part)


def record_from(tally: Mapping[str, int]) -> Figures:
    """Return the figures every game shares from summed session parts: sessions, rounds, points.

    A session is played when the player is seated at it, counted once it is finished or idle
    (games/standings.py), and won when it counts and the player is in first place.
    """
    rounds = tally.get("rounds_played", 0)
    points = tally.get("points", 0)
    counted = tally.get("sessions_counted", 0)
    won = tally.get("sessions_won", 0)
    return {
        "sessions_played": tally.get("sessions_played", 0),
        "sessions_won": won,
        "sessions_counted": counted,
        "win_rate": average(won, counted),
        "average_place": average(tally.get("session_place_sum", 0), counted),
        "hours": round(tally.get("played_seconds", 0) / 3600, 2),
        "rounds_played": rounds,
        "points": points,
        "average_points": average(points, rounds),
    }


def figures_from(game: str, tally: Mapping[str, int]) -> Figures:
    """Return a player's figures in one game from summed session parts: shared, then the game's."""
    return {**record_from(tally), **get_game(game).figures_from(tally)}
