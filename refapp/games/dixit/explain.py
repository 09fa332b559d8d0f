"""Dixit's turn in words: the storyteller's card, who found it, each vote's point, a capped
bonus, the turn's deltas and a fixed end reached, said from what ``scoring`` and ``ending`` work
out (English templates, stored with their values for the pages to translate)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..game import Account, signed
from .deck import position_count
from .shapes import DixitState

#: a vote for another player's card: the voter, the card's owner, its position
Drawn = tuple[str, str, int]


def names(players: list[str]) -> str:
    """Join names for a sentence."""
    return ", ".join(players)


def say_storyteller(account: Account, storyteller: str, answer: int) -> None:
    """Say whose story it was and where their card lay."""
    account.say(
        "{storyteller} was the storyteller; their card was at position {answer}.",
        storyteller=storyteller,
        answer=answer,
    )


def say_found(
    account: Account, outcome: str, storyteller: str, voters: list[str], finders: list[str]
) -> None:
    """Say who found the storyteller's card (some, all or none) and what it was worth."""
    if outcome == "some_found":
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
    elif outcome == "all_found":
        account.say(
            "All {count} voters found the storyteller's card: {storyteller} 0, every "
            "other player +2.",
            count=len(voters),
            storyteller=storyteller,
        )
    else:
        account.say(
            "Nobody found the storyteller's card: {storyteller} 0, every other player +2.",
            storyteller=storyteller,
        )


def say_single_votes(account: Account, finders: Iterable[str]) -> None:
    """Say the Odyssey +1 of each finder who used a single vote."""
    for finder in finders:
        account.say("{finder} found it with a single vote: +1 to {finder}.", finder=finder)


def say_votes(account: Account, drawn: Iterable[Drawn]) -> None:
    """Say each vote another player's card drew: +1 to its owner."""
    for voter, owner, number in drawn:
        account.say(
            "{voter} voted for {owner}'s card (position {number}): +1 to {owner}.",
            voter=voter,
            owner=owner,
            number=number,
        )


def say_capped(account: Account, capped: Mapping[str, int], cap: int | None) -> None:
    """Say each vote bonus the cap cut down (the bonus as drawn, then the cap)."""
    for player, bonus in capped.items():
        account.say(
            "{player}'s vote bonus {bonus} is capped at {cap}.",
            player=player,
            bonus=bonus,
            cap=cap,
        )


def say_turn(account: Account, deltas: Mapping[str, int]) -> None:
    """Sum up the turn: every player's change."""
    account.say(
        "This turn: {deltas}.",
        deltas=", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
    )


def say_end(
    account: Account,
    before: DixitState,
    after: DixitState,
    players: int,
    last: int | None,
    rounds: int | None,
) -> None:
    """Explain a fixed end the turn reached: its rounds of storytellers (the ``last`` turn of
    ``rounds``), or the draw pile."""
    if last is not None and after.get("turns", 0) == last:
        account.say(
            "This turn completes the last round of storytellers ({rounds} of {rounds}): the "
            "game ends.",
            rounds=rounds,
        )
    if after.get("deck_exhausted") and not before.get("deck_exhausted"):
        needed = position_count(players)
        if before["draw_pile"] < needed:
            account.say(
                "Cards left in the draw pile: {pile}, fewer than the {needed} the refill needs: "
                "the hands are not refilled and the game ends.",
                pile=before["draw_pile"],
                needed=needed,
            )
        else:
            account.say("The refill took the last card of the draw pile: the game ends.")
