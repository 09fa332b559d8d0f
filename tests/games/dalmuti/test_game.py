"""The Great Dalmuti as a Game: opening a table, house rules, a whole hand, dry runs, any input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refapp.games.errors import Refusal

from .support import DEE, EVE, FIVE, FOUR, GAME, NAMES, NINE, TAX, TEN, hand, order, refused, seat

# -- opening a table -------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "allowed"), [(3, False), (4, True), (8, True), (9, False)])
def test_four_to_eight_players(count, allowed):
    rules = GAME.resolve_rules({})
    if allowed:
        GAME.check_players(NAMES[:count], rules)
    else:
        refused("bad_player_count", GAME.check_players, NAMES[:count], rules)


def test_allow_any_count_seats_three_to_ten():
    rules = GAME.resolve_rules({"allow_any_count": True})
    GAME.check_players(NAMES[:3], rules)
    GAME.check_players(NAMES[:10], rules)
    refused("bad_player_count", GAME.check_players, NAMES[:2], rules)


def test_a_deck_too_small_to_deal_is_refused():
    rules = GAME.resolve_rules({"removed_ranks": list(range(3, 13))})
    error = refused("invalid_rules", GAME.check_players, NAMES[:4], rules)
    assert error.field == "rules.removed_ranks"


@pytest.mark.parametrize(
    "rules", [{"tax_timing": "later"}, {"removed_ranks": [13]}, {"hands_to_play": 0}, {"x": 1}]
)
def test_bad_house_rules(rules):
    refused("invalid_rules", GAME.resolve_rules, rules)


@pytest.mark.parametrize(
    ("players", "rules", "setup", "code"),
    [
        (NAMES[:3], {}, {}, "bad_player_count"),
        (NINE, {}, {}, "bad_player_count"),
        ([*TEN, "Kit"], {"allow_any_count": True}, {}, "bad_player_count"),
        (FOUR, {}, {"initial_draw": {"Ann": "J", "Ben": "j", "Cy": 2, "Dee": 11}}, "draw_tie"),
        (FOUR, {}, {"initial_draw": {"Ann": 13, "Ben": 5, "Cy": 2, "Dee": 4}}, "invalid_rank"),
        (FOUR, {}, {"initial_draw": {"Ann": 1, "Ben": 5, "Cy": 2, "Zed": 4}}, "unknown_player"),
        (FOUR, {"scoring": "points"}, {}, "invalid_rules"),
        (FOUR, {"removed_ranks": [0]}, {}, "invalid_rules"),
    ],
)
def test_worked_refused_tables(players, rules, setup, code):
    def open_table():
        resolved = GAME.resolve_rules(rules)
        GAME.check_players(players, resolved)
        GAME.start(players, resolved, setup)

    refused(code, open_table)


# -- a whole hand and dry runs ---------------------------------------------------------------------


def test_stored_input_replays_to_the_same_result():
    table, state = seat(5)
    body = {
        "tribute": {
            "greater_peasant": [4, 2.0],
            "greater_dalmuti": [12, 11],
            "lesser_peasant": 3,
            "lesser_dalmuti": [12],
        },
        "hands": {" Eve": EVE, "Dee": DEE},
        "finish_order": [" Ann", "Ben", "Cy", "Dee", "Eve"],
    }
    first = hand(table, state, body)
    assert first.input["tribute"]["greater_peasant"] == [2, 4]
    assert first.input["tribute"]["lesser_peasant"] == [3]
    assert list(first.input["hands"]) == ["Dee", "Eve"]
    again = hand(table, state, first.input)
    assert again.input == first.input and again.result == first.result


def test_a_dry_run_of_the_tribute_alone():
    table, state = seat(5)
    outcome = hand(table, state, {"tribute": TAX}, partial=True)
    assert outcome.result["complete"] is False and "deltas" not in outcome.result
    assert outcome.state == state
    body = {"tribute": {**TAX, "greater_peasant": [2, 7]}, "hands": {"Eve": EVE}}
    refused("tribute_not_best", hand, table, state, body, partial=True)


def test_a_dry_run_of_one_role_of_the_tribute():
    table, state = seat(5)
    outcome = hand(table, state, {"tribute": {"greater_peasant": [2, 4]}}, partial=True)
    assert outcome.input["tribute"] == {"greater_peasant": [2, 4]}


def test_a_dry_run_of_a_revolution_alone():
    table, state = seat(5)
    body = {"revolution": {"player": "Eve", "kind": "greater"}}
    outcome = hand(table, state, body, partial=True)
    assert outcome.result["ranks_during"] == ["Eve", "Dee", "Cy", "Ben", "Ann"]
    assert outcome.result["tax"] is False


def test_a_dry_run_of_the_finish_order_alone_scores_but_is_incomplete():
    table, state = seat(5)
    outcome = hand(table, state, {"finish_order": order(*FIVE)}, partial=True)
    assert outcome.result["deltas"]["Ann"] == 4
    assert outcome.result["complete"] is False
    assert outcome.state == state


def test_a_dry_run_of_nothing():
    table, state = seat(5)
    assert hand(table, state, {}, partial=True).result["complete"] is False


# -- properties ------------------------------------------------------------------------------------


JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 14),
        st.floats(allow_nan=True),
        st.sampled_from([*FIVE, "J", "Zed", "plain", "greater", "12", ""]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from([*FIVE, "player", "kind", *TAX]), inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=300)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "revolution": JUNK,
            "tribute": JUNK,
            "hands": JUNK,
            "finish_order": st.one_of(JUNK, st.permutations(FIVE)),
        },
    ),
    st.booleans(),
)
def test_any_input_is_scored_or_refused_with_a_code(body, partial):
    table, state = seat(5, merchant_trade=True)
    try:
        outcome = hand(table, state, body, partial=partial)
    except Refusal as error:
        assert error.code and error.message
        return
    if not partial:
        assert hand(table, state, outcome.input).result == outcome.result
