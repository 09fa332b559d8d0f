"""``scoring: role_chips``: a fixed chip per finishing role, and the sentences that say it."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.scoring import chip, points

from .support import NAMES, TAX, hand, order, seat

GREATER = {key: TAX[key] for key in ("greater_peasant", "greater_dalmuti")}


@pytest.mark.parametrize(
    ("count", "chips"),
    [
        (3, [4, 3, 0]),
        (4, [4, 3, 1, 0]),
        (5, [4, 3, 2, 1, 0]),
        (6, [4, 3, 2, 2, 1, 0]),
        (8, [4, 3, 2, 2, 2, 2, 1, 0]),
        (10, [4, 3, 2, 2, 2, 2, 2, 2, 1, 0]),
    ],
)
def test_each_finishing_role_earns_its_chip(count, chips):
    assert [chip(place, count) for place in range(1, count + 1)] == chips
    assert [points(place, count, "role_chips") for place in range(1, count + 1)] == chips


def test_a_hand_of_six_scores_the_chips():
    table, state = seat(6, scoring="role_chips")
    finish = order("Cy", "Fay", "Ann", "Eve", "Ben", "Dee")
    result = hand(table, state, {"tribute": TAX, "finish_order": finish}).result
    assert result["deltas"] == {"Ann": 2, "Ben": 1, "Cy": 4, "Dee": 0, "Eve": 2, "Fay": 3}
    lines = result["explanation"]
    assert (
        "Cy went out 1st of 6 and becomes Greater Dalmuti: that role's chip is 4 points." in lines
    )
    assert (
        "Fay went out 2nd of 6 and becomes Lesser Dalmuti: that role's chip is 3 points." in lines
    )
    assert (
        "Ann went out 3rd of 6 and becomes a merchant: every merchant's chip is 2 points." in lines
    )
    assert "Ben went out 5th of 6 and becomes Lesser Peasant: that role's chip is 1 point." in lines
    assert (
        "Dee finished last, 6th of 6, and becomes Greater Peasant: that role's chip is 0 points."
        in lines
    )
    assert not any("finished below" in line for line in lines)


def test_the_middle_seat_of_three_gets_three():
    table, state = seat(3, scoring="role_chips", allow_any_count=True)
    body = {"tribute": GREATER, "finish_order": order("Cy", "Ann", "Ben")}
    result = hand(table, state, body).result
    assert result["deltas"] == {"Ann": 3, "Ben": 0, "Cy": 4}
    assert (
        "Ann went out 2nd of 3, the middle seat (Lesser Dalmuti and Lesser Peasant at once): "
        "its chip is 3 points."
    ) in result["explanation"]


def test_the_other_scorings_are_unchanged():
    table, state = seat(6, scoring="players_below")
    finish = order(*NAMES[:6])
    deltas = hand(table, state, {"tribute": TAX, "finish_order": finish}).result["deltas"]
    assert list(deltas.values()) == [5, 4, 3, 2, 1, 0]
    table, state = seat(6, scoring="players_below_plus_one")
    deltas = hand(table, state, {"tribute": TAX, "finish_order": finish}).result["deltas"]
    assert list(deltas.values()) == [6, 5, 4, 3, 2, 1]
