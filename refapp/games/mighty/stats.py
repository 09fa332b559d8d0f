"""A player's Mighty figures, read from the hands' stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..stats import average
from .cards import POINT_CARDS

#: the outcomes of a round in which a hand was played (not a misdeal, not all passed)
PLAYED_HANDS = ("ruling_win", "critic", "opposition_win")

Result = Mapping[str, Any]


def made(result: Result) -> bool:
    """Return True if the boss's contract was made: a win, or a critic that paid the ruling side."""
    outcome = result.get("outcome")
    return outcome == "ruling_win" or (outcome == "critic" and result.get("m", 0) > 0)


def figures(name: str, results: Sequence[Result]) -> dict[str, Any]:
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
