"""The Great Dalmuti's revolutions: plain, greater, the lesser-peasant option, both jesters."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refapp.games.dalmuti.revolution import revolt, revolution_kinds

from .support import (
    ANN,
    CY_JESTERS,
    DEE,
    EVE,
    FIVE,
    GAME,
    NAMES,
    P5,
    SIX,
    TAX,
    below,
    due,
    hand,
    order,
    play_table_case,
    refused,
    roles,
    seat,
    step,
)


def test_a_plain_revolution_cancels_the_tax_and_keeps_the_ranks():
    table, state = seat(6)
    body = {"revolution": {"player": "Ben", "kind": "plain"}, "finish_order": order(*NAMES[:6])}
    outcome = hand(table, state, body)
    assert outcome.result["revolution"] == "plain"
    assert outcome.result["ranks_during"] == list(NAMES[:6])
    refused("tribute_not_allowed", hand, table, state, {**body, "tribute": TAX})


def test_a_greater_revolution_reverses_every_rank():
    table, state = seat(5)
    body = {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": order(*FIVE)}
    outcome = hand(table, state, body)
    assert outcome.result["ranks_during"] == ["Eve", "Dee", "Cy", "Ben", "Ann"]
    assert outcome.result["revolution"] == "greater"
    assert outcome.result["ranks_after"] == list(FIVE)


def test_only_the_greater_peasant_may_reverse_the_ranks():
    table, state = seat(5)
    body = {"revolution": {"player": "Ben", "kind": "greater"}, "finish_order": order(*FIVE)}
    error = refused("revolution_kind_not_allowed", hand, table, state, body)
    assert error.field == "revolution.kind"


def test_without_greater_revolutions_the_greater_peasant_declares_a_plain_one():
    table, state = seat(5, greater_revolution=False)
    greater = {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": order(*FIVE)}
    refused("revolution_kind_not_allowed", hand, table, state, greater)
    plain = {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": order(*FIVE)}
    assert hand(table, state, plain).result["ranks_during"] == list(FIVE)


def test_the_greater_peasant_may_choose_plain_unless_the_house_says_no():
    plain = {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": order(*FIVE)}
    table, state = seat(5)
    assert hand(table, state, plain).result["revolution"] == "plain"
    table, state = seat(5, gp_may_choose_plain=False)
    refused("revolution_kind_not_allowed", hand, table, state, plain)


def test_lesser_peasant_revolution_reverses_all_but_the_greater_peasant():
    body = {"revolution": {"player": "Dee", "kind": "greater"}, "finish_order": order(*FIVE)}
    table, state = seat(5)
    refused("revolution_kind_not_allowed", hand, table, state, body)
    table, state = seat(5, lesser_peasant_revolution=True)
    outcome = hand(table, state, body)
    assert outcome.result["ranks_during"] == ["Dee", "Cy", "Ben", "Ann", "Eve"]
    assert GAME.public_state(table, state, {})["greater_revolution_by"] == ["Dee", "Eve"]


def test_a_revolution_needs_both_jesters_in_the_hand_entered():
    table, state = seat(5)
    body = {
        "revolution": {"player": "Eve", "kind": "plain"},
        "hands": {"Eve": EVE},
        "finish_order": order(*FIVE),
    }
    error = refused("revolution_without_jesters", hand, table, state, body)
    assert error.field == "revolution.player"
    assert error.message == (
        "Eve declared a revolution but was dealt only one of the two jesters; it takes both."
    )
    none = refused(
        "revolution_without_jesters", hand, table, state, {**body, "hands": {"Eve": DEE}}
    )
    assert none.message == "Eve declared a revolution but was dealt neither jester; it takes both."
    two = [*EVE[:-2], "J", "J"]
    assert hand(table, state, {**body, "hands": {"Eve": two}}).result["revolution"] == "plain"


def test_a_jester_in_another_hand_rules_out_a_revolution():
    table, state = seat(5)
    body = {
        "revolution": {"player": "Cy", "kind": "plain"},
        "hands": {"Ann": ANN},
        "finish_order": order(*FIVE),
    }
    refused("revolution_without_jesters", hand, table, state, body)


@pytest.mark.parametrize(
    ("revolution", "code"),
    [
        ({"player": "Ben", "kind": "huge"}, "invalid_value"),
        ({"player": "Ben"}, "missing_field"),
        ({"kind": "plain"}, "missing_field"),
        ({"player": "Zed", "kind": "plain"}, "unknown_player"),
        ("Ben", "invalid_value"),
    ],
)
def test_malformed_revolutions(revolution, code):
    table, state = seat(5)
    refused(code, hand, table, state, {"revolution": revolution, "finish_order": order(*FIVE)})


def test_revolution_kinds_by_role():
    ranks = list(FIVE)
    assert revolution_kinds(ranks, "Eve", {}) == ("plain", "greater")
    assert revolution_kinds(ranks, "Ann", {}) == ("plain",)
    assert revolution_kinds(ranks, "Eve", {"gp_may_choose_plain": False}) == ("greater",)


@given(st.integers(3, 10).flatmap(lambda n: st.permutations(NAMES[:n])))
def test_a_greater_revolution_twice_is_the_identity(ranks):
    ranks = list(ranks)
    once = revolt(ranks, {"player": ranks[-1], "kind": "greater"})
    assert [once.index(name) + 1 for name in ranks] == [len(ranks) - i for i in range(len(ranks))]
    assert revolt(once, {"player": once[-1], "kind": "greater"}) == ranks
    lesser = revolt(ranks, {"player": ranks[-2], "kind": "greater"})
    assert lesser[-1] == ranks[-1]
    assert revolt(lesser, {"player": lesser[-2], "kind": "greater"}) == ranks


# -- worked table cases (golden style, values from the rules file) ---------------------------------

TABLE_CASES = {
    "a merchant's revolution: no tax, ranks stay, the next hand is taxed": {
        "players": P5,
        "rounds": [
            step(
                {
                    "revolution": {"player": "Cy", "kind": "plain"},
                    "hands": {"Cy": CY_JESTERS},
                    "tribute": TAX,
                    "finish_order": P5,
                },
                error="tribute_not_allowed",
            ),
            step(
                {
                    "revolution": {"player": "Cy", "kind": "plain"},
                    "hands": {"Cy": CY_JESTERS},
                    "finish_order": P5[::-1],
                },
                deltas=below(*P5[::-1]),
                result={"revolution": "plain", "ranks_during": list(P5)},
                state={"tribute_due": due("Ann", "Eve", "Ben", "Dee"), "hands_played": 1},
            ),
            step({"finish_order": P5}, error="tribute_required"),
        ],
    },
    "the Greater Peasant's greater revolution; the finish order ranks the next hand": {
        "players": P5,
        "rounds": [
            step(
                {"revolution": {"player": "Ben", "kind": "greater"}, "finish_order": P5},
                error="revolution_kind_not_allowed",
            ),
            step(
                {
                    "revolution": {"player": "Eve", "kind": "greater"},
                    "finish_order": ["Dee", "Ann", "Eve", "Cy", "Ben"],
                },
                deltas={"Dee": 4, "Ann": 3, "Eve": 2, "Cy": 1, "Ben": 0},
                result={
                    "revolution": "greater",
                    "ranks_during": ["Eve", "Dee", "Cy", "Ben", "Ann"],
                },
                state={
                    "ranks": ["Dee", "Ann", "Eve", "Cy", "Ben"],
                    "roles": roles("Dee", "Ann", "Eve", "Cy", "Ben"),
                    "dealer": "Ben",
                    "tribute_due": due("Ben", "Dee", "Cy", "Ann"),
                },
            ),
            step(
                {"tribute": TAX, "finish_order": P5},
                deltas=below(*P5),
                result={"ranks_before": ["Dee", "Ann", "Eve", "Cy", "Ben"]},
            ),
        ],
        "totals": {"Ann": 7, "Ben": 3, "Cy": 3, "Dee": 5, "Eve": 2},
    },
    "gp_may_choose_plain off: the Greater Peasant's revolution is greater": {
        "players": P5,
        "rules": {"gp_may_choose_plain": False},
        "rounds": [
            step(
                {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": P5},
                error="revolution_kind_not_allowed",
            ),
            step(
                {"revolution": {"player": "Ben", "kind": "plain"}, "finish_order": P5},
                deltas=below(*P5),
            ),
        ],
    },
    "greater_revolution off: the Greater Peasant's revolution is plain": {
        "players": P5,
        "rules": {"greater_revolution": False},
        "rounds": [
            step(
                {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": P5},
                error="revolution_kind_not_allowed",
            ),
            step(
                {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": P5},
                deltas=below(*P5),
                result={"revolution": "plain", "ranks_during": list(P5)},
            ),
        ],
    },
    "the Lesser Peasant's revolution reverses all but the Greater Peasant": {
        "players": SIX,
        "rules": {"lesser_peasant_revolution": True},
        "rounds": [
            step(
                {"revolution": {"player": "Cy", "kind": "greater"}, "finish_order": SIX},
                error="revolution_kind_not_allowed",
            ),
            step(
                {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": SIX},
                deltas=below(*SIX),
                result={"ranks_during": ["Eve", "Dee", "Cy", "Ben", "Ann", "Fay"]},
            ),
        ],
    },
    "a revolution needs both jesters in the hand entered": {
        "players": P5,
        "rounds": [
            step(
                {
                    "revolution": {"player": "Eve", "kind": "greater"},
                    "hands": {"Eve": EVE},
                    "finish_order": P5,
                },
                error="revolution_without_jesters",
            ),
            step(
                {
                    "revolution": {"player": "Dee", "kind": "plain"},
                    "hands": {"Dee": DEE},
                    "finish_order": P5,
                },
                error="revolution_without_jesters",
            ),
        ],
    },
}


@pytest.mark.parametrize("name", list(TABLE_CASES))
def test_worked_table_case(name):
    play_table_case(TABLE_CASES[name])
