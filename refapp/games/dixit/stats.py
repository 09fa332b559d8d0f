"""A player's Dixit figures, counted turn by turn from the stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping

from ..records import Mark, round_marks
from ..stats import average
from ..tally import Figures, Tally
from .shapes import DixitResult

Result = DixitResult


def tally(name: str, result: Result) -> Tally:
    """Return what one turn adds: a storyteller turn (some found it or not), the vote bonus.

    The vote bonus counts the turns the player voted in (not their own as storyteller), as
    scored, so after any cap.
    """
    counted: Tally = {}
    if result.get("storyteller") == name:
        counted["storyteller_turns"] = 1
        counted["some_found"] = int(result.get("outcome") == "some_found")
    bonus = result.get("vote_bonus") or {}
    if name in bonus:
        counted["bonus_sum"] = bonus[name]
        counted["bonus_count"] = 1
    return counted


def figures_from(counted: Mapping[str, int]) -> Figures:
    """Return the storyteller turns, how often some (not all, none) found the card, the bonus."""
    told = counted.get("storyteller_turns", 0)
    some = counted.get("some_found", 0)
    return {
        "storyteller_turns": told,
        "some_found": some,
        "some_found_share": average(some, told),
        "average_vote_bonus": average(counted.get("bonus_sum", 0), counted.get("bonus_count", 0)),
    }


#: Dixit's own records: the most points one player scored in a single turn
RECORD_KEYS = ("best_turn",)


def marks(result: Result) -> list[Mark]:
    """Return the most points one player scored in the turn (the first seated on a tie)."""
    best = round_marks(result)[:1]
    return [Mark("best_turn", mark.value, mark.player) for mark in best]
