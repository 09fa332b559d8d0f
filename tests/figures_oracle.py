"""The figures as refapp computed them before they were stored: every result read at once.

Kept word for word as the oracle the stored, tally-summed figures are compared with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from refapp.games.game import leaders
from refapp.games.mighty.cards import POINT_CARDS

Result = Mapping[str, Any]
PLAYED_HANDS = ("ruling_win", "critic", "opposition_win")


def average(total: float, count: int) -> float | None:
    """Return total / count rounded to two decimals, or None."""
    return round(total / count, 2) if count else None


def dalmuti(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Dalmuti figures as computed before."""
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


def dixit(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Dixit figures as computed before."""
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
    """Mighty: a win, or a critic that paid the ruling side."""
    outcome = result.get("outcome")
    return outcome == "ruling_win" or (outcome == "critic" and result.get("m", 0) > 0)


def mighty(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Mighty figures as computed before."""
    out = [result for result in results if name in result.get("killed", [])]
    rested = [result for result in results if name in result.get("resting", [])]
    hands = [
        result
        for result in results
        if result.get("outcome") in PLAYED_HANDS and not any(result is r for r in out + rested)
    ]
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
        "hands_killed": len(out),
        "hands_rested": len(rested),
    }


OWN = {"dalmuti": dalmuti, "dixit": dixit, "mighty": mighty}


def figures(
    game: str, name: str, sittings: Sequence[tuple[Sequence[str], bool, Sequence[Result]]]
) -> dict[str, Any]:
    """A player's figures in one game from (players, finished, results) of each session."""
    rounds = sum(len(results) for _, _, results in sittings)
    points = won = counted = place_sum = 0
    for players, finished, results in sittings:
        totals = dict.fromkeys(players, 0)
        for result in results:
            for player, delta in result.get("deltas", {}).items():
                totals[player] = totals.get(player, 0) + delta
        points += totals.get(name, 0)
        if finished and results:  # a finished session with a round counts
            counted += 1
            won += name in leaders(totals)
            place_sum += 1 + sum(1 for total in totals.values() if total > totals[name])
    every = [result for _, _, results in sittings for result in results]
    return {
        "sessions_played": len(sittings),
        "sessions_won": won,
        "sessions_counted": counted,
        "win_rate": average(won, counted),
        "average_place": average(place_sum, counted),
        "hours": 0.0,
        "rounds_played": rounds,
        "points": points,
        "average_points": average(points, rounds),
        **OWN[game](name, every),
    }
