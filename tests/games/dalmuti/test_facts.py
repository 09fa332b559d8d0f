"""A hand's facts (``result.facts``) and the explanation said from them, fact by fact."""

from __future__ import annotations

import pytest

from .support import FIVE, TAX, hand, order, seat

FINISH = order("Cy", "Ann", "Eve", "Ben", "Dee")


def played(body: dict, count: int = 5, **rules) -> dict:
    """Play one hand at a fresh table and return its result."""
    table, state = seat(count, **rules)
    return hand(table, state, body).result


def test_the_tribute_given_is_a_fact_with_who_gave_whom_which_cards():
    facts = played({"tribute": TAX, "finish_order": FINISH})["facts"]
    assert facts["tribute"] == [
        {"role": "greater_peasant", "from": "Eve", "to": "Ann", "cards": [5, 6]},
        {"role": "greater_dalmuti", "from": "Ann", "to": "Eve", "cards": [12, 12]},
        {"role": "lesser_peasant", "from": "Dee", "to": "Ben", "cards": [7]},
        {"role": "lesser_dalmuti", "from": "Ben", "to": "Dee", "cards": [11]},
    ]


def test_tribute_cards_are_said_with_their_titles():
    result = played({"tribute": TAX, "finish_order": FINISH})
    lines = result["explanation"]
    assert lines[:4] == [
        "Tax: Eve (Greater Peasant) gave 5 (Abbess) and 6 (Knight) to Ann.",
        "Tax: Ann (Greater Dalmuti) gave 12 (Peasant) and 12 (Peasant) to Eve.",
        "Tax: Dee (Lesser Peasant) gave 7 (Seamstress) to Ben.",
        "Tax: Ben (Lesser Dalmuti) gave 11 (Stonecutter) to Dee.",
    ]
    template, values = result["explanation_parts"][0]
    assert "{first_t}" in template and values["first_t"] == "Abbess"  # translated as a title


def test_the_titles_follow_the_cards_best_first():
    tribute = {**TAX, "greater_peasant": [4, 2]}
    lines = played({"tribute": tribute, "finish_order": FINISH})["explanation"]
    assert lines[0] == "Tax: Eve (Greater Peasant) gave 2 (Archbishop) and 4 (Baroness) to Ann."


def test_finished_below_and_the_roles_reached_are_facts():
    facts = played({"tribute": TAX, "finish_order": FINISH})["facts"]
    assert facts["finished_below"] == {"Cy": 4, "Ann": 3, "Eve": 2, "Ben": 1, "Dee": 0}
    assert facts["finishing_roles"] == {
        "Cy": "greater_dalmuti",
        "Ann": "lesser_dalmuti",
        "Eve": "merchant",
        "Ben": "lesser_peasant",
        "Dee": "greater_peasant",
    }
    assert "rising" not in facts


def test_the_points_line_says_how_many_finished_below():
    lines = played({"tribute": TAX, "finish_order": FINISH})["explanation"]
    assert "Cy went out 1st of 5; 4 players finished below: 4 points." in lines
    assert "Ben went out 4th of 5; 1 player finished below: 1 point." in lines
    assert "Dee finished last, 5th of 5; nobody finished below: 0 points." in lines
    assert not any("(players below" in line for line in lines)


def test_plus_one_says_the_players_below_and_the_one():
    lines = played({"tribute": TAX, "finish_order": FINISH}, scoring="players_below_plus_one")[
        "explanation"
    ]
    assert "Cy went out 1st of 5; 4 players finished below, plus one: 5 points." in lines
    assert "Ben went out 4th of 5; 1 player finished below, plus one: 2 points." in lines
    assert "Dee finished last, 5th of 5; nobody finished below, plus one: 1 point." in lines


def test_a_peasant_who_fell_or_stayed_earns_no_bonus_line():
    # Eve (the Greater Peasant) stays last and Dee (the Lesser Peasant) 4th: neither rose
    result = played({"tribute": TAX, "finish_order": order(*FIVE)}, rising_bonus=True)
    assert result["rising_bonus"] == dict.fromkeys(FIVE, 0)
    assert not any(line.startswith("Rising bonus") for line in result["explanation"])
    assert not any("0 places up" in line or ": 0 to " in line for line in result["explanation"])
    assert result["facts"]["rising"] == [
        {"dalmuti": "Ann", "peasant": "Eve", "place_before": 5, "place_after": 5, "risen": 0},
        {"dalmuti": "Ben", "peasant": "Dee", "place_before": 4, "place_after": 4, "risen": 0},
    ]


def test_only_the_peasant_who_rose_is_said():
    # Dee (Lesser Peasant, 4th) rises to 1st: +3 to Ben; Eve (Greater Peasant) stays last
    finish = order("Dee", "Ann", "Ben", "Cy", "Eve")
    result = played({"tribute": TAX, "finish_order": finish}, rising_bonus=True)
    rising = [line for line in result["explanation"] if line.startswith("Rising bonus")]
    assert rising == [
        "Rising bonus: Dee (Lesser Peasant) finished 1st, 3 places up: +3 to Ben (Lesser Dalmuti)."
    ]
    assert result["facts"]["rising"][1]["risen"] == 3


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ([12, "J"], "Tax: Ann (Greater Dalmuti) gave 12 (Peasant) and a jester to Eve."),
        (["J", "J"], "Tax: Ann (Greater Dalmuti) gave both jesters to Eve."),
    ],
)
def test_a_jester_given_back_is_said_in_words(answer, said):
    body = {"tribute": {**TAX, "greater_dalmuti": answer}, "finish_order": FINISH}
    result = played(body, dalmuti_may_return_jester=True)
    assert said in result["explanation"]
    assert not any("(J" in line or " J " in line for line in result["explanation"])


def test_a_step_check_carries_the_tax_facts():
    table, state = seat(5)
    result = hand(table, state, {"tribute": TAX}, partial=True).result
    assert result["complete"] is False
    assert [item["role"] for item in result["facts"]["tribute"]] == [
        "greater_peasant",
        "greater_dalmuti",
        "lesser_peasant",
        "lesser_dalmuti",
    ]


def test_a_revolution_has_no_tribute_facts():
    body = {"revolution": {"player": "Cy", "kind": "plain"}, "finish_order": FINISH}
    assert played(body)["facts"]["tribute"] == []


def test_a_peasant_who_fell_is_a_fact_of_no_rise_and_no_line():
    # Dee (the Lesser Peasant, 4th) falls to last; Eve (the Greater Peasant) rises one place
    finish = order("Ann", "Ben", "Cy", "Eve", "Dee")
    result = played({"tribute": TAX, "finish_order": finish}, rising_bonus=True)
    assert result["facts"]["rising"][1] == {
        "dalmuti": "Ben",
        "peasant": "Dee",
        "place_before": 4,
        "place_after": 5,
        "risen": 0,
    }
    rising = [line for line in result["explanation"] if line.startswith("Rising bonus")]
    assert rising == [
        "Rising bonus: Eve (Greater Peasant) finished 4th, 1 place up: +1 to Ann (Greater Dalmuti)."
    ]
    assert result["rising_bonus"] == {"Ann": 1, "Ben": 0, "Cy": 0, "Dee": 0, "Eve": 0}
