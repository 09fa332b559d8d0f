"""A round played: who is in it, then a misdeal, an all-pass or a hand, checked and scored.

At four, six and seven seats the round first reads who rests (``resting``) and, after the
auction, who is killed (``kill``); the hand is then checked and scored among its players only,
and everyone out of it scores 0 (the heading "Four, six and seven seats" of the Mighty rules in
docs/rules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..game import Account, Outcome, Table
from .auction import Auction, auction_floor, next_floor, run_auction, unfinished_auction
from .contract import allowed_contract_changes
from .deal import PLAIN_SEATS, Deal, deal_for, out_of_deck
from .dealer import dealer_after_all_pass, dealer_after_hand
from .explain import explain_hand, say_all_pass, say_misdeal, say_progress
from .explain_seats import say_out, say_resting
from .friend import friend_player
from .hand_parts import (
    check_cards_named,
    settled,
    still_waiting,
    take_contract,
    take_friend_and_points,
    take_holders,
    take_kills,
    take_tricks,
)
from .hand_seats import first_in_hand, without
from .kill import Kill
from .misdeal import declare_misdeal
from .resting import expected_sitters, read_sitters, sitters_after
from .rounds import (
    HAND_PARTS,
    all_pass_flag,
    check_alone,
    check_everyone_passed,
    next_state,
    zero_result,
)
from .rules import MightyRules
from .scoring import score_hand
from .shapes import MightyInput, MightyResult, OutOfHand, TricksResult
from .trick_totals import Refereed, Settled, tricks_result


@dataclass(frozen=True)
class Seating:
    """Who is in a round: how it is dealt, who rests, who bids, and who deals it."""

    deal: Deal
    resting: list[str]
    #: the players of the auction: everyone seated but those resting
    bidders: Table
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


def seat_round(
    table: Table,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    dealer: str | None,
    partial: bool,
) -> Seating:
    """Return who is in the round: the sitters read (``wrong_sitter``, ``missing_field``)."""
    deal = deal_for(table.rules, table.size)
    resting = read_sitters(table, deal, state, raw, dealer, partial)
    known = dealer or (resting[0] if deal.sitters == 1 and resting else None)
    named = bool(resting) and not expected_sitters(deal, state, dealer)
    return Seating(
        deal,
        resting,
        without(table, resting, "resting"),
        known,
        named,
        out_of_deck(table.rules, table.size),
    )


def play_round(
    table: Table,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    entered: MightyInput,
    partial: bool,
    known: Outcome | None,
) -> Outcome:
    """Check a round (a played hand, a misdeal or an all-pass) and score it."""
    seats = seat_round(table, state, raw, entered.get("dealer"), partial)
    outcome = _play_seated(table, state, raw, entered, partial, known, seats)
    if partial and not seats.resting and outcome.result.get("complete") is not False:
        # a dry run of a whole round refuses what recording refuses: sitters it cannot tell
        read_sitters(table, seats.deal, state, raw, entered.get("dealer"), partial=False)
    return outcome


def _play_seated(
    table: Table,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    entered: MightyInput,
    partial: bool,
    known: Outcome | None,
    seats: Seating,
) -> Outcome:
    """Check and score a round whose seats are read (``seat_round``)."""
    if raw.get("sits_out") is not None:
        entered["sits_out"] = seats.resting[0] if seats.deal.sitters == 1 else seats.resting
    if raw.get("misdeal") is not None:
        check_alone(raw, "misdeal", ("bidding", "all_pass", *HAND_PARTS))
        return _misdeal(table, state, raw, entered, seats)
    all_pass = all_pass_flag(raw)
    auction = None
    if raw.get("bidding") is not None:
        floor = auction_floor(table.rules, state)
        starter = first_in_hand(seats.bidders, table.players, seats.dealer)
        auction = run_auction(seats.bidders, raw["bidding"], min_bid=floor, dealer=starter)
        entered["bidding"] = list(auction.entries)
    if all_pass or (auction is not None and auction.all_passed):
        return _everyone_passed(table, state, raw, entered, auction, all_pass, seats)
    if (
        auction is not None
        and not auction.finished
        and (not partial or raw.get("contract") is not None)
    ):
        raise unfinished_auction(auction)
    return _hand(table, state, raw, entered, auction, partial, known, seats)


def _after(
    table: Table,
    state: Mapping[str, Any],
    seats: Seating,
    outcome: str,
    dealer: str | None,
    reopen: bool = False,
    ruling: Sequence[str] = (),
) -> dict[str, Any]:
    """Return the state after a round, with the next hand's sitters at four, six or seven."""
    after = next_state(table, state, outcome, dealer, reopen)
    if seats.deal.seats != PLAIN_SEATS:
        after["sits_out"] = sitters_after(seats.deal, outcome, seats.resting, dealer, ruling)
    return after


def _misdeal(
    table: Table,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    entered: MightyInput,
    seats: Seating,
) -> Outcome:
    """Score a thrown-in hand: nobody scores, and its declarer deals next."""
    declared, value = declare_misdeal(
        seats.bidders, raw["misdeal"], seats.deal.hand_size, seats.absent
    )
    entered["misdeal"] = declared
    player = declared["player"]
    account = Account()
    say_misdeal(account, player, value, table.rules)
    say_resting(account, seats.resting, seats.named)
    result = zero_result(table, "misdeal", account)
    result.update({"declarer": player, "hand_value": value})
    result.update(seats.fields())
    return Outcome(entered, result, _after(table, state, seats, "misdeal", player))


