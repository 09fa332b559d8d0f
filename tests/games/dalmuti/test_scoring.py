"""The Great Dalmuti's score: points per hand, the rising bonus, finish order, hands to play."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refapp.games.dalmuti.scoring import points

from .support import (
    FIVE,
    FOUR,
    GAME,
    NAMES,
    P5,
    TAX,
    below,
    hand,
    order,
    play_table_case,
    refused,
    seat,
    step,
)


def test_points_are_the_players_below():
    table, state = seat(5)
    outcome = hand(
        table, state, {"tribute": TAX, "finish_order": order("Cy", "Ann", "Eve", "Ben", "Dee")}
    )
    assert outcome.result["deltas"] == {"Ann": 3, "Ben": 1, "Cy": 4, "Dee": 0, "Eve": 2}
    assert outcome.result["ranks_after"] == ["Cy", "Ann", "Eve", "Ben", "Dee"]
    assert outcome.result["revolution"] is None
    place = "Cy went out 1st of 5; 4 players finished below: 4 points."
    assert place in outcome.result["explanation"]
    public = GAME.public_state(table, outcome.state, {})
    assert public["ranks"] == ["Cy", "Ann", "Eve", "Ben", "Dee"]
    assert public["dealer"] == "Dee"
    assert public["hands_played"] == 1


def test_players_below_plus_one():
    table, state = seat(4, scoring="players_below_plus_one")
    outcome = hand(table, state, {"tribute": TAX, "finish_order": order("Dee", "Cy", "Ben", "Ann")})
    assert outcome.result["deltas"] == {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}


def test_rising_bonus_pays_the_dalmutis_for_their_peasants_rise():
    table, state = seat(5, rising_bonus=True)
    finish = order("Eve", "Dee", "Ann", "Ben", "Cy")
    outcome = hand(table, state, {"tribute": TAX, "finish_order": finish})
    # Eve (GP) rose 4 places: +4 to Ann (GD); Dee (LP) rose 2 places: +2 to Ben (LD)
    assert outcome.result["rising_bonus"] == {"Eve": 0, "Dee": 0, "Ann": 4, "Ben": 2, "Cy": 0}
    assert outcome.result["deltas"] == {"Ann": 6, "Ben": 3, "Cy": 0, "Dee": 3, "Eve": 4}


def test_rising_bonus_is_never_negative():
    table, state = seat(5, rising_bonus=True)
    outcome = hand(table, state, {"tribute": TAX, "finish_order": order(*FIVE)})
    assert outcome.result["deltas"] == {"Ann": 4, "Ben": 3, "Cy": 2, "Dee": 1, "Eve": 0}


def test_rising_bonus_follows_the_ranks_during_a_greater_revolution():
    table, state = seat(5, rising_bonus=True)
    revolution = {"player": "Eve", "kind": "greater"}
    # during: Eve, Dee, Cy, Ben, Ann - Ann is the hand's Greater Peasant and wins
    outcome = hand(table, state, {"revolution": revolution, "finish_order": order(*FIVE)})
    assert outcome.result["rising_bonus"]["Eve"] == 4
    assert outcome.result["rising_bonus"]["Dee"] == 2


@pytest.mark.parametrize(
    ("finish", "code"),
    [
        (["Ann", "Ben", "Cy", "Dee", "Dee"], "finish_order_invalid"),
        (["Ann", "Ben", "Cy", "Dee"], "finish_order_invalid"),
        (["Ann", "Ben", "Cy", "Dee", "Zed"], "unknown_player"),
        ("Ann", "invalid_value"),
    ],
)
def test_the_finish_order_names_everyone_once(finish, code):
    table, state = seat(5)
    error = refused(code, hand, table, state, {"tribute": TAX, "finish_order": finish})
    assert error.field == "finish_order"


def test_a_hand_needs_its_finish_order():
    table, state = seat(5)
    refused("missing_field", hand, table, state, {"tribute": TAX})


def test_the_session_ends_after_hands_to_play():
    table, state = seat(4, hands_to_play=2)
    assert GAME.public_state(table, state, {})["hands_total"] == 2
    for _ in range(2):
        assert not GAME.is_over(table, state, {})
        state = hand(table, state, {"tribute": TAX, "finish_order": order(*NAMES[:4])}).state
    assert GAME.is_over(table, state, {})


def test_without_a_hand_count_the_table_decides_the_end():
    table, state = seat(4)
    assert GAME.public_state(table, state, {})["hands_total"] is None
    assert not GAME.is_over(table, {**state, "hands_played": 500}, {})


def test_the_explanation_accounts_for_every_player():
    table, state = seat(6, rising_bonus=True)
    finish = order("Fay", "Ann", "Eve", "Ben", "Dee", "Cy")
    lines = hand(table, state, {"tribute": TAX, "finish_order": finish}).result["explanation"]
    for name in finish:
        assert any(line.startswith(f"{name} ") for line in lines)
    assert lines[-1] == "This hand: Ann +9, Ben +4, Cy 0, Dee +1, Eve +3, Fay +5."


# -- properties ------------------------------------------------------------------------------------


@st.composite
def finished_hands(draw):
    """Draw a table size, house rules, a revolution (or none) and a finishing order."""
    count = draw(st.integers(3, 10))
    players = list(NAMES[:count])
    rules = {
        "allow_any_count": True,
        "scoring": draw(st.sampled_from(["players_below", "players_below_plus_one"])),
        "rising_bonus": draw(st.booleans()),
        "lesser_peasant_revolution": True,
    }
    kind = draw(st.sampled_from([None, "plain", "greater"]))
    revolution = None
    if kind:
        declarer = players[-1] if kind == "greater" else draw(st.sampled_from(players))
        if kind == "greater" and count >= 4:
            declarer = draw(st.sampled_from(players[-2:]))
        revolution = {"player": declarer, "kind": kind}
    return players, rules, revolution, draw(st.permutations(players))


@given(finished_hands())
def test_points_sum_to_the_triangle_plus_bonuses(case):
    players, rules, revolution, finish = case
    table, state = seat(len(players), **rules)
    body = {"revolution": revolution, "finish_order": list(finish), "tribute": None}
    outcome = hand(table, state, body, partial=True)
    result = outcome.result
    count = len(players)
    bonus = sum(result.get("rising_bonus", {}).values())
    extra = count if rules["scoring"] == "players_below_plus_one" else 0
    assert sum(result["deltas"].values()) == count * (count - 1) // 2 + extra + bonus
    assert set(result["deltas"]) == set(players)
    assert all(isinstance(delta, int) and delta >= 0 for delta in result["deltas"].values())
    assert bonus <= (count - 1) + (count - 2)
    assert sorted(result["ranks_after"]) == sorted(players)
    assert sorted(result["ranks_during"]) == sorted(players)
    assert result["deltas"][finish[0]] >= result["deltas"][finish[-1]]


@given(finished_hands())
def test_ranks_after_a_hand_are_the_finish_order(case):
    players, rules, revolution, finish = case
    table, state = seat(len(players), **{**rules, "tax": False})
    outcome = hand(table, state, {"revolution": revolution, "finish_order": list(finish)})
    assert outcome.state["ranks"] == list(finish)
    assert GAME.public_state(table, outcome.state, {})["dealer"] == finish[-1]


@given(st.integers(3, 10))
def test_points_by_position_count_the_players_below(count):
    assert [points(p, count) for p in range(1, count + 1)] == list(range(count - 1, -1, -1))


# -- worked table cases (golden style, values from the rules file) ---------------------------------

TABLE_CASES = {
    "players below plus one": {
        "players": P5,
        "rules": {"scoring": "players_below_plus_one"},
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": ["Cy", "Ann", "Eve", "Ben", "Dee"]},
                deltas={"Ann": 4, "Ben": 2, "Cy": 5, "Dee": 1, "Eve": 3},
            )
        ],
    },
    "rising bonus: the Dalmutis gain what their peasants rose, never less than 0": {
        "players": P5,
        "rules": {"rising_bonus": True},
        "rounds": [
            # Eve (GP) rose 5 -> 1: Ann +4; Dee (LP) rose 4 -> 3: Ben +1
            step(
                {"tribute": TAX, "finish_order": ["Eve", "Ann", "Dee", "Ben", "Cy"]},
                deltas={"Ann": 7, "Ben": 2, "Cy": 0, "Dee": 2, "Eve": 4},
            ),
            # Cy (GP) rose 5 -> 2: Eve +3; Ben (LP) fell 4 -> 5: Ann +0
            step(
                {"tribute": TAX, "finish_order": ["Eve", "Cy", "Dee", "Ann", "Ben"]},
                deltas={"Eve": 7, "Cy": 3, "Dee": 2, "Ann": 1, "Ben": 0},
            ),
        ],
    },
    "rising bonus after a greater revolution follows the ranks during the hand": {
        "players": P5,
        "rules": {"rising_bonus": True},
        "rounds": [
            # during: Eve, Dee, Cy, Ben, Ann; Ann (GP) rose 5 -> 1: Eve +4; Ben (LP) 4 -> 2: Dee +2
            step(
                {
                    "revolution": {"player": "Eve", "kind": "greater"},
                    "finish_order": ["Ann", "Ben", "Eve", "Cy", "Dee"],
                },
                deltas={"Ann": 4, "Ben": 3, "Cy": 1, "Dee": 2, "Eve": 6},
            )
        ],
    },
    "hands_to_play ends the session; the highest totals share the win": {
        "players": FOUR,
        "rules": {"hands_to_play": 2},
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": FOUR}, state={"hands_played": 1, "hands_total": 2}
            ),
            step(
                {"tribute": TAX, "finish_order": FOUR[::-1]},
                deltas=below(*FOUR[::-1]),
                state={"hands_played": 2, "hands_left": 0},
            ),
        ],
        "totals": dict.fromkeys(FOUR, 3),
        "over": True,
        "winners": list(FOUR),
    },
}


@pytest.mark.parametrize("name", list(TABLE_CASES))
def test_worked_table_case(name):
    play_table_case(TABLE_CASES[name])
