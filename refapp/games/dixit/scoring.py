"""Dixit's score of one turn: who found the card, the Odyssey single-vote bonus, the votes."""

from __future__ import annotations

from collections.abc import Mapping

from ..game import Account, Table, signed
from .rules import DixitRules
from .shapes import DixitInput, DixitResult
from .table_view import two_votes

ODYSSEY_BONUS_CAP = 3


def bonus_cap(rules: Mapping[str, object]) -> int | None:
    """Return the most vote bonus a player gets in a turn: the house cap, 3 at most under Odyssey.

    The Odyssey rule caps the bonus at any table size; a large table alone sets no cap.
    """
    house = DixitRules.of(rules)
    cap = house.bonus_cap
    if house.two_votes_large_game:
        cap = ODYSSEY_BONUS_CAP if cap is None else min(cap, ODYSSEY_BONUS_CAP)
    return cap


def names(players: list[str]) -> str:
    """Join names for a sentence."""
    return ", ".join(players)


def found_points(
    table: Table, storyteller: str, voters: list[str], finders: list[str], account: Account
) -> tuple[dict[str, int], str]:
    """Return the points for finding the card (all, none or some found) and the outcome."""
    deltas = dict.fromkeys(table.players, 0)
    if finders and len(finders) < len(voters):
        deltas[storyteller] = 3
        for finder in finders:
            deltas[finder] = 3
        account.say(
            "{finders} found the storyteller's card ({count} of {voters} voters): "
            "{storyteller} +3 and each finder +3.",
            finders=names(finders),
            count=len(finders),
            voters=len(voters),
            storyteller=storyteller,
        )
        missed = [v for v in voters if v not in finders]
        if len(missed) == 1:  # one name, one verb: Hungarian "nem találta" / "nem találták"
            account.say("{missed} did not find it: 0.", missed=names(missed))
        else:
            account.say("{missed} did not find it: 0 each.", missed=names(missed))
        return deltas, "some_found"
    for voter in voters:
        deltas[voter] = 2
    if finders:
        account.say(
            "All {count} voters found the storyteller's card: {storyteller} 0, every "
            "other player +2.",
            count=len(voters),
            storyteller=storyteller,
        )
        return deltas, "all_found"
    account.say(
        "Nobody found the storyteller's card: {storyteller} 0, every other player +2.",
        storyteller=storyteller,
    )
    return deltas, "none_found"


def single_vote_bonus(
    deltas: dict[str, int], finders: list[str], votes: Mapping[str, list[int]], account: Account
) -> None:
    """Give the Odyssey +1 to each finder who used a single vote."""
    for finder in finders:
        if len(votes[finder]) == 1:
            deltas[finder] += 1
            account.say("{finder} found it with a single vote: +1 to {finder}.", finder=finder)


def vote_bonus(
    table: Table,
    storyteller: str,
    voters: list[str],
    positions: list[str],
    votes: Mapping[str, list[int]],
    account: Account,
) -> dict[str, int]:
    """Return each player's +1 per vote their card drew, capped when a cap is in force."""
    bonus = dict.fromkeys(table.players, 0)
    for voter in voters:
        for number in votes[voter]:
            owner = positions[number - 1]
            if owner != storyteller:
                bonus[owner] += 1
                account.say(
                    "{voter} voted for {owner}'s card (position {number}): +1 to {owner}.",
                    voter=voter,
                    owner=owner,
                    number=number,
                )
    cap = bonus_cap(table.rules)
    for player in voters:
        if cap is not None and bonus[player] > cap:
            account.say(
                "{player}'s vote bonus {bonus} is capped at {cap}.",
                player=player,
                bonus=bonus[player],
                cap=cap,
            )
            bonus[player] = cap
    return bonus


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
    account.say(
        "{storyteller} was the storyteller; their card was at position {answer}.",
        storyteller=storyteller,
        answer=answer,
    )
    deltas, outcome = found_points(table, storyteller, voters, finders, account)
    if two_votes(table.rules, table.size):
        single_vote_bonus(deltas, finders, votes, account)
    bonus = vote_bonus(table, storyteller, voters, positions, votes, account)
    for player in voters:
        deltas[player] += bonus[player]
    account.say(
        "This turn: {deltas}.",
        deltas=", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
    )
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
