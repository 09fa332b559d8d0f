"""The night's highlights: what a game finds worth telling in a session's stored rounds (pure).

A game names the parts of a stored result its highlights read (the database picks them out, a
batch of rounds at a time) and a function that walks the rounds once, in order, and says what
stood out; the result card (``web/card.py``) shows the sentences in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

#: a round's stored result (the parts the highlights read), as the game types it
ResultT = TypeVar("ResultT")
#: one sentence: an English template and its values (``errors.fill`` translates it)
Sentence = tuple[str, Mapping[str, object]]
#: the rounds of a session as the highlights read them: each round's number and result
Rounds = Iterable[tuple[int, ResultT]]
#: the most times one kind of highlight is told (the first ones, in round order)
MOST_TOLD = 3


class Told:
    """The sentences of a night's highlights, in the order they are said."""

    def __init__(self) -> None:
        self.sentences: list[Sentence] = []

    def say(self, template: str, **params: object) -> None:
        """Add one sentence (an English template, filled from params where shown)."""
        self.sentences.append((template, params))


def nothing(rounds: Iterable[tuple[int, object]]) -> list[Sentence]:
    """Return no highlights (a game that tells none)."""
    return []


@dataclass(frozen=True)
class Highlights(Generic[ResultT]):
    """What a game tells of a night: the result's parts it reads, and the telling."""

    #: the keys of a stored result the highlights read
    keys: tuple[str, ...] = ()
    #: the sentences, from each round's number and those parts of its result, in round order
    find: Callable[[Rounds[ResultT]], list[Sentence]] = nothing


def best_of(
    found: tuple[int, int, ResultT] | None, number: int, value: int, result: ResultT
) -> tuple[int, int, ResultT]:
    """Return the round with the higher value of two (the earlier one on a tie)."""
    if found is None or value > found[1]:
        return number, value, result
    return found


def top_delta(deltas: Mapping[str, int]) -> tuple[str, int] | None:
    """Return who scored the most in a round and how much (the first seated on a tie)."""
    if not deltas:
        return None
    name = max(deltas, key=lambda player: deltas[player])
    return name, int(deltas[name])
