"""The game as a whole: set-up, dry runs, all-pass rounds, the dealer and the state."""

from __future__ import annotations

import json

import pytest

from refapp.games.errors import Refusal

from .support import GAME, LOW, PLAYERS, WON, deltas, fresh, hand, passes, play, table, violation

# -- session set-up -------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 8, 10])
def test_four_to_seven_players_only(count):
    with pytest.raises(Refusal) as caught:
        GAME.check_players([f"P{i}" for i in range(count)], GAME.resolve_rules({}))
    assert caught.value.code == "bad_player_count"
    assert caught.value.params["low"] == 4 and caught.value.params["high"] == 7


def test_defaults_follow_the_seed():
    rules = GAME.resolve_rules({})
    assert rules["min_bid"] == 13
    assert rules["friend_types"] == ["card", "none"]
    assert rules["misdeal"] == "point_cards"
    assert rules["critic"] == "ruling_plus_one"
    assert rules["back_run"] == "flag"


@pytest.mark.parametrize(
    "overrides",
    [{"critic": "maybe"}, {"friend_types": []}, {"friend_types": ["self"]}, {"min_bid": 21},
     {"unknown": 1}],
)  # fmt: skip
def test_bad_house_rules(overrides):
    with pytest.raises(Refusal) as caught:
        GAME.resolve_rules(overrides)
    assert caught.value.code == "invalid_rules"


def test_public_state_before_the_first_hand():
    tab = table()
    shown = GAME.public_state(tab, fresh(tab), dict.fromkeys(PLAYERS, 0))
    assert shown["next_dealer"] is None
    assert shown["dealer_free"] is True
    assert shown["min_bid"] == 13
    assert shown["mighty_card"] == {"S": "DA", "H": "SA", "D": "SA", "C": "SA", "NT": "SA"}
    assert shown["joker_call_card"]["C"] == "S3"
    json.dumps(shown)
    assert GAME.is_over(tab, fresh(tab), {}) is False


# -- dry runs -------------------------------------------------------------------------------------


def test_dry_run_of_a_contract_alone():
    out = play({"contract": {"boss": "Cy", "bid": 16, "trump": "d"}}, partial=True)
    assert out.result["complete"] is False
    assert out.input == {"contract": {"boss": "Cy", "bid": 16, "trump": "D"}}


def test_dry_run_of_a_whole_hand_scores_it():
    assert play(hand(), partial=True).result["deltas"] == deltas(10, 5, -5, -5, -5)


# -- all pass, dealers and the state --------------------------------------------------------------


def test_all_pass_redeal():
    out = play({"dealer": "Cy", "all_pass": True})
    assert out.result["outcome"] == "all_pass"
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.state["next_dealer"] == "Cy"
    assert out.state["min_bid"] == 13


def test_all_pass_by_bidding_log():
    out = play({"dealer": "Dee", "bidding": passes("Dee", "Eve", "Ann", "Ben", "Cy")})
    assert out.result["outcome"] == "all_pass"
    assert out.input["all_pass"] is True
    assert out.state["next_dealer"] == "Dee"


def test_all_pass_open_kitty_raises_the_minimum_once():
    tab = table(all_pass="open_kitty")
    state = play({"dealer": "Ann", "all_pass": True}, tab).state
    assert state["min_bid"] == 15 and state["kitty_open"] is True
    assert GAME.public_state(tab, state, {})["min_bid"] == 15
    error = violation({"dealer": "Ann", "bidding": [{"player": "Ann", "bid": 14, "trump": "S"}]},
                      tab, state, partial=True)  # fmt: skip
    assert error.code == "bid_too_low"
    assert violation(hand(14), tab, state).code == "bid_too_low"
    again = play({"all_pass": True}, tab, state).state
    assert again["min_bid"] == 13 and again["kitty_open"] is False
    after = play(hand(15), tab, state).state
    assert after["min_bid"] == 13


def test_all_pass_errors():
    assert violation({"all_pass": "yes"}).code == "invalid_value"
    assert violation({**hand(), "all_pass": True}).code == "invalid_value"
    assert violation({"all_pass": True, "bidding": WON}).code == "invalid_value"
    everyone = passes("Ann", "Ben", "Cy", "Dee", "Eve")
    assert violation({**hand(), "bidding": everyone}).code == "boss_not_auction_winner"


def test_dealer_sequence():
    tab = table()
    state = fresh(tab)
    state = GAME.play(tab, state, {**hand(), "dealer": "Eve"}).state  # first dealer is free
    assert state["next_dealer"] == "Ben"  # the friend deals next
    error = violation({**hand(), "dealer": "Ann"}, tab, state)
    assert (error.code, error.field) == ("wrong_dealer", "dealer")
    state = GAME.play(tab, state, {**hand(friend={"none": True}), "dealer": "Ben"}).state
    assert state["next_dealer"] == "Ann"  # no friend: the boss deals
    self_friend = hand(friend={"card": "HA", "player": "Ann"})
    state = GAME.play(tab, state, {**self_friend, "dealer": "Ann"}).state
    assert state["next_dealer"] == "Ann"
    state = GAME.play(tab, state, {"misdeal": {"player": "Dee", "hand": LOW}}).state
    assert state["next_dealer"] == "Dee"
    assert violation({"dealer": "Ann", "all_pass": True}, tab, state).code == "wrong_dealer"
    state = GAME.play(tab, state, {"all_pass": True}).state
    assert state["next_dealer"] == "Dee"
    assert GAME.public_state(tab, state, {})["next_dealer"] == "Dee"
    json.dumps(state)


def test_unknown_dealer():
    assert violation({**hand(), "dealer": "Zed"}).code == "unknown_player"
