"""The score of a played hand: outcomes, formulas, multipliers, the back-run and the share."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from refapp.games.errors import Refusal
from refapp.games.mighty.cards import DECK, TRUMPS
from refapp.games.mighty.tricks.holders import HOLDERS

from .support import PLAYERS, deltas, hand, play, table


@pytest.mark.parametrize(
    ("raw", "rules", "expected", "outcome", "m"),
    [
        (hand(15, "H", 3, friend={"card": "JK", "player": "Ben"}), {}, deltas(10, 5, -5, -5, -5),
         "ruling_win", 5),
        (hand(18, "C", 5), {}, deltas(-12, -6, 6, 6, 6), "opposition_win", 6),
        (hand(14, "D", 6), {}, deltas(2, 1, -1, -1, -1), "critic", 1),
        (hand(14, "D", 6), {"critic": "draw"}, deltas(0, 0, 0, 0, 0), "critic", 0),
        (hand(14, "D", 6), {"critic": "win"}, deltas(8, 4, -4, -4, -4), "critic", 4),
        (hand(16, "S", 0), {}, deltas(24, 12, -12, -12, -12), "ruling_win", 12),
        (hand(16, "S", 0), {"run": "fixed_20"}, deltas(40, 20, -20, -20, -20), "ruling_win", 20),
        (hand(16, "S", 0), {"run": "none"}, deltas(12, 6, -6, -6, -6), "ruling_win", 6),
        (hand(20, "H", 0), {}, deltas(80, 40, -40, -40, -40), "ruling_win", 40),
        (hand(20, "H", 0), {"declared_run_double": False}, deltas(40, 20, -20, -20, -20),
         "ruling_win", 20),
        (hand(14, "NT", 4), {}, deltas(16, 8, -8, -8, -8), "ruling_win", 8),
        (hand(14, "NT", 4), {"double_no_trump": False}, deltas(8, 4, -4, -4, -4), "ruling_win", 4),
        (hand(15, "D", 4, mighty_holder="kitty"), {}, deltas(20, 10, -10, -10, -10),
         "ruling_win", 10),
        (hand(15, "D", 3, mighty_holder="opposition"), {"no_card_means": "buried_only"},
         deltas(10, 5, -5, -5, -5), "ruling_win", 5),
        (hand(16, "C", 3, joker_holder="opposition"), {}, deltas(24, 12, -12, -12, -12),
         "ruling_win", 12),
        (hand(16, "C", 3, joker_holder="kitty"), {"double_no_joker": False},
         deltas(12, 6, -6, -6, -6), "ruling_win", 6),
        (hand(17, "S", 2, friend={"none": True}), {}, deltas(56, -14, -14, -14, -14),
         "ruling_win", 14),
        (hand(17, "S", 2, friend={"none": True}), {"double_no_friend": False},
         deltas(28, -7, -7, -7, -7), "ruling_win", 7),
        (hand(15, "H", 4, friend={"card": "HA", "player": "Ann"}), {}, deltas(20, -5, -5, -5, -5),
         "ruling_win", 5),
        (hand(15, "H", 8, friend={"none": True}), {}, deltas(-24, 6, 6, 6, 6), "opposition_win", 6),
        (hand(14, "S", 15), {}, deltas(-36, -18, 18, 18, 18), "opposition_win", 18),
        (hand(14, "S", 15), {"back_run": "double"}, deltas(-72, -36, 36, 36, 36),
         "opposition_win", 36),
        (hand(14, "S", 15), {"back_run": "seed_penalty"}, deltas(-140, -14, 18, 18, 18),
         "opposition_win", 18),
        (hand(14, "S", 15, friend={"none": True}), {"back_run": "seed_penalty"},
         deltas(-140, 18, 18, 18, 18), "opposition_win", 18),
        (hand(18, "C", 5), {"lose_formula": "shortfall"}, deltas(-6, -3, 3, 3, 3),
         "opposition_win", 3),
        (hand(15, "H", 2), {"win_formula": "taken_minus_10"}, deltas(16, 8, -8, -8, -8),
         "ruling_win", 8),
        (hand(15, "H", 2), {"win_formula": "pagat"}, deltas(14, 7, -7, -7, -7), "ruling_win", 7),
        (hand(16, "H", 4), {"win_formula": "pagat", "critic": "win"}, deltas(12, 6, -6, -6, -6),
         "critic", 6),
    ],
)  # fmt: skip
def test_score(raw, rules, expected, outcome, m):
    result = play(raw, table(**rules)).result
    assert result["deltas"] == expected
    assert result["outcome"] == outcome
    assert result["m"] == m
    assert result["explanation"]
    json.dumps(result)


def test_seed_example_1_result_fields():
    result = play(hand(15, "H", 3, friend={"card": "JK", "player": "Ben"})).result
    assert result["ruling_points"] == 17
    assert result["base"] == 5
    assert result["multipliers"] == []
    assert result["back_run"] is False
    assert result["explanation"][-1] == (
        "Ann (boss) +10, Ben (friend) +5, Cy, Dee and Eve (opposition) -5 each."
    )


def test_the_maximum():
    raw = hand(20, "NT", 0, friend={"none": True}, mighty_holder="kitty", joker_holder="kitty")
    result = play(raw).result
    assert result["deltas"] == deltas(2560, -640, -640, -640, -640)
    assert result["multipliers"] == [
        "run", "declared_run", "no_trump", "no_mighty", "no_joker", "no_friend",
    ]  # fmt: skip
    assert "= 640" in " ".join(result["explanation"])


def test_explanation_shows_the_arithmetic():
    result = play(hand(15, "NT", 0, friend={"card": "HA", "player": "Ben"})).result
    assert "Base 5 = 15 - 10; ×2 run; ×2 no-trump = 20." in " ".join(result["explanation"])
    assert result["deltas"] == deltas(40, 20, -20, -20, -20)


def test_back_run_boundary():
    assert play(hand(13, "H", 13)).result["back_run"] is True
    assert play(hand(13, "H", 12)).result["back_run"] is False


def test_seed_penalty_says_not_zero_sum():
    result = play(hand(14, "S", 15), table(back_run="seed_penalty")).result
    assert sum(result["deltas"].values()) != 0
    assert any("not zero-sum" in line for line in result["explanation"])


def test_first_trick_friend():
    tab = table(friend_types=["card", "first_trick"])
    friend = play(hand(15, "H", 3, friend={"first_trick": "Cy"}), tab)
    assert friend.result["deltas"] == deltas(10, -5, 5, -5, -5)
    assert friend.state["next_dealer"] == "Cy"
    alone = play(hand(15, "H", 3, friend={"first_trick": "Ann"}), tab)
    assert alone.result["deltas"] == deltas(20, -5, -5, -5, -5)
    assert alone.result["multipliers"] == []


# -- properties -----------------------------------------------------------------------------------


RULE_CHOICES = {
    "win_formula": ["bid_minus_10", "taken_minus_10", "pagat"],
    "critic": ["ruling_plus_one", "draw", "win"],
    "lose_formula": ["twice_shortfall", "shortfall"],
    "run": ["double", "fixed_20", "none"],
    "declared_run_double": [True, False],
    "double_no_trump": [True, False],
    "double_no_mighty": [True, False],
    "double_no_joker": [True, False],
    "double_no_friend": [True, False],
    "no_card_means": ["not_held_by_ruling", "buried_only"],
    "back_run": ["flag", "double", "seed_penalty"],
}


house_rules = st.fixed_dictionaries({key: st.sampled_from(v) for key, v in RULE_CHOICES.items()})


@st.composite
def played_hands(draw):
    """Draw a played hand's input: any contract, friend, points and holders."""
    boss = draw(st.sampled_from(PLAYERS))
    kind = draw(st.sampled_from(["card", "self", "none"]))
    if kind == "none":
        friend = {"none": True}
    else:
        others = [p for p in PLAYERS if p != boss]
        player = boss if kind == "self" else draw(st.sampled_from(others))
        friend = {"card": draw(st.sampled_from(DECK)), "player": player}
    raw = hand(
        draw(st.integers(13, 20)),
        draw(st.sampled_from(TRUMPS)),
        draw(st.integers(0, 20)),
        boss=boss,
        friend=friend,
    )
    for key in ("mighty_holder", "joker_holder"):
        holder = draw(st.sampled_from([None, *HOLDERS]))
        if holder is not None:
            raw[key] = holder
    return raw


