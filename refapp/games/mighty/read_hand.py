"""A round read once: its body becomes a ``Hand`` (who is in it, its form and every part checked).

The parts are read in the order of play: the dealer, who rests, a misdeal or the auction, then a
played hand's contract, kills, friend, points and holders, and tricks; then the cards they name
are checked against the rules. Each step stores what it reads in the hand's ``entered`` input, so
a round with several faults is refused for the first of them. Scoring and explaining then take
the ``Hand`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .bidding.auction import Auction, auction_floor, run_auction, unfinished_auction
from .bidding.contract import read_contract
from .bidding.friend import read_friend
from .bidding.friend_card import check_friend_card_allowed, check_friend_card_held
from .bidding.misdeal import declare_misdeal
from .house_rules.rules import MightyTable
from .round_form import HAND_PARTS, Body, all_pass_flag, check_alone, check_everyone_passed
from .seats.deal import PLAIN_SEATS, TableDeal, deal_for, out_of_deck
from .seats.dealer import check_dealer
from .seats.in_hand import first_in_hand, without
from .seats.kill import read_kills, stored_kill
from .seats.resting import expected_sitters, read_sitters
from .shapes import Contract, Kill, MightyInput, MightyState, OutOfHand
from .tricks.holders import HOLDER_KEYS, check_holders, read_holder, read_points
from .tricks.totals import Refereed, Settled, play_tricks

#: what a round is: a played hand (or a dry run's parts of one), a misdeal, or an all-pass
Form = Literal["hand", "misdeal", "all_pass"]


@dataclass(frozen=True)
class RoundSeats:
    """Who is in a round: how it is dealt, who rests, who bids, and who deals it."""

    deal: TableDeal
    resting: list[str]
    #: the players of the auction: everyone seated but those resting
    bidders: MightyTable
    #: the round's dealer when known: entered, or the resting dealer the state or sits_out names
    dealer: str | None
    #: True when the hand itself named its sitters (the rule could not tell them)
    named: bool
    #: the cards the table plays without (a table of four)
    absent: frozenset[str]

    def fields(self, killed: Sequence[str] = ()) -> OutOfHand:
        """Return a result's ``killed`` and ``resting`` (none at a table of five)."""
        if self.deal.seats == PLAIN_SEATS:
            return {}
        return {"killed": list(killed), "resting": list(self.resting)}


@dataclass(frozen=True)
class Hand:
    """A round as read from its body: its seats, its form, its checked input and what the
    reading found (the auction, the kills, the hand's players, the refereed tricks)."""

    seats: RoundSeats
    #: the checked input as stored: dealer, sits_out, misdeal or bidding, all_pass, contract,
    #: kill, friend, opposition_points, the holders and the tricks
    input: MightyInput
    form: Form
    auction: Auction | None = None
    #: a misdeal's hand value (None: shown to the table and not entered)
    hand_value: float | None = None
    #: the kills in the order named (None: a dry run that sent none)
    kills: list[Kill] | None = None
    #: the hand's players: the bidders but those killed
    players: MightyTable | None = None
    refereed: Refereed | None = None
    #: True while a dry run's hand cannot be scored yet (tricks unfinished, parts unsent)
    waiting: bool = False

    @property
    def contract(self) -> Contract:
        """Return the hand's contract (a hand being scored has one)."""
        return self.input["contract"]

    @property
    def killed(self) -> list[str]:
        """Return who the boss killed, in the order named."""
        return [kill["player"] for kill in self.kills or []]


def read_hand(table: MightyTable, state: MightyState, raw: object, partial: bool) -> Hand:
    """Read a round's body into a ``Hand``, raising the first fault as a refusal.

    With ``partial`` (a dry run) a part sent alone is checked alone.
    """
    body = Body.of(raw)
    entered: MightyInput = {}
    dealer = check_dealer(table, state, body.dealer)
    if dealer is not None:
        entered["dealer"] = dealer
    seats = seat_round(table, state, body, dealer, partial)
    hand = _read_seated(table, state, body, entered, partial, seats)
    if partial and not seats.resting and not hand.waiting:
        # a dry run of a whole round refuses what recording refuses: sitters it cannot tell
        read_sitters(table, seats.deal, state, body.sits_out, dealer, partial=False)
    return hand


def seat_round(
    table: MightyTable, state: MightyState, body: Body, dealer: str | None, partial: bool
) -> RoundSeats:
    """Return who is in the round: the sitters read (``wrong_sitter``, ``missing_field``)."""
    deal = deal_for(table.rules, table.size)
    resting = read_sitters(table, deal, state, body.sits_out, dealer, partial)
    known = dealer or (resting[0] if deal.sitters == 1 and resting else None)
    named = bool(resting) and not expected_sitters(deal, state, dealer)
    return RoundSeats(
        deal,
        resting,
        without(table, resting, "resting"),
        known,
        named,
        out_of_deck(table.rules, table.size),
    )


