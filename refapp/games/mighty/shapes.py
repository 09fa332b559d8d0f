"""Mighty's round as stored: its input, its result and the state between hands.

Each is the JSON the API answers and the database keeps (docs/API.md, "Mighty"); the types only
name the keys a round writes, so the stored JSON stays as it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from ..game import ExplanationPart, Outcome

if TYPE_CHECKING:
    from .scoring.facts import HandFacts

#: the input keys naming a special card's holder
HolderKey = Literal["mighty_holder", "joker_holder"]


class BidFields(TypedDict):
    """A bid as the API writes it: how many point cards, and the trump."""

    bid: int
    trump: str


class WinningBid(BidFields):
    """The highest bid of an auction, and who bid it."""

    player: str | None


class Lead(TypedDict):
    """What refereeing a hand's tricks needs of its contract: the boss, who leads trick 1, and
    the trump (a ``Contract`` is one)."""

    boss: str
    trump: str


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


#: one entry of a bidding log as stored: a bid ({player, bid, trump}) or a pass ({player, pass})
BidEntry = TypedDict(
    "BidEntry", {"player": str, "bid": int, "trump": str, "pass": bool}, total=False
)


class PlayInput(TypedDict):
    """One card of a trick as the input writes it: who played it (a judged trick may name
    nobody), the card, a led joker's suit and a led joker-call card's call, only when set."""

    player: NotRequired[str]
    card: str
    suit: NotRequired[str]
    call: NotRequired[bool]


class TrickDict(TypedDict):
    """A finished trick as a result lists it: its number, leader, winner and why, its points
    and its plays."""

    number: int
    leader: str
    winner: str | None
    card: str
    reason: str
    points: list[str]
    plays: list[PlayInput]


class JudgedTrick(TypedDict):
    """One trick judged alone (``POST /api/mighty/trick``): who takes it, why, its point cards,
    the special cards under its trump and what the joker could do, with the sentence saying so."""

    trump: str
    trick: int
    winner: str | None
    index: int
    card: str
    reason: str
    points: list[str]
    plays: list[PlayInput]
    mighty: str
    joker_call_card: str
    dead_joker: str | None
    call_has_power: bool | None
    explanation: list[str]
    explanation_parts: list[ExplanationPart]


class MustPlay(TypedDict, total=False):
    """What the next player must play: follow a suit, or the joker a joker call asks for."""

    follow: str
    joker_if_held: bool


class Kill(TypedDict):
    """One kill as stored: the card named, its holder (out of the hand), the misses before it."""

    card: str
    player: str
    misses: NotRequired[list[str]]


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
    bidding: list[BidEntry]
    all_pass: bool
    contract: Contract
    friend: Friend
    opposition_points: int
    mighty_holder: str
    joker_holder: str
    tricks: list[list[PlayInput]]
    #: four, six or seven seats: the boss's kill (a list of two at seven), the players resting
    kill: Kill | list[Kill]
    sits_out: str | list[str]


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

    tricks: list[TrickDict]
    opposition_points: int
    mighty_holder: str
    joker_holder: str
    friend: str | None
    kitty: list[str]
    next_player: str | None
    must_play: list[MustPlay]


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
    explanation_parts: list[ExplanationPart]
    outcome: str
    ruling_points: int | None
    back_run: bool
    base: int
    multipliers: list[str]
    m: int
    boss: str
    contract: Contract
    self_friend: bool
    winning_bid: WinningBid
    contract_changes: dict[str, int | None]
    #: the scored hand's facts, each sentence's source
    facts: HandFacts
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