def scored(raw, rules):
    try:
        return play(raw, table(**rules)).result
    except Refusal as error:
        if error.code != "holder_conflict":
            raise
        reject()


@settings(max_examples=400, suppress_health_check=[HealthCheck.filter_too_much])
@given(played_hands(), house_rules)
def test_property_zero_sum_and_signs(raw, rules):
    result = scored(raw, rules)
    moves = result["deltas"]
    assert set(moves) == set(PLAYERS)
    assert all(isinstance(d, int) for d in moves.values())
    if not (result["back_run"] and rules["back_run"] == "seed_penalty"):
        assert sum(moves.values()) == 0
    boss = moves[raw["contract"]["boss"]]
    if result["outcome"] == "ruling_win":
        assert boss > 0
    elif result["outcome"] == "opposition_win":
        assert boss < 0
    else:
        assert result["outcome"] == "critic"
        assert boss >= 0
        assert (boss > 0) == (result["m"] > 0)
        if rules["critic"] == "draw":
            assert result["m"] == 0
    if result["outcome"] in ("ruling_win", "opposition_win"):
        assert isinstance(result["m"], int) and result["m"] > 0
    json.dumps(result)


@settings(max_examples=400, suppress_health_check=[HealthCheck.filter_too_much])
@given(played_hands(), house_rules.filter(lambda r: r["win_formula"] != "pagat"))
def test_property_boss_never_beyond_2560(raw, rules):
    result = scored(raw, rules)
    assert abs(result["deltas"][raw["contract"]["boss"]]) <= 2560


# -- regressions from the rules audit --------------------------------------------------------------


def test_pagat_formula_has_no_floor():
    """pagat: m = 2(B-13) + (n-B), so a critic scored as a win at 13 is worth 0."""
    result = play(hand(13, "H", 7), table(win_formula="pagat", critic="win")).result
    assert (result["outcome"], result["base"], result["m"]) == ("critic", 0, 0)
    assert result["deltas"] == deltas(0, 0, 0, 0, 0)


def test_back_run_double_is_not_a_ruling_multiplier():
    """Multipliers apply only when the ruling side wins; a doubled back-run lists none."""
    result = play(hand(14, "S", 15), table(back_run="double")).result
    assert (result["base"], result["m"], result["multipliers"]) == (18, 36, [])
    assert result["back_run"] is True
    assert "×2 back-run = 36" in " ".join(result["explanation"])
