"""A player's roles across sessions, per game, from their summed tallies (pure): what a game
counts of them (its ``RoleBook``), the shapes it fills and the partner they add up to.

A pair's tally (``RoleBook.pair_tallies``) names its counters from the side of the pair's first
player (``first_...``) or its second (``second_...``); seen from the other player the two
prefixes swap (``seen_from``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypedDict, TypeVar

from .tally import Tally

#: a player's roles in one game (docs/API.md, "Statistics across sessions")
Roles = dict[str, object]
#: a round's stored result, as the game types it
ResultT = TypeVar("ResultT")


class Partner(TypedDict):
    """Someone a player shared a side with: who, what they were, the hands and the wins."""

    name: str
    role: str
    hands: int
    won: int


def no_roles(counted: Mapping[str, int]) -> Roles:
    """Return no roles."""
    return {}


def no_pairs(result: object) -> list[tuple[str, str, Tally]]:
    """Return nothing for any pair."""
    return []


def no_partners(pairs: Mapping[str, Mapping[str, int]]) -> list[Partner] | None:
    """Return None: the game has no partners."""
    return None


def no_run(result: object) -> str | None:
    """Return None: nobody holds a run."""
    return None


@dataclass(frozen=True)
class RoleBook(Generic[ResultT]):
    """What a game counts of its players' roles besides their figures (none by default)."""

    #: a player's roles from their summed counters (the game's ``tally``)
    roles_from: Callable[[Mapping[str, int]], Roles] = no_roles
    #: what one round adds to pairs of its players: (first, second, counters from the first's
    #: side, ``first_...`` and ``second_...``)
    pair_tallies: Callable[[ResultT], list[tuple[str, str, Tally]]] = no_pairs
    #: a player's partners from their pairs' tallies seen from their side, by the other's name
    #: (None: the game has no partners)
    partners_from: Callable[[Mapping[str, Mapping[str, int]]], list[Partner] | None] = no_partners
    #: a record of rounds in a row one player holds something (None: the game keeps none)
    run_key: str | None = None
    #: who holds the run in a round (None: nobody, so the run breaks)
    run_holder: Callable[[ResultT], str | None] = no_run


#: the prefixes a pair's counters carry, by the pair's side
SIDES = ("first_", "second_")


def seen_from(tally: Mapping[str, int], first: bool) -> Tally:
    """Return a pair's tally seen from one side: ``first_`` counters are that side's own."""
    if first:
        return dict(tally)
    seen: Tally = {}
    for key, value in tally.items():
        for mine, theirs in (SIDES, SIDES[::-1]):
            if key.startswith(mine):
                key = theirs + key.removeprefix(mine)
                break
        seen[key] = value
    return seen


def best_partner(partners: Iterable[Partner]) -> str | None:
    """Return the partner with the most hands won together, whatever their role (the first name
    on a tie; None without a hand won together)."""
    won: dict[str, int] = {}
    for line in partners:
        won[line["name"]] = won.get(line["name"], 0) + line["won"]
    best = min(won, key=lambda name: (-won[name], name), default=None)
    return best if best is not None and won[best] > 0 else None
