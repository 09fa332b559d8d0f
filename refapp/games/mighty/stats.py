"""A player's Mighty figures, counted hand by hand from the stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping

from ..records import Mark
from ..stats import average
from ..tally import Figures, Tally
from .cards import POINT_CARDS
from .shapes import MightyResult

#: the outcomes of a round in which a hand was played (not a misdeal, not all passed)
PLAYED_HANDS = ("ruling_win", "critic", "opposition_win")

Result = MightyResult


def made(result: Result) -> bool:
    """Return True if the boss's contract was made: a win, or a critic that paid the ruling side."""
    outcome = result.get("outcome")
    return outcome == "ruling_win" or (outcome == "critic" and result.get("m", 0) > 0)


def tally(name: str, result: Result) -> Tally:
    """Return what one round adds: a hand played, as boss (made, the bid), as friend, runs; or
    a hand the player was killed in or rested (no hand played then).

    Runs (the ruling side took all 20 point cards) and back-runs (the opposition took at least
    the bid) count the hands the player was on the ruling side, as boss or friend.
    """
    out = _out_of_hand(name, result)
    if out or result.get("outcome") not in PLAYED_HANDS:
        return out
    counted: Tally = {"hands_played": 1}
    boss = result.get("boss") == name
    if boss:
        counted["hands_as_boss"] = 1
        counted["contracts_made"] = int(made(result))
        counted["bid_sum"] = result["contract"]["bid"]
    if result.get("friend") == name:
        counted["times_as_friend"] = 1
    if boss or result.get("friend") == name:
        counted["runs"] = int(result.get("ruling_points") == POINT_CARDS)
        counted["back_runs"] = int(bool(result.get("back_run")))
    return counted


def _out_of_hand(name: str, result: Result) -> Tally:
    """Return a round the player sat out at four, six or seven seats: killed, or resting."""
    if name in result.get("killed", ()):
        return {"hands_killed": 1}
    if name in result.get("resting", ()):
        return {"hands_rested": 1}
    return {}


def figures_from(counted: Mapping[str, int]) -> Figures:
    """Return the hands as boss, contracts made, the average bid, times as friend, the runs, and
    the hands killed or rested (four, six or seven seats)."""
    led = counted.get("hands_as_boss", 0)
    return {
        "hands_played": counted.get("hands_played", 0),
        "hands_as_boss": led,
        "contracts_made": counted.get("contracts_made", 0),
        "average_bid": average(counted.get("bid_sum", 0), led),
        "times_as_friend": counted.get("times_as_friend", 0),
        "runs": counted.get("runs", 0),
        "back_runs": counted.get("back_runs", 0),
        "hands_killed": counted.get("hands_killed", 0),
        "hands_rested": counted.get("hands_rested", 0),
    }


#: Mighty's own records: the highest contract a boss made
RECORD_KEYS = ("highest_contract_made",)


def marks(result: Result) -> list[Mark]:
    """Return the contract a hand's boss made (a mark for the highest contract made)."""
    boss = result.get("boss")
    if result.get("outcome") not in PLAYED_HANDS or not made(result) or boss is None:
        return []
    return [Mark("highest_contract_made", result["contract"]["bid"], boss)]
