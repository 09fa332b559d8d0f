"""The misdeal: a dealt hand's value, the limits and the misdeal round."""

from __future__ import annotations

import pytest

from refapp.games.mighty.bidding.misdeal import misdeal_value

from .support import LOW, PLAYERS, play, table, violation

ONE = ["HK", "D10", "JK", "C2", "C4", "D5", "H6", "S7", "S8", "D9"]


def test_misdeal_value_counts():
    assert misdeal_value(LOW, "point_cards") == 0
    assert misdeal_value(ONE, "point_cards") == 1
    assert misdeal_value(ONE, "half_ten") == 0.5
    assert misdeal_value(["H10", "D10", "C10"], "half_ten") == 1.5


def test_misdeal_round():
    out = play({"misdeal": {"player": "Cy", "hand": [c.lower() for c in LOW]}})
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.result["outcome"] == "misdeal"
    assert out.input["misdeal"]["hand"] == LOW
    assert out.state["next_dealer"] == "Cy"


@pytest.mark.parametrize(
    ("rules", "cards", "allowed"),
    [
        ({}, ONE, False),
        ({"misdeal": "half_ten"}, ONE, True),
        ({"misdeal": "half_ten_strict"}, ONE, False),
        ({"misdeal": "half_ten_strict"}, ["H10", "JK", "C9", *LOW[3:]], True),
        ({"misdeal": "off"}, LOW, False),
    ],
)
def test_misdeal_limits(rules, cards, allowed):
    raw = {"misdeal": {"player": "Cy", "hand": cards}}
    if allowed:
        assert play(raw, table(**rules)).result["outcome"] == "misdeal"
    else:
        assert violation(raw, table(**rules)).code == "misdeal_not_allowed"


@pytest.mark.parametrize(
    ("cards", "field"),
    [(LOW[:9], "misdeal.hand"), ([*LOW[:9], "SA"], "misdeal.hand.10"),
     ([*LOW[:9], "ZZ"], "misdeal.hand.10")],
)  # fmt: skip
def test_misdeal_bad_hand(cards, field):
    error = violation({"misdeal": {"player": "Cy", "hand": cards}})
    assert (error.code, error.field) == ("invalid_hand", field)


def test_misdeal_mixed_with_a_hand():
    raw = {"misdeal": {"player": "Cy", "hand": LOW}, "opposition_points": 3}
    assert violation(raw).code == "invalid_value"