def _everyone_passed(
    table: Table,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    entered: MightyInput,
    auction: Auction | None,
    all_pass: bool,
    seats: Seating,
) -> Outcome:
    """Score an auction nobody bid in: a zero round, the same dealer deals again."""
    check_everyone_passed(raw, auction, all_pass)
    entered["all_pass"] = True
    starter = auction.starter if auction is not None else None
    dealer = dealer_after_all_pass(seats.dealer, state, starter)
    reopen = table.rules["all_pass"] == "open_kitty" and not state.get("kitty_open")
    account = Account()
    say_all_pass(account, next_floor(table.rules, reopen=True), dealer, reopen)
    say_resting(account, seats.resting, seats.named)
    result = zero_result(table, "all_pass", account)
    result["kitty_open"] = reopen
    result.update(seats.fields())
    return Outcome(entered, result, _after(table, state, seats, "all_pass", dealer, reopen))


def _hand(
    table: Table,
    state: Mapping[str, Any],
    raw: Mapping[str, Any],
    entered: MightyInput,
    auction: Auction | None,
    partial: bool,
    known: Outcome | None,
    seats: Seating,
) -> Outcome:
    """Check a played hand's contract, kills, friend, points and holders, then score it (a hand
    checked into its ``known`` input keeps its known result)."""
    floor = auction_floor(table.rules, state)
    contract = take_contract(seats.bidders, floor, raw, entered, auction, partial)
    kills = take_kills(seats.bidders, seats.deal, raw, entered, contract, partial)
    killed = [kill["player"] for kill in kills or []]
    players = without(seats.bidders, killed, "killed")
    take_friend_and_points(players, raw, entered, partial)
    take_holders(raw, entered)
    refereed = take_tricks(players, raw, entered, partial, seats.absent)
    check_cards_named(table, players, entered, contract, seats.absent)
    if still_waiting(entered, refereed, seats.deal, kills):
        shown = progress(table, entered, auction, refereed, seats.fields(killed))
        return Outcome(entered, shown, dict(state))
    if known is not None and entered == known.input:
        result = cast(MightyResult, known.result)
    else:
        result = _scored(table, players.players, entered, auction, settled(refereed), seats, kills)
    return _hand_played(table, state, entered, result, seats)


def _scored(
    table: Table,
    players: Sequence[str],
    entered: MightyInput,
    auction: Auction | None,
    refereed: Settled | None,
    seats: Seating,
    kills: Sequence[Kill] | None,
) -> MightyResult:
    """Score a hand not scored before, with the bid that won its auction when one was played."""
    result = score(table, players, entered, refereed, seats, kills or [])
    if auction is not None:
        result["winning_bid"] = {"player": auction.leader, **auction.top.as_dict()}
    return result


def _hand_played(
    table: Table,
    state: Mapping[str, Any],
    entered: MightyInput,
    result: MightyResult,
    seats: Seating,
) -> Outcome:
    """Return a scored hand's outcome with the state after it: the next dealer and sitters."""
    dealt = {**entered, "dealer": seats.dealer} if seats.dealer else entered
    dealer = dealer_after_hand(table, state, dealt, result)
    ruling = _ruling(table, entered)
    return Outcome(entered, result, _after(table, state, seats, "hand", dealer, ruling=ruling))


def _ruling(table: Table, entered: Mapping[str, Any]) -> list[str]:
    """Return the hand's boss and real friend in the order of play (the boss alone without)."""
    boss = entered["contract"]["boss"]
    friend = friend_player(entered["friend"], boss)
    return sorted({boss, friend} - {None}, key=table.seat)


def score(
    table: Table,
    players: Sequence[str],
    entered: Mapping[str, Any],
    refereed: Settled | None,
    seats: Seating,
    kills: Sequence[Kill],
) -> MightyResult:
    """Score a checked hand among its players and explain every point (the others score 0).

    With ``refereed`` (a hand's ten tricks and what they show) the result lists the tricks too.
    """
    rules = MightyRules.of(table.rules)
    contract = entered["contract"]
    boss = contract["boss"]
    friend = friend_player(entered["friend"], boss)
    scored = score_hand(
        rules,
        players,
        boss=boss,
        friend=friend,
        bid=contract["bid"],
        trump=contract["trump"],
        against=entered["opposition_points"],
        mighty_holder=entered.get("mighty_holder"),
        joker_holder=entered.get("joker_holder"),
        no_friend="none" in entered["friend"],
    )
    account, facts = explain_hand(table.rules, entered, scored, players, refereed)
    say_out(account, boss, kills, seats.resting, seats.named)
    extra: TricksResult = tricks_result(*refereed) if refereed is not None else {}
    return {
        "deltas": {name: scored.deltas.get(name, 0) for name in table.players},
        **account.result(),
        "outcome": scored.outcome,
        "ruling_points": scored.taken,
        "back_run": scored.back_run,
        "base": scored.base,
        "multipliers": scored.multipliers,
        "m": scored.m,
        "boss": boss,
        "friend": friend,
        "contract": dict(contract),
        "self_friend": friend is None and "none" not in entered["friend"],
        "facts": facts,
        **extra,
        **seats.fields([kill["player"] for kill in kills]),
    }


def progress(
    table: Table,
    entered: Mapping[str, Any],
    auction: Auction | None,
    refereed: Refereed | None,
    seat_fields: OutOfHand,
) -> MightyResult:
    """Return a dry run's result for the parts sent: what was checked and what comes next."""
    result: MightyResult = {"complete": False}
    if refereed is not None:
        result.update(tricks_result(*refereed))
    if auction is not None:
        result.update(auction.summary())
        if auction.finished:
            won = auction.top
            result["winning_bid"] = {"player": auction.leader, **won.as_dict()}
            result["contract_changes"] = allowed_contract_changes(won.count, won.trump, table.rules)
    account = Account()
    say_progress(account, entered, auction, refereed[0] if refereed is not None else None)
    result.update({"deltas": dict.fromkeys(table.players, 0), **account.result()})
    result.update(seat_fields)
    return result
