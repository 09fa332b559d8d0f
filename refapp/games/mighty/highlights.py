"""A Mighty night's highlights (pure): the biggest hand, the highest contract made, the runs."""

from __future__ import annotations

from ..game import signed
from ..highlights import MOST_TOLD, Highlights, Rounds, Sentence, Told, best_of, top_delta
from .bidding.auction import Bid
from .cards import POINT_CARDS
from .shapes import MightyResult
from .stats import PLAYED_HANDS, friend_of, made

#: the parts of a hand's stored result the highlights read
KEYS = ("deltas", "outcome", "contract", "boss", "friend", "ruling_points", "m")


def night(rounds: Rounds[MightyResult]) -> list[Sentence]:
    """Return the night's biggest hand, the highest contract made and the runs (the first
    three), each the earliest on a tie."""
    biggest: tuple[int, int, MightyResult] | None = None
    highest: tuple[int, int, MightyResult] | None = None
    runs: list[tuple[int, MightyResult]] = []
    for number, result in rounds:
        if result.get("outcome") not in PLAYED_HANDS:
            continue
        top = top_delta(result.get("deltas") or {})
        if top is not None:
            biggest = best_of(biggest, number, top[1], result)
        if made(result) and "contract" in result:
            highest = best_of(highest, number, result["contract"]["bid"], result)
        if result.get("ruling_points") == POINT_CARDS:
            runs.append((number, result))
    told = Told()
    if biggest is not None:
        say_biggest(told, *biggest)
    if highest is not None:
        number, _bid, result = highest
        contract = result["contract"]
        told.say(
            "{boss} made the highest contract of the night: {count} {trump_t} (round {round}).",
            boss=contract["boss"],
            round=number,
            **Bid(contract["bid"], contract["trump"]).words(),
        )
    for number, result in runs[:MOST_TOLD]:
        say_run(told, number, result)
    return told.sentences


def say_biggest(told: Told, number: int, points: int, result: MightyResult) -> None:
    """Say the hand that moved the most points to one player."""
    top = top_delta(result.get("deltas") or {})
    told.say(
        "The biggest hand: round {round}, {player} {points}.",
        round=number,
        player=top[0] if top else "",
        points=signed(points),
    )


def say_run(told: Told, number: int, result: MightyResult) -> None:
    """Say a run: the ruling side took every point card."""
    boss = str(result.get("boss") or result.get("contract", {}).get("boss", ""))
    friend = friend_of(result)
    told.say(
        "A run in round {round}: {players} took all {count} point cards.",
        round=number,
        players=[boss, friend] if friend else [boss],
        count=POINT_CARDS,
    )


HIGHLIGHTS = Highlights[MightyResult](keys=KEYS, find=night)
