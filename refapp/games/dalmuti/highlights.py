"""A Dalmuti night's highlights (pure): the revolutions, the longest Greater Dalmuti run."""

from __future__ import annotations

from ..highlights import MOST_TOLD, Highlights, Rounds, Sentence, Told
from .shapes import DalmutiResult
from .stats import run_holder

#: the parts of a hand's stored result the highlights read
KEYS = ("revolution", "revolution_by", "ranks_during")
#: the fewest hands in a row as Greater Dalmuti worth telling
LONG_RUN = 2


def night(rounds: Rounds[DalmutiResult]) -> list[Sentence]:
    """Return the night's revolutions (the first three) and the most hands one player held the
    Greater Dalmuti's seat in a row (the earliest such run on a tie)."""
    told = Told()
    revolutions = 0
    holder: str | None = None
    length = first = 0
    best: tuple[str, int, int] | None = None  # who, how many hands, the first of them
    for number, result in rounds:
        by = result.get("revolution_by")
        if by and revolutions < MOST_TOLD:
            say_revolution(told, number, by, result.get("revolution"))
        revolutions += int(bool(by))
        seated = run_holder(result)
        if seated is not None and seated == holder:
            length += 1
        else:
            holder, length, first = seated, 1, number
        if holder is not None and (best is None or length > best[1]):
            best = (holder, length, first)
    if best is not None and best[1] >= LONG_RUN:
        who, count, start = best
        told.say(
            "{player} held the Greater Dalmuti's seat {count} hands in a row "
            "(hands {first} to {last}).",
            player=who,
            count=count,
            first=start,
            last=start + count - 1,
        )
    return told.sentences


def say_revolution(told: Told, number: int, by: str, kind: object) -> None:
    """Say a revolution declared: plain, or greater."""
    if kind == "greater":
        told.say("{player} declared a greater revolution in hand {round}.", player=by, round=number)
    else:
        told.say("{player} declared a revolution in hand {round}.", player=by, round=number)


HIGHLIGHTS = Highlights[DalmutiResult](keys=KEYS, find=night)
