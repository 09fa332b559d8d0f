"""The auction: bids and their order, the bidding log, whose turn it is, an unfinished log."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refapp.games.errors import Refusal
from refapp.games.mighty.bidding.auction import Bid, beats, lowest_next_bid, run_auction
from refapp.games.mighty.cards import TRUMPS

from .support import PLAYERS, WON, hand, passes, play, table, typed_rules, violation


def test_beats_and_lowest_next_bid():
    rules = typed_rules({})
    assert beats(Bid(13, "NT"), Bid(13, "S"), rules)
    assert not beats(Bid(13, "H"), Bid(13, "S"), rules)
    assert not beats(Bid(13, "NT"), Bid(13, "NT"), rules)
    assert beats(Bid(14, "S"), Bid(13, "NT"), rules)
    assert lowest_next_bid(None, rules) == (13, TRUMPS)
    assert lowest_next_bid(Bid(14, "D"), rules) == (14, ("NT",))
    assert lowest_next_bid(Bid(14, "NT"), rules) == (15, TRUMPS)
    assert lowest_next_bid(Bid(20, "NT"), rules) is None
    plain = typed_rules({"no_trump_beats_same_number": False})
    assert not beats(Bid(13, "NT"), Bid(13, "S"), plain)
    assert lowest_next_bid(Bid(14, "D"), plain) == (15, TRUMPS)


def test_auction_incrementally():
    tab = table()
    log = [{"player": "Ben", "bid": 13, "trump": "S"}]
    auction = run_auction(tab, log, dealer="Ben")
    assert (auction.next_bidder, auction.lowest_next) == ("Cy", (13, ("NT",)))
    log += [*passes("Cy", "Dee"), {"player": "Eve", "bid": 14, "trump": "h"}]
    auction = run_auction(tab, log, dealer="Ben")
    assert auction.next_bidder == "Ann"
    assert auction.highest == Bid(14, "H")
    log += passes("Ann", "Ben")
    auction = run_auction(tab, log, dealer="Ben")
    assert auction.finished and auction.winner == "Eve"
    assert auction.next_bidder is None
    assert auction.entries[3] == {"player": "Eve", "bid": 14, "trump": "H"}


def test_auction_skips_players_who_passed():
    tab = table()
    log = [*passes("Ann", "Ben"), {"player": "Cy", "bid": 13, "trump": "D"}]
    log += [{"player": "Dee", "bid": 14, "trump": "D"}, *passes("Eve")]
    assert run_auction(tab, log).next_bidder == "Cy"


def test_auction_starts_with_the_first_entry_without_a_dealer():
    assert run_auction(table(), passes("Cy")).next_bidder == "Dee"
    assert run_auction(table(), []).next_bidder is None
    assert run_auction(table(), [], dealer="Eve").next_bidder == "Eve"


def test_pass_not_final():
    tab = table(pass_is_final=False)
    log = [{"player": "Ann", "bid": 13, "trump": "S"}, *passes("Ben")]
    log += [{"player": "Cy", "bid": 14, "trump": "S"}, *passes("Dee", "Eve", "Ann")]
    log += [{"player": "Ben", "bid": 15, "trump": "H"}]
    auction = run_auction(tab, log)
    assert auction.next_bidder == "Cy" and not auction.finished
    auction = run_auction(tab, [*log, *passes("Cy", "Dee", "Eve", "Ann")])
    assert auction.winner == "Ben"


def test_bid_of_20_ends_the_auction_when_the_rule_says_so():
    log = [{"player": "Ann", "bid": 20, "trump": "S"}]
    assert run_auction(table(bid20_ends_auction=True), log).winner == "Ann"
    open_auction = run_auction(table(), log)
    assert not open_auction.finished
    assert open_auction.lowest_next == (20, ("NT",))
    late = [*log, {"player": "Ben", "bid": 20, "trump": "NT"}]
    with pytest.raises(Refusal) as caught:
        run_auction(table(bid20_ends_auction=True), late)
    assert caught.value.code == "out_of_turn"


@pytest.mark.parametrize(
    ("log", "code", "field"),
    [
        ([{"player": "Ben", "bid": 13, "trump": "S"}, {"player": "Cy", "bid": 13, "trump": "NT"},
          {"player": "Dee", "bid": 13, "trump": "H"}], "bid_not_higher", "bidding.3.bid"),
        ([{"player": "Ben", "bid": 14, "trump": "S"}, {"player": "Cy", "bid": 14, "trump": "H"}],
         "bid_not_higher", "bidding.2.bid"),
        ([{"player": "Ben", "bid": 12, "trump": "S"}], "bid_too_low", "bidding.1.bid"),
        ([{"player": "Ben", "bid": 21, "trump": "S"}], "bid_too_high", "bidding.1.bid"),
        ([{"player": "Cy", "bid": 13, "trump": "S"}], "out_of_turn", "bidding.1.player"),
        ([*passes("Ben"), {"player": "Cy", "bid": 14, "trump": "D"}, *passes("Dee"),
          {"player": "Eve", "bid": 15, "trump": "D"}, *passes("Ann"),
          {"player": "Ben", "bid": 16, "trump": "S"}], "bid_after_pass", "bidding.6.player"),
        ([{"player": "Ben", "bid": 13, "trump": "S"}, *passes("Cy", "Dee", "Eve", "Ann"),
          {"player": "Ben", "bid": 14, "trump": "S"}], "out_of_turn", "bidding.6.player"),
        ([{"player": "Ben", "bid": 13}], "missing_field", "bidding.1.trump"),
        ([{"player": "Ben"}], "missing_field", "bidding.1.bid"),
        ([{"bid": 13, "trump": "S"}], "missing_field", "bidding.1.player"),
        ([{"player": "Ben", "pass": True, "bid": 13, "trump": "S"}], "invalid_value", "bidding.1"),
        ([{"player": "Ben", "pass": "yes"}], "invalid_value", "bidding.1.pass"),
        ([{"player": "Zed", "pass": True}], "unknown_player", "bidding.1.player"),
        (["Ben"], "invalid_value", "bidding.1"),
    ],
)  # fmt: skip
def test_auction_errors(log, code, field):
    error = violation({"dealer": "Ben", "bidding": log}, partial=True)
    assert (error.code, error.field) == (code, field)


def test_dry_run_of_an_unfinished_auction():
    log = [{"player": "Ben", "bid": 14, "trump": "S"}, *passes("Cy")]
    out = play({"dealer": "Ben", "bidding": log}, partial=True)
    assert out.result["complete"] is False
    assert out.result["next_bidder"] == "Dee"
    assert out.result["min_next_bid"] == 14
    assert out.result["min_next_bid_trumps"] == ["NT"]
    assert out.result["highest_bid"] == {"player": "Ben", "bid": 14, "trump": "S"}
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.input == {"dealer": "Ben", "bidding": [log[0], log[1]]}


def test_dry_run_of_a_finished_auction_lists_contract_changes():
    out = play({"bidding": WON}, partial=True)
    assert out.result["winning_bid"] == {"player": "Ann", "bid": 15, "trump": "H"}
    assert out.result["contract_changes"] == {"S": 17, "H": 15, "D": 17, "C": 17, "NT": 16}


def test_unfinished_auction_without_dry_run():
    raw = hand(15, "H", 3, bidding=WON[:3])
    assert violation(raw).code == "auction_not_finished"
    assert violation({"bidding": WON[:3], "contract": raw["contract"]}, partial=True).code == (
        "auction_not_finished"
    )


def test_boss_must_win_the_auction():
    error = violation(hand(15, "H", 3, boss="Ben", friend={"none": True}, bidding=WON))
    assert (error.code, error.field) == ("boss_not_auction_winner", "contract.boss")


def test_full_hand_with_bidding():
    log = [
        {"player": "Ben", "bid": 13, "trump": "S"}, {"player": "Cy", "bid": 13, "trump": "NT"},
        {"player": "Dee", "bid": 14, "trump": "D"}, *passes("Eve"),
        {"player": "Ann", "bid": 14, "trump": "NT"}, {"player": "Ben", "bid": 15, "trump": "S"},
        *passes("Cy", "Dee", "Ann"),
    ]  # fmt: skip
    raw = hand(15, "S", 4, boss="Ben", friend={"card": "JK", "player": "Cy"}, bidding=log)
    out = play({**raw, "dealer": "Ben"})
    assert out.result["deltas"] == {"Ann": -5, "Ben": 10, "Cy": 5, "Dee": -5, "Eve": -5}
    assert out.result["winning_bid"] == {"player": "Ben", "bid": 15, "trump": "S"}


# -- properties -----------------------------------------------------------------------------------


@settings(max_examples=200)
@given(st.data())
def test_property_legal_auctions_always_finish(data):
    """Playing only what the auction says is legal never raises and always ends."""
    tab = table(
        pass_is_final=data.draw(st.booleans()),
        no_trump_beats_same_number=data.draw(st.booleans()),
        bid20_ends_auction=data.draw(st.booleans()),
    )
    dealer = data.draw(st.sampled_from(PLAYERS))
    log: list[dict] = []
    auction = run_auction(tab, log, dealer=dealer)
    while not auction.finished:
        assert len(log) < 200  # bids only go up, so an auction is short
        floor = auction.lowest_next
        if floor is None or data.draw(st.integers(0, 2)) == 0:
            log.append({"player": auction.next_bidder, "pass": True})
        else:
            count = data.draw(st.integers(floor[0], 20))
            trump = data.draw(st.sampled_from(floor[1] if count == floor[0] else TRUMPS))
            log.append({"player": auction.next_bidder, "bid": count, "trump": trump})
        auction = run_auction(tab, log, dealer=dealer)
    if auction.all_passed:
        assert play({"dealer": dealer, "bidding": log}, tab).result["outcome"] == "all_pass"
    else:
        won = auction.highest
        raw = hand(won.count, won.trump, 0, boss=auction.winner, friend={"none": True})
        assert play({**raw, "dealer": dealer, "bidding": log}, tab).result["outcome"] == (
            "ruling_win"
        )
