"""A player's Dixit figures and roles, counted turn by turn from the stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping

from ..records import Mark, round_marks
from ..roles import RoleBook, Roles
from ..stats import average
from ..tally import Figures, Tally
from .shapes import DixitResult

Result = DixitResult


def tally(name: str, result: Result) -> Tally:
    """Return what one turn adds: a storyteller turn (some found it or not); or a turn voted in,
    its vote bonus, the votes the player's card drew and whether they found the storyteller.

    The vote bonus counts the turns the player voted in (not their own as storyteller), as
    scored, so after any cap; the votes drawn are counted before the cap.
    """
    counted: Tally = {}
    if result.get("storyteller") == name:
        counted["storyteller_turns"] = 1
        counted["some_found"] = int(result.get("outcome") == "some_found")
    bonus = result.get("vote_bonus") or {}
    if name in bonus:
        counted["bonus_sum"] = bonus[name]
        counted["bonus_count"] = 1
        counted["votes_drawn"] = votes_drawn(name, result)
        counted["found_storyteller"] = int(name in (result.get("finders") or ()))
    return counted


def votes_drawn(name: str, result: Result) -> int:
    """Return the votes a voter's card drew in a turn: its vote bonus, or where a cap cut that
    down, the bonus as drawn that the explanation's capped sentence states."""
    for part in result.get("explanation_parts") or ():
        values = part[1] if len(part) > 1 else None
        if isinstance(values, (dict, Mapping)) and values.get("player") == name and "cap" in values:
            drawn = values.get("bonus")
            if isinstance(drawn, int):
                return drawn
    return (result.get("vote_bonus") or {}).get(name, 0)


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


def roles_from(counted: Mapping[str, int]) -> Roles:
    """Return the storyteller turns, those some but not all found, and of the turns voted in
    the votes the player's card drew per turn and the turns they found the storyteller."""
    voted = counted.get("bonus_count", 0)
    return {
        "storyteller_turns": counted.get("storyteller_turns", 0),
        "some_found": counted.get("some_found", 0),
        "votes_drawn_per_turn": average(counted.get("votes_drawn", 0), voted),
        "found_storyteller": counted.get("found_storyteller", 0),
        "turns_voted": voted,
    }


ROLE_BOOK = RoleBook[Result](roles_from=roles_from)

#: Dixit's own records: the most points one player scored in a single turn
RECORD_KEYS = ("best_turn",)


def marks(result: Result) -> list[Mark]:
    """Return the most points one player scored in the turn (the first seated on a tie)."""
    best = round_marks(result)[:1]
    return [Mark("best_turn", mark.value, mark.player) for mark in best]
