"""The Great Dalmuti's round as stored: its input, its result and the state between hands.

Each is the JSON the API answers and the database keeps (docs/API.md, "The Great Dalmuti");
the types only name the keys a hand writes, so the stored JSON stays as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from ..game import ExplanationPart, Table
from .rules import DalmutiRules

#: a card as the API writes it: a rank 1..12, or ``"J"`` for a jester
Card = int | str
#: cards by player (the hands as dealt) or by giving role (the tribute)
CardsBy = dict[str, list[Card]]


class Revolution(TypedDict):
    """A revolution declared: who, and ``plain`` or ``greater``."""

    player: str
    kind: str


#: one exchange of the tax: who gives how many cards to whom, best or any (spelt as a call:
#: ``from`` is a keyword)
Exchange = TypedDict(
    "Exchange",
    {
        "role": str,
        "from": str,
        "to": str,
        "count": int,
        "which": str,
        "after_receiving": bool,
    },
)


#: one tribute given in the tax: the giving role, who gave, who received, the cards
TributeFact = TypedDict("TributeFact", {"role": str, "from": str, "to": str, "cards": list[Card]})


class LesserTaxFact(TypedDict):
    """Why the Lesser pair gave nothing: the players seated, fewer than the least for it."""

    players: int
    least: int


class RisingFact(TypedDict):
    """A peasant's rise (``rising_bonus``): the pair, the places before and after, the rise."""

    dalmuti: str
    peasant: str
    place_before: int
    place_after: int
    risen: int


class Facts(TypedDict, total=False):
    """What a hand's explanation says, as data: the tax given and what the points rest on."""

    tribute: list[TributeFact]
    no_lesser_tax: LesserTaxFact | None
    finished_below: dict[str, int]
    finishing_roles: dict[str, str]
    rising: list[RisingFact]


class DalmutiInput(TypedDict, total=False):
    """A hand as stored: the revolution or the tribute, the hands dealt, trades, finish order."""

    revolution: Revolution | None
    #: cards by giving role, and ``"paid": True`` when the tax was recorded as paid as due
    tribute: Mapping[str, list[Card] | bool] | None
    hands: CardsBy
    merchant_trades: list[list[str]]
    finish_order: list[str] | None


class DalmutiResult(TypedDict, total=False):
    """A hand's result: the deltas, the explanation, the ranks and the tax."""

    deltas: dict[str, int]
    explanation: list[str]
    explanation_parts: list[ExplanationPart]
    complete: bool
    ranks_before: list[str]
    ranks_during: list[str]
    ranks_after: list[str]
    revolution: str | None
    revolution_by: str | None
    tax: bool
    points: dict[str, int]
    rising_bonus: dict[str, int]
    facts: Facts


class DalmutiState(TypedDict):
    """The state between hands: the ranks (Greater Dalmuti first) and the hands played."""

    ranks: list[str]
    hands_played: int


#: a tribute as sent, by giving role: the cards read, None for a role sent as null
TributeSent = dict[str, list[Card] | None]


@dataclass(frozen=True)
class HandEntry:
    """A hand as sent, parsed (``parse.parse_hand``): names seated, cards read, nothing yet
    checked against the rules; the rules phases read this, never the request body."""

    #: the hands as dealt that were sent, by player, each sorted best first
    hands: CardsBy
    #: the revolution declared: a seated player and its kind (``plain`` or ``greater``)
    revolution: Revolution | None
    #: the tribute by giving role (None: none sent), and whether it was marked paid as due
    tribute: TributeSent | None
    paid: bool
    #: the merchants' swaps, each a list of seated names
    merchant_trades: list[list[str]]
    #: the finishing order, first out first (None: not sent, as a dry run may)
    finish_order: list[str] | None


@dataclass(frozen=True)
class Deal:
    """A hand before its tax: what the tribute, the trades and the score are checked against."""

    table: Table
    rules: DalmutiRules
    #: the ranks before the hand (Greater Dalmuti first), and during it (after a revolution)
    ranks: list[str]
    during: list[str]
    #: the hands as dealt that were entered, and the revolution declared
    hands: CardsBy
    revolution: Revolution | None
    #: the hands played before this one, and whether this one pays the tax
    hands_played: int
    due: bool
