"""Dixit's turn as stored: its input, its result and the state between turns.

Each is the JSON the API answers and the database keeps (docs/API.md, "Dixit"); the types only
name the keys a turn writes, so the stored JSON stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from ..game import ExplanationPart

#: a voter's vote: a position (1-based), or two positions under the Odyssey two-votes rule
Vote = int | list[int]


class DixitInput(TypedDict, total=False):
    """A turn as stored: the storyteller, the owner of each position, and each voter's vote."""

    storyteller: str
    positions: list[str]
    votes: dict[str, Vote]


class DixitResult(TypedDict, total=False):
    """A turn's result: the deltas, the explanation and who found the storyteller's card."""

    complete: bool
    deltas: dict[str, int]
    explanation: list[str]
    explanation_parts: list[ExplanationPart]
    outcome: str
    storyteller: str
    storyteller_position: int
    storyteller_votes: int
    finders: list[str]
    vote_bonus: dict[str, int]


class DixitState(TypedDict, total=False):
    """The state between turns: the last storyteller and the deck's bookkeeping."""

    last_storyteller: str | None
    turns: int
    draw_pile: int
    discard_pile: int
    reshuffles: int
    deck_exhausted: bool


@dataclass(frozen=True)
class TurnEntry:
    """A turn as sent, parsed (``parse.parse_turn``): names seated, votes whole numbers, nothing
    yet checked against the rules; the rules phases read this, never the request body."""

    storyteller: str
    #: the owner of the card at each position (position 1 first)
    positions: list[str]
    #: each voter's vote by name (None: no votes sent, as a dry run may)
    votes: dict[str, Vote] | None
