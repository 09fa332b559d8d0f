"""The Great Dalmuti's ranks: roles, the first-hand draw and the deal's hand sizes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refapp.games.dalmuti.cards import deck_size
from refapp.games.dalmuti.draw import ranks_from_draw
from refapp.games.dalmuti.ranks import hand_sizes, role_of

from .support import (
    ANN,
    FIVE,
    FOUR,
    GAME,
    NAMES,
    NINE,
    SEVEN,
    TAX,
    TEN,
    below,
    dry,
    due,
    hand,
    order,
    play_table_case,
    refused,
    roles,
    seat,
    step,
)

# -- roles and the first ranks ---------------------------------------------------------------------


def test_roles_by_rank_position():
    assert [role_of(p, 5) for p in range(1, 6)] == [
        "greater_dalmuti",
        "lesser_dalmuti",
        "merchant",
        "lesser_peasant",
        "greater_peasant",
    ]
    assert "merchant" not in [role_of(p, 4) for p in range(1, 5)]
    # three players have no merchant: the middle one is the Lesser Dalmuti (the Dalmuti rules in
    # docs/rules)
    assert [role_of(p, 3) for p in range(1, 4)] == [
        "greater_dalmuti",
        "lesser_dalmuti",
        "greater_peasant",
    ]


def test_players_as_entered_are_the_first_ranks():
    table, state = seat(5)
    public = GAME.public_state(table, state, {})
    assert public["ranks"] == list(FIVE)
    assert public["roles"]["Ann"] == "greater_dalmuti"
    assert public["roles"]["Cy"] == "merchant"
    assert public["dealer"] == "Eve"
    assert public["role_titles"]["Eve"] == "Greater Peasant"


def test_initial_draw_orders_the_ranks_jester_last():
    draw = {"Ann": 7, "Ben": 1, "Cy": "J", "Dee": 3, "Eve": 12}
    seats, state = GAME.start(FIVE, GAME.resolve_rules({}), {"initial_draw": draw})
    assert seats == FIVE
    assert state["ranks"] == ["Ben", "Dee", "Ann", "Eve", "Cy"]


def test_tied_draws_must_be_redrawn():
    draw = {"Ann": 7, "Ben": 1, "Cy": 7, "Dee": 3, "Eve": 12}
    error = refused("draw_tie", ranks_from_draw, FIVE, draw)
    assert "Ann and Cy both drew 7" in error.message


@pytest.mark.parametrize(
    ("draw", "code"),
    [
        ({"Ann": 7, "Ben": 1, "Cy": 2, "Dee": 3, "Zed": 12}, "unknown_player"),
        ({"Ann": 7, "Ben": 1, "Cy": 2, "Dee": 3}, "missing_field"),
        ({"Ann": 7, "Ben": 1, "Cy": 2, "Dee": 3, "Eve": 13}, "invalid_rank"),
        ([7, 1, 2, 3, 4], "invalid_value"),
    ],
)
def test_bad_draws(draw, code):
    refused(code, ranks_from_draw, FIVE, draw)


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (4, [20] * 4),
        (5, [16] * 5),
        (6, [14, 14, 13, 13, 13, 13]),
        (7, [12, 12, 12, 11, 11, 11, 11]),
        (8, [10] * 8),
    ],
)
def test_hand_sizes_with_the_full_deck(count, sizes):
    table, state = seat(count)
    assert list(GAME.public_state(table, state, {})["hand_sizes"].values()) == sizes


def test_korean_custom_gives_the_extra_cards_from_the_greater_peasant_up():
    sizes = hand_sizes(NAMES[:6], {"extra_cards_to": "greater_peasant_first"})
    assert list(sizes.values()) == [13, 13, 13, 13, 14, 14]


def test_hand_sizes_without_elevens_and_twelves():
    table, state = seat(4, removed_ranks=[11, 12])
    assert list(GAME.public_state(table, state, {})["hand_sizes"].values()) == [15, 14, 14, 14]


def test_hands_must_have_the_dealt_size():
    table, state = seat(6)
    body = {"tribute": TAX, "hands": {"Ann": [12] * 13}, "finish_order": order(*NAMES[:6])}
    error = refused("wrong_hand_size", hand, table, state, body)
    assert error.field == "hands.Ann" and "dealt 14 cards" in error.message


def test_hands_together_cannot_exceed_the_deck():
    table, state = seat(5)
    twin = [1, *ANN[1:]]
    body = {"tribute": TAX, "hands": {"Ann": ANN, "Ben": twin}, "finish_order": order(*FIVE)}
    error = refused("supply_exceeded", hand, table, state, body)
    assert error.field == "hands"


@pytest.mark.parametrize(
    ("hands", "code"),
    [
        ({"Zed": ANN}, "unknown_player"),
        ({"Ann": "cards"}, "invalid_value"),
        ([ANN], "invalid_value"),
    ],
)
def test_malformed_hands(hands, code):
    table, state = seat(5)
    refused(
        code, hand, table, state, {"tribute": TAX, "hands": hands, "finish_order": order(*FIVE)}
    )


@given(
    st.integers(3, 10),
    st.sets(st.integers(1, 12), max_size=4),
    st.sampled_from(["greater_dalmuti_first", "greater_peasant_first"]),
)
def test_hand_sizes_sum_to_the_deck(count, removed, extra):
    rules = {"removed_ranks": sorted(removed), "extra_cards_to": extra}
    sizes = hand_sizes(list(NAMES[:count]), rules)
    assert sum(sizes.values()) == deck_size(rules) == 80 - sum(removed)
    assert max(sizes.values()) - min(sizes.values()) <= 1


# -- worked table cases (golden style, values from the rules file) ---------------------------------

TABLE_CASES = {
    "the Korean deal gives the odd cards from the Greater Peasant up": {
        "players": SEVEN,
        "rules": {"extra_cards_to": "greater_peasant_first"},
        "state": {"hand_sizes": dict(zip(SEVEN, [11, 11, 11, 11, 12, 12, 12], strict=True))},
        "rounds": [dry({"hands": {"Ann": [12] * 12}}, error="wrong_hand_size")],
    },
    "three players: the middle one is the Lesser Dalmuti, only the greater pair pays tax": {
        "players": NAMES[:3],
        "rules": {"allow_any_count": True},
        "state": {
            "hand_sizes": {"Cy": 27, "Ann": 27, "Ben": 26},
            "roles": {"Cy": "greater_dalmuti", "Ann": "lesser_dalmuti", "Ben": "greater_peasant"},
        },
        "rounds": [
            step({"finish_order": ["Cy", "Ann", "Ben"]}, error="tribute_required"),
            step(
                {
                    "tribute": {"greater_peasant": [1, 2], "greater_dalmuti": [12, 12]},
                    "finish_order": ["Cy", "Ann", "Ben"],
                },
                deltas={"Cy": 2, "Ann": 1, "Ben": 0},
                state={
                    "ranks": ["Cy", "Ann", "Ben"],
                    "dealer": "Ben",
                    "tribute_due": due("Ben", "Cy"),
                },
            ),
        ],
    },
    "nine players: nine cards each but the last, and every role": {
        "players": NINE,
        "rules": {"allow_any_count": True},
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": NINE[::-1]},
                deltas=below(*NINE[::-1]),
                state={
                    "roles": roles(*NINE[::-1]),
                    "hand_sizes": {**dict.fromkeys(NINE[1:], 9), "Ann": 8},
                    "tribute_due": due("Ann", "Ida", "Ben", "Hal"),
                    "dealer": "Ann",
                },
            )
        ],
    },
    "ten players: eight cards each": {
        "players": TEN,
        "rules": {"allow_any_count": True},
        "state": {"hand_sizes": dict.fromkeys(TEN, 8), "roles": roles(*TEN)},
        "rounds": [step({"tribute": TAX, "finish_order": TEN}, deltas=below(*TEN))],
    },
    "the first ranks from a draw, a jester the worst; the seats stay as entered": {
        "players": FOUR,
        "setup": {"initial_draw": {"Ann": "J", "Ben": 12, "Cy": 2, "Dee": 11}},
        "start": {
            "ranks": ["Cy", "Dee", "Ben", "Ann"],
            "roles": roles("Cy", "Dee", "Ben", "Ann"),
            "dealer": "Ann",
            "tribute_due": due("Ann", "Cy", "Ben", "Dee"),
        },
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": FOUR},
                deltas=below(*FOUR),
                result={"ranks_before": ["Cy", "Dee", "Ben", "Ann"], "ranks_after": list(FOUR)},
            )
        ],
    },
}


@pytest.mark.parametrize("name", list(TABLE_CASES))
def test_worked_table_case(name):
    play_table_case(TABLE_CASES[name])
