"""Dixit's score of one turn: who found the card, the Odyssey single-vote bonus, the votes
(``explain`` says each step)."""

from __future__ import annotations

from collections.abc import Mapping

from ..game import Account, Table
from .explain import (
    Drawn,
    say_capped,
    say_found,
    say_single_votes,
    say_storyteller,
    say_turn,
    say_votes,
)
from .rules import DixitRules
from .shapes import DixitInput, DixitResult
from .table_view import two_votes

ODYSSEY_BONUS_CAP = 3
#: the storyteller's and each finder's points when some but not all found the card
FOUND_POINTS = 3
#: every player but the storyteller's points when all or none found it (the storyteller: 0)
OTHERS_POINTS = 2
#: what each vote on a player's card brings its owner (before any cap)
VOTE_POINT = 1
#: the Odyssey rule's point for a finder who voted for a single card
SINGLE_VOTE_POINT = 1


def bonus_cap(rules: Mapping[str, object]) -> int | None:
    """Return the most vote bonus a player gets in a turn: the house cap, 3 at most under Odyssey.

    The Odyssey rule caps the bonus at any table size; a large table alone sets no cap.
    """
    house = DixitRules.of(rules)
    cap = house.bonus_cap
    if house.two_votes_large_game:
        cap = ODYSSEY_BONUS_CAP if cap is None else min(cap, ODYSSEY_BONUS_CAP)
    return cap


def found_points(
    table: Table, storyteller: str, voters: list[str], finders: list[str]
) -> tuple[dict[str, int], str]:
    """Return the points for finding the card and the outcome: some (the storyteller and each
    finder FOUND_POINTS), all or none found (every other player OTHERS_POINTS)."""
    deltas = dict.fromkeys(table.players, 0)
    if finders and len(finders) < len(voters):
        for player in (storyteller, *finders):
            deltas[player] = FOUND_POINTS
        return deltas, "some_found"
    for voter in voters:
        deltas[voter] = OTHERS_POINTS
    return deltas, "all_found" if finders else "none_found"


def single_voters(finders: list[str], votes: Mapping[str, list[int]]) -> list[str]:
    """Return the finders who used a single vote: each gets the Odyssey SINGLE_VOTE_POINT."""
    return [finder for finder in finders if len(votes[finder]) == 1]


def votes_drawn(
    storyteller: str, voters: list[str], positions: list[str], votes: Mapping[str, list[int]]
) -> list[Drawn]:
    """Return every vote for another player's card, voter by voter: (voter, owner, position)."""
    drawn: list[Drawn] = []
    for voter in voters:
        for number in votes[voter]:
            owner = positions[number - 1]
            if owner != storyteller:
                drawn.append((voter, owner, number))
    return drawn


def vote_bonus(
    table: Table, voters: list[str], drawn: list[Drawn]
) -> tuple[dict[str, int], dict[str, int]]:
    """Return each player's VOTE_POINT per vote their card drew, capped when a cap is in force, and
    the bonus as drawn of each voter the cap cut down."""
    bonus = dict.fromkeys(table.players, 0)
    for _voter, owner, _number in drawn:
        bonus[owner] += VOTE_POINT
    cap = bonus_cap(table.rules)
    if cap is None:
        return bonus, {}
    capped = {player: bonus[player] for player in voters if bonus[player] > cap}
    for player in capped:
        bonus[player] = cap
    return bonus, capped


def score(table: Table, entered: DixitInput) -> DixitResult:
    """Score a checked turn and explain every point (trusted input: call after checking).

    Three steps, in the order the explanation tells them: who found the card, the Odyssey
    single-vote bonus, then the votes each card drew (capped when a cap is in force).
    """
    storyteller = entered["storyteller"]
    positions = entered["positions"]
    votes = {voter: (v if isinstance(v, list) else [v]) for voter, v in entered["votes"].items()}
    answer = positions.index(storyteller) + 1
    voters = [p for p in table.players if p != storyteller]
    finders = [v for v in voters if answer in votes[v]]
    account = Account()
    say_storyteller(account, storyteller, answer)
    deltas, outcome = found_points(table, storyteller, voters, finders)
    say_found(account, outcome, storyteller, voters, finders)
    if two_votes(table.rules, table.size):
        singles = single_voters(finders, votes)
        for finder in singles:
            deltas[finder] += SINGLE_VOTE_POINT
        say_single_votes(account, singles)
    drawn = votes_drawn(storyteller, voters, positions, votes)
    bonus, capped = vote_bonus(table, voters, drawn)
    say_votes(account, drawn)
    say_capped(account, capped, bonus_cap(table.rules))
    for player in voters:
        deltas[player] += bonus[player]
    say_turn(account, deltas)
    return {
        "deltas": deltas,
        **account.result(),
        "outcome": outcome,
        "storyteller": storyteller,
        "storyteller_position": answer,
        "storyteller_votes": len(finders),
        "finders": finders,
        "vote_bonus": {p: bonus[p] for p in voters},
    }
