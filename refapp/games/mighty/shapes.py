"""Mighty's round as stored: its input, its result and the state between hands.

Each is the JSON the API answers and the database keeps (docs/API.md, "Mighty"); the types only
name the keys a round writes, so the stored JSON stays as it was.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from ..game import Outcome

#: the input keys naming a special card's holder
HolderKey = Literal["mighty_holder", "joker_holder"]


class BidFields(TypedDict):
    """A bid as the API writes it: how many point cards, and the trump."""

    bid: int
    trump: str


class WinningBid(BidFields):
    """The highest bid of an auction, and who bid it."""

    player: str | None


class Contract(BidFields):
    """The boss's final contract: who, how many point cards, and the trump."""

    boss: str


class Friend(TypedDict, total=False):
    """The friend as entered: {card, player}, {card, kitty}, {card} (tricks tell), {none} or
    {first_trick}."""

    card: str
    player: str
    kitty: bool
    none: bool
    first_trick: str


class Misdeal(TypedDict):
    """A hand thrown in: who declared it, and its cards, or ``shown`` when the table saw them
    and they were not entered (both may be given: the cards are then checked)."""

    player: str
    hand: NotRequired[list[str]]
    shown: NotRequired[bool]


class MightyInput(TypedDict, total=False):
    """A round as stored: a played hand, a misdeal or an all-pass (docs/API.md)."""

    dealer: str
    misdeal: Misdeal
    bidding: list[dict[str, Any]]
    all_pass: bool
    contract: Contract
    friend: Friend
    opposition_points: int
    mighty_holder: str
    joker_holder: str
    tricks: list[list[dict[str, Any]]]
    #: four, six or seven seats: the boss's kill (a list of two at seven), the players resting
    kill: Any
    sits_out: Any


class AuctionSummary(TypedDict, total=False):
    """Where an auction stands, in a dry run's result."""

    auction_finished: bool
    next_bidder: str | None
    min_next_bid: int | None
    min_next_bid_trumps: list[str]
    highest_bid: WinningBid | None
    passed: list[str]


class TricksResult(TypedDict, total=False):
    """A hand's tricks in its result: each finished trick, what ten show, or who plays next."""

    tricks: list[dict[str, Any]]
    opposition_points: int
    mighty_holder: str
    joker_holder: str
    friend: str | None
    kitty: list[str]
    next_player: str | None
    must_play: list[dict[str, Any]]


class OutOfHand(TypedDict, total=False):
    """Four, six or seven seats: who was killed, in the order named, and who rested."""

    killed: list[str]
    resting: list[str]


class MightyResult(AuctionSummary, TricksResult, OutOfHand, total=False):
    """A round's result: the deltas and explanation, how the hand scored, or a dry run's
    progress."""

    complete: bool
    deltas: dict[str, int]
    explanation: list[str]
    explanation_parts: list[list[Any]]
    outcome: str
    ruling_points: int | None
    back_run: bool
    base: int
    multipliers: list[str]
    m: int
    boss: str
    contract: dict[str, Any]
    self_friend: bool
    winning_bid: WinningBid
    contract_changes: dict[str, int | None]
    facts: Any  # facts.HandFacts: the scored hand's facts, each sentence's source
    declarer: str
    #: None when the hand was shown to the table and not entered
    hand_value: float | None
    kitty_open: bool


class MightyState(TypedDict):
    """The state between hands: the next dealer, the next auction's minimum, the rounds."""

    next_dealer: str | None
    min_bid: int
    kitty_open: bool
    rounds: int
    last_outcome: str | None
    #: four, six or seven seats: the next hand's sitters when known (a name, a list of two)
    sits_out: NotRequired[str | list[str] | None]


#: a Mighty round's outcome: its checked input, its result and the state after it
MightyOutcome = Outcome[MightyInput, MightyResult, MightyState]
