"""A played hand's input: contract, friend, points and holders, and their cross-checks."""

from __future__ import annotations

import pytest

from .support import deltas, hand, play, violation


def test_stored_input_is_normalised():
    raw = hand(15, "nt", 3, friend={"card": "jk", "player": " Ben "}, mighty_holder="Boss")
    stored = play(raw).input
    assert stored["contract"] == {"boss": "Ann", "bid": 15, "trump": "NT"}
    assert stored["friend"] == {"card": "JK", "player": "Ben"}
    assert stored["mighty_holder"] == "boss"


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ({"friend": {"none": True}, "opposition_points": 3}, "missing_field", "contract"),
        (hand(friend={}), "invalid_value", "friend"),
        ({"contract": {"boss": "Ann", "bid": 15}, "friend": {"none": True},
          "opposition_points": 3}, "missing_field", "contract.trump"),
        (hand(boss="Zed"), "unknown_player", "contract.boss"),
        (hand(friend={"card": "HA", "player": "Zed"}), "unknown_player", "friend.player"),
        (hand(friend={"card": "HA"}), "missing_field", "friend.player"),
        (hand(friend={"player": "Ben"}), "missing_field", "friend.card"),
        (hand(friend={"card": "H1", "player": "Ben"}), "invalid_card", "friend.card"),
        (hand(friend={"first_trick": "Ben"}), "friend_type_not_allowed", "friend.first_trick"),
        (hand(friend={"none": False}), "invalid_value", "friend.none"),
        (hand(friend={"none": True, "card": "HA", "player": "Ben"}), "invalid_value", "friend"),
        (hand(points=21), "invalid_points", "opposition_points"),
        (hand(points=-1), "invalid_points", "opposition_points"),
        (hand(points="many"), "invalid_points", "opposition_points"),
        (hand(points=2.5), "invalid_points", "opposition_points"),
        (hand(bid=12), "bid_too_low", "contract.bid"),
        (hand(bid=21), "bid_too_high", "contract.bid"),
        (hand(bid="fifteen"), "invalid_value", "contract.bid"),
        (hand(trump="X"), "invalid_value", "contract.trump"),
        (hand(mighty_holder="dog"), "invalid_value", "mighty_holder"),
        (hand(friend={"none": True}, mighty_holder="friend"), "holder_conflict", "mighty_holder"),
        (hand(friend={"card": "HA", "player": "Ann"}, joker_holder="friend"), "holder_conflict",
         "joker_holder"),
        (hand(friend={"card": "SA", "player": "Ben"}, mighty_holder="kitty"), "holder_conflict",
         "mighty_holder"),
        (hand(friend={"card": "JK", "player": "Ben"}, joker_holder="opposition"),
         "holder_conflict", "joker_holder"),
        (hand(friend={"card": "SA", "player": "Ann"}, mighty_holder="opposition"),
         "holder_conflict", "mighty_holder"),
        (hand(points=0, mighty_holder="opposition"), "holder_conflict", "opposition_points"),
        ("not an object", "invalid_value", "round"),
    ],
)  # fmt: skip
def test_hand_errors(raw, code, field):
    error = violation(raw)
    assert (error.code, error.field) == (code, field)
    assert error.message


def test_friend_card_holders_that_agree():
    ok = hand(15, "S", 3, friend={"card": "DA", "player": "Ben"}, mighty_holder="friend")
    assert play(ok).result["outcome"] == "ruling_win"
    # with spades trump SA is an ordinary card, so nothing follows from naming it
    plain = hand(15, "S", 3, friend={"card": "SA", "player": "Ben"}, mighty_holder="boss")
    assert play(plain).result["multipliers"] == []
    buried = hand(15, "H", 3, friend={"card": "SA", "player": "Ann"}, mighty_holder="kitty")
    assert play(buried).result["multipliers"] == ["no_mighty"]


def test_error_message_quotes_the_value():
    error = violation(hand(friend={"card": "Q9", "player": "Ben"}))
    assert "'Q9'" in error.message
    assert error.as_dict()["code"] == "invalid_card"


# -- regressions from the rules audit --------------------------------------------------------------


def test_friend_card_mighty_may_be_reported_as_held_by_the_boss():
    """The friend card SA held by a real friend puts the mighty on the ruling side: boss is too."""
    result = play(hand(15, "H", 3, friend={"card": "SA", "player": "Ben"}, mighty_holder="boss"))
    assert result.result["multipliers"] == []
    joker = hand(15, "H", 3, friend={"card": "JK", "player": "Ben"}, joker_holder="boss")
    assert play(joker).result["deltas"] == deltas(10, 5, -5, -5, -5)
