"""A player's Dalmuti figures, read from the hands' stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..stats import average

Result = Mapping[str, Any]


def figures(name: str, results: Sequence[Result]) -> dict[str, Any]:
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
