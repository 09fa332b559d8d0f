"""A player's Dalmuti figures, counted hand by hand from the stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping

from ..stats import average
from ..tally import Figures, Tally
from .shapes import DalmutiResult

Result = DalmutiResult


def tally(name: str, result: Result) -> Tally:
    """Return what one hand adds: played, the place (1 = first out), either end, a revolution.

    The Greater Dalmuti and Greater Peasant are read from the ranks during the hand, so after a
    greater revolution; a revolution counts for the player who declared it.
    """
    ranks = result.get("ranks_after") or ()
    if name not in ranks:
        return {}
    during = result.get("ranks_during") or []
    return {
        "hands_played": 1,
        "place_sum": list(ranks).index(name) + 1,
        "hands_as_greater_dalmuti": int(during[:1] == [name]),
        "hands_as_greater_peasant": int(during[-1:] == [name]),
        "revolutions": int(result.get("revolution_by") == name),
    }


def figures_from(counted: Mapping[str, int]) -> Figures:
    """Return the hands played, the average finishing place, the hands at either end of ranks."""
    hands = counted.get("hands_played", 0)
    return {
        "hands_played": hands,
        "average_finish": average(counted.get("place_sum", 0), hands),
        "hands_as_greater_dalmuti": counted.get("hands_as_greater_dalmuti", 0),
        "hands_as_greater_peasant": counted.get("hands_as_greater_peasant", 0),
        "revolutions": counted.get("revolutions", 0),
    }
