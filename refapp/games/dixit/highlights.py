"""A Dixit night's highlights (pure): the storytellers nobody found, the best turn."""

from __future__ import annotations

from ..game import signed
from ..highlights import MOST_TOLD, Highlights, Rounds, Sentence, Told, best_of, top_delta
from .shapes import DixitResult

#: the parts of a turn's stored result the highlights read
KEYS = ("deltas", "outcome", "storyteller")


def night(rounds: Rounds[DixitResult]) -> list[Sentence]:
    """Return the storytellers nobody found (the first three, then how many more) and the turn
    that gave one player the most points (the earliest on a tie)."""
    told = Told()
    unfound = 0
    best: tuple[int, int, DixitResult] | None = None
    for number, result in rounds:
        if result.get("outcome") == "none_found":
            unfound += 1
            if unfound <= MOST_TOLD:
                told.say(
                    "Nobody found {storyteller}'s card in turn {round}.",
                    storyteller=result.get("storyteller", ""),
                    round=number,
                )
        top = top_delta(result.get("deltas") or {})
        if top is not None:
            best = best_of(best, number, top[1], result)
    if unfound > MOST_TOLD:
        more = unfound - MOST_TOLD
        told.say("Nobody found the storyteller's card in {count} more turns.", count=more)
    if best is not None and best[1] > 0:
        number, points, result = best
        top = top_delta(result.get("deltas") or {})
        told.say(
            "The best turn: {player} {points} in turn {round}.",
            player=top[0] if top else "",
            points=signed(points),
            round=number,
        )
    return told.sentences


HIGHLIGHTS = Highlights[DixitResult](keys=KEYS, find=night)
