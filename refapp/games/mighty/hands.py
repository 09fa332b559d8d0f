"""A round played: who is in it, then a misdeal, an all-pass or a hand, checked and scored.

At four, six and seven seats the round first reads who rests (``resting``) and, after the
auction, who is killed (``kill``); the hand is then checked and scored among its players only,
and everyone out of it scores 0 (the heading "Four, six and seven seats" of the Mighty rules in
docs/rules).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Account
from .bidding.auction import next_floor
from .bidding.contract import allowed_contract_changes
from .bidding.friend import friend_player
from .explain.hand import explain_hand, say_all_pass, say_misdeal, say_progress
from .explain.seats import say_out, say_resting
from .house_rules.rules import MightyRules, MightyTable
from .read_hand import Hand, RoundSeats, read_hand, settled
from .round_form import next_state, zero_result
from .scoring.score import score_hand
from .seats.deal import PLAIN_SEATS
from .seats.dealer import dealer_after_all_pass, dealer_after_hand
from .seats.resting import sitters_after
from .shapes import MightyInput, MightyOutcome, MightyResult, MightyState, TricksResult
from .tricks.totals import Settled, tricks_result


def play_round(
    table: MightyTable,
    state: MightyState,
    raw: object,
    partial: bool,
    known: MightyOutcome | None,
) -> MightyOutcome:
    """Check a round (a played hand, a misdeal or an all-pass) and score it."""
    hand = read_hand(table, state, raw, partial)
    if hand.form == "misdeal":
        return _misdeal(table, state, hand)
    if hand.form == "all_pass":
        return _everyone_passed(table, state, hand)
    if hand.waiting:
        return MightyOutcome(hand.input, progress(table, hand), state)
    if known is not None and hand.input == known.input:
        result = known.result
    else:
        result = _scored(table, hand, settled(hand.refereed))
    return _hand_played(table, state, hand, result)


def _after(
    table: MightyTable,
    state: MightyState,
    seats: RoundSeats,
    outcome: str,
    dealer: str | None,
    reopen: bool = False,
    ruling: Sequence[str] = (),
) -> MightyState:
    """Return the state after a round, with the next hand's sitters at four, six or seven."""
    after = next_state(table, state, outcome, dealer, reopen)
    if seats.deal.seats != PLAIN_SEATS:
        after["sits_out"] = sitters_after(seats.deal, outcome, seats.resting, dealer, ruling)
    return after


def _misdeal(table: MightyTable, state: MightyState, hand: Hand) -> MightyOutcome:
    """Score a thrown-in hand: nobody scores, and its declarer deals next."""
    seats = hand.seats
    player = hand.input["misdeal"]["player"]
    account = Account()
    say_misdeal(account, player, hand.hand_value, table.rules)
    say_resting(account, seats.resting, seats.named)
    result = zero_result(table, "misdeal", account)
    result.update({"declarer": player, "hand_value": hand.hand_value})
    result.update(seats.fields())
    return MightyOutcome(hand.input, result, _after(table, state, seats, "misdeal", player))


def _everyone_passed(table: MightyTable, state: MightyState, hand: Hand) -> MightyOutcome:
    """Score an auction nobody bid in: a zero round, the same dealer deals again."""
    seats = hand.seats
    starter = hand.auction.starter if hand.auction is not None else None
    dealer = dealer_after_all_pass(seats.dealer, state, starter)
    reopen = table.rules.all_pass == "open_kitty" and not state.get("kitty_open")
    account = Account()
    say_all_pass(account, next_floor(table.rules, reopen=True), dealer, reopen)
    say_resting(account, seats.resting, seats.named)
    result = zero_result(table, "all_pass", account)
    result["kitty_open"] = reopen
    result.update(seats.fields())
    after = _after(table, state, seats, "all_pass", dealer, reopen)
    return MightyOutcome(hand.input, result, after)


def _scored(table: MightyTable, hand: Hand, refereed: Settled | None) -> MightyResult:
    """Score a hand not scored before, with the bid that won its auction when one was played."""
    result = score(table, hand, refereed)
    if hand.auction is not None:
        result["winning_bid"] = {"player": hand.auction.leader, **hand.auction.top.as_dict()}
    return result


def _hand_played(
    table: MightyTable, state: MightyState, hand: Hand, result: MightyResult
) -> MightyOutcome:
    """Return a scored hand's outcome with the state after it: the next dealer and sitters."""
    entered = hand.input
    seats = hand.seats
    dealt: MightyInput = {**entered, "dealer": seats.dealer} if seats.dealer else entered
    dealer = dealer_after_hand(table, state, dealt, result)
    ruling = _ruling(table, entered)
    return MightyOutcome(
        entered, result, _after(table, state, seats, "hand", dealer, ruling=ruling)
    )


def _ruling(table: MightyTable, entered: MightyInput) -> list[str]:
    """Return the hand's boss and real friend in the order of play (the boss alone without)."""
    boss = entered["contract"]["boss"]
    friend = friend_player(entered["friend"], boss)
    return sorted({boss} | ({friend} if friend is not None else set()), key=table.seat)


def score(table: MightyTable, hand: Hand, refereed: Settled | None) -> MightyResult:
    """Score a checked hand among its players and explain every point (the others score 0).

    With ``refereed`` (a hand's ten tricks and what they show) the result lists the tricks too.
    """
    rules = MightyRules.of(table.rules)
    entered = hand.input
    players = hand.players.players if hand.players is not None else ()
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
    say_out(account, boss, hand.kills or [], hand.seats.resting, hand.seats.named)
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
        "contract": contract.copy(),
        "self_friend": friend is None and "none" not in entered["friend"],
        "facts": facts,
        **extra,
        **hand.seats.fields(hand.killed),
    }


def progress(table: MightyTable, hand: Hand) -> MightyResult:
    """Return a dry run's result for the parts sent: what was checked and what comes next."""
    auction, refereed = hand.auction, hand.refereed
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
    say_progress(account, hand.input, auction, refereed[0] if refereed is not None else None)
    result.update({"deltas": dict.fromkeys(table.players, 0), **account.result()})
    result.update(hand.seats.fields(hand.killed))
    return result
