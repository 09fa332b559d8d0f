"""Tallies: the counters a round adds to a player's figures, added and taken out again (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: counters by name (rounds played, points, a game's own); a missing counter is zero
Tally = dict[str, int]
#: a player's figures in a game by name: counts, and averages (None with nothing to average)
Figures = dict[str, int | float | None]


def added(tally: Mapping[str, int], more: Mapping[str, int], sign: int = 1) -> Tally:
    """Return tally plus (sign 1) or minus (sign -1) more, as a new tally without zeros."""
    total = dict(tally)
    for key, value in more.items():
        total[key] = total.get(key, 0) + sign * value
    if 0 in total.values():  # rarely: a counter that came to zero (or was zero) is left out
        return {key: value for key, value in total.items() if value}
    return total


def summed(tallies: Iterable[Mapping[str, int]]) -> Tally:
    """Return the sum of tallies."""
    total: Tally = {}
    for tally in tallies:
        total = added(total, tally)
    return total