def _read_seated(
    table: MightyTable,
    state: MightyState,
    body: Body,
    entered: MightyInput,
    partial: bool,
    seats: RoundSeats,
) -> Hand:
    """Read a round whose seats are read: a misdeal, an all-pass, or a played hand."""
    if body.sits_out is not None:
        entered["sits_out"] = seats.resting[0] if seats.deal.sitters == 1 else seats.resting
    if body.misdeal is not None:
        check_alone(body, "misdeal", ("bidding", "all_pass", *HAND_PARTS))
        declared, value = declare_misdeal(
            seats.bidders, body.misdeal, seats.deal.hand_size, seats.absent
        )
        entered["misdeal"] = declared
        return Hand(seats, entered, "misdeal", hand_value=value)
    all_pass = all_pass_flag(body.all_pass)
    auction = None
    if body.bidding is not None:
        floor = auction_floor(table.rules, state)
        starter = first_in_hand(seats.bidders, table.players, seats.dealer)
        auction = run_auction(seats.bidders, body.bidding, min_bid=floor, dealer=starter)
        entered["bidding"] = list(auction.entries)
    if all_pass or (auction is not None and auction.all_passed):
        check_everyone_passed(body, auction, all_pass)
        entered["all_pass"] = True
        return Hand(seats, entered, "all_pass", auction)
    if auction is not None and not auction.finished and (not partial or body.contract is not None):
        raise unfinished_auction(auction)
    return _read_played(table, state, body, entered, auction, partial, seats)


def _read_played(
    table: MightyTable,
    state: MightyState,
    body: Body,
    entered: MightyInput,
    auction: Auction | None,
    partial: bool,
    seats: RoundSeats,
) -> Hand:
    """Read a played hand's contract, kills, friend, points, holders and tricks, in that order,
    then check the cards they name."""
    floor = auction_floor(table.rules, state)
    contract = take_contract(seats.bidders, floor, body, entered, auction, partial)
    kills = take_kills(seats.bidders, seats.deal, body, entered, contract, partial)
    players = without(seats.bidders, [kill["player"] for kill in kills or []], "killed")
    take_friend_and_points(players, body, entered, partial)
    take_holders(body, entered)
    refereed = take_tricks(players, body, entered, partial, seats.absent)
    check_cards_named(table, players, entered, contract, seats.absent)
    waiting = still_waiting(entered, refereed, seats.deal, kills)
    return Hand(seats, entered, "hand", auction, None, kills, players, refereed, waiting)


#: the parts a played hand needs before it can be scored
SCORED_PARTS = ("contract", "friend", "opposition_points")


def take_contract(
    table: MightyTable,
    floor: int,
    body: Body,
    entered: MightyInput,
    auction: Auction | None,
    partial: bool,
) -> Contract | None:
    """Read the final contract against the auction's floor and the bid won (None: not sent)."""
    contract = read_contract(table, body.contract, floor, auction, partial)
    if contract is not None:
        entered["contract"] = contract
    return contract


def take_kills(
    table: MightyTable,
    deal: TableDeal,
    body: Body,
    entered: MightyInput,
    contract: Contract | None,
    partial: bool,
) -> list[Kill] | None:
    """Read who the boss killed, in the order named (None: a dry run that sent none)."""
    boss = contract["boss"] if contract else None
    kills = read_kills(table, deal, body.kill, boss, partial)
    if kills:
        entered["kill"] = stored_kill(kills)
    return kills


def take_friend_and_points(
    players: MightyTable, body: Body, entered: MightyInput, partial: bool
) -> None:
    """Read the friend (told by the tricks when they are sent) and the opposition's points."""
    with_tricks = body.tricks is not None
    friend = read_friend(players, body.friend, partial, derive=with_tricks)
    if friend is not None:
        entered["friend"] = friend
    points = read_points(body.opposition_points, partial or with_tricks)
    if points is not None:
        entered["opposition_points"] = points


def take_holders(body: Body, entered: MightyInput) -> None:
    """Read who held the mighty and the joker, where they are named."""
    for key in HOLDER_KEYS:
        sent = body.part(key)
        if sent is not None:
            entered[key] = read_holder(sent, key)


def take_tricks(
    players: MightyTable,
    body: Body,
    entered: MightyInput,
    partial: bool,
    absent: frozenset[str],
) -> Refereed | None:
    """Referee the hand's tricks when they are sent (None: the hand came without them)."""
    if body.tricks is None:
        return None
    return play_tricks(players, body.tricks, entered, partial, absent)


def check_cards_named(
    table: MightyTable,
    players: MightyTable,
    entered: MightyInput,
    contract: Contract | None,
    absent: frozenset[str],
) -> None:
    """Check the friend card against the rules and the boss's hand, then the holders named."""
    trump = contract["trump"] if contract else None
    check_friend_card_allowed(table.rules, entered.get("friend"), trump, absent)
    check_friend_card_held(
        table.rules, entered.get("friend"), contract["boss"] if contract else None
    )
    check_holders(players, entered)


def settled(refereed: Refereed | None) -> Settled | None:
    """Return the tricks and their totals once all of them are in (None: unfinished or none)."""
    if refereed is None or refereed[1] is None:
        return None
    return refereed[0], refereed[1]


def still_waiting(
    entered: MightyInput,
    refereed: Refereed | None,
    deal: TableDeal,
    kills: list[Kill] | None,
) -> bool:
    """Return True while the hand cannot be scored: tricks unfinished, kills or parts unsent."""
    if refereed is not None and settled(refereed) is None:
        return True
    if deal.kills and kills is None:
        return True
    return not all(key in entered for key in SCORED_PARTS)
