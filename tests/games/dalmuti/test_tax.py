"""The Great Dalmuti's tax: what is due, the tribute's checks with and without hands, timings."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.tax import tribute_due

from .support import (
    ANN,
    DEE,
    EVE,
    FIVE,
    FOUR,
    GAME,
    NAMES,
    P5,
    TAX,
    below,
    dry,
    due,
    hand,
    order,
    play_table_case,
    refused,
    seat,
    step,
)


def test_the_tax_due_names_givers_counts_and_which_cards():
    table, state = seat(5)
    due = GAME.public_state(table, state, {})["tribute_due"]
    assert [(d["from"], d["to"], d["count"], d["which"]) for d in due] == [
        ("Eve", "Ann", 2, "best"),
        ("Ann", "Eve", 2, "any"),
        ("Dee", "Ben", 1, "best"),
        ("Ben", "Dee", 1, "any"),
    ]


def test_the_state_lists_each_exchange_with_the_api_keys_only():
    """Regression: docs/API.md's tribute_due items are exactly {from, to, count, which}.

    The golden runner compares lists whole, so the engine's own keys (role, after_receiving)
    made every state check of tribute_due fail.
    """
    table, state = seat(4, tax_timing="sequential")
    due = GAME.public_state(table, state, {})["tribute_due"]
    assert due == [
        {"from": "Dee", "to": "Ann", "count": 2, "which": "best"},
        {"from": "Ann", "to": "Dee", "count": 2, "which": "any"},
        {"from": "Cy", "to": "Ben", "count": 1, "which": "best"},
        {"from": "Ben", "to": "Cy", "count": 1, "which": "any"},
    ]


def test_three_players_exchange_only_between_the_greater_pair():
    table, state = seat(3, allow_any_count=True)
    due = tribute_due(list(table.players), table.rules, 0)
    assert [d["role"] for d in due] == ["greater_peasant", "greater_dalmuti"]
    body = {"tribute": {"greater_peasant": [1, 2], "greater_dalmuti": [12, 12]}}
    assert hand(table, state, {**body, "finish_order": order(*NAMES[:3])}).result["tax"]
    extra = {"tribute": {**TAX}, "finish_order": order(*NAMES[:3])}
    error = refused("tribute_not_allowed", hand, table, state, extra)
    assert error.field == "tribute.lesser_peasant"
    assert error.message.startswith("With 3 players there is no Lesser Peasant or Lesser Dalmuti")


def test_the_tax_is_required_when_due():
    table, state = seat(5)
    error = refused("tribute_required", hand, table, state, {"finish_order": order(*FIVE)})
    assert "Eve → Ann: the best 2; Ann → Eve: any 2" in error.message
    partial = {k: v for k, v in TAX.items() if k != "lesser_dalmuti"}
    error = refused(
        "tribute_required", hand, table, state, {"tribute": partial, "finish_order": order(*FIVE)}
    )
    assert error.field == "tribute.lesser_dalmuti"


def test_no_tax_when_the_house_rule_is_off():
    table, state = seat(5, tax=False)
    assert GAME.public_state(table, state, {})["tribute_due"] == []
    assert hand(table, state, {"finish_order": order(*FIVE)}).result["tax"] is False
    refused(
        "tribute_not_allowed", hand, table, state, {"tribute": TAX, "finish_order": order(*FIVE)}
    )


def test_tax_first_hand_off_skips_only_the_first_hand():
    table, state = seat(5, tax_first_hand=False)
    refused(
        "tribute_not_allowed", hand, table, state, {"tribute": TAX, "finish_order": order(*FIVE)}
    )
    state = hand(table, state, {"finish_order": order(*FIVE)}).state
    assert len(GAME.public_state(table, state, {})["tribute_due"]) == 4
    refused("tribute_required", hand, table, state, {"finish_order": order(*FIVE)})


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"greater_peasant": [2]}, "wrong_tribute_count", "tribute.greater_peasant"),
        ({"greater_dalmuti": [12, 11, 10]}, "wrong_tribute_count", "tribute.greater_dalmuti"),
        ({"lesser_dalmuti": []}, "wrong_tribute_count", "tribute.lesser_dalmuti"),
        ({"greater_peasant": [2, "J"]}, "jester_in_tribute", "tribute.greater_peasant"),
        ({"lesser_dalmuti": ["J"]}, "jester_in_tribute", "tribute.lesser_dalmuti"),
        ({"greater_peasant": [2, 13]}, "invalid_rank", "tribute.greater_peasant"),
        ({"lesser_peasant": ["two"]}, "invalid_rank", "tribute.lesser_peasant"),
        ({"greater_peasant": [1, 1]}, "supply_exceeded", "tribute.greater_peasant"),
        ({"greater_peasant": [2, 2], "lesser_peasant": [2]}, "supply_exceeded", "tribute"),
        ({"merchant": [5]}, "invalid_value", "tribute.merchant"),
    ],
)
def test_tribute_refusals_without_hands(change, code, field):
    table, state = seat(5)
    body = {"tribute": {**TAX, **change}, "finish_order": order(*FIVE)}
    error = refused(code, hand, table, state, body)
    assert error.field == field


def test_a_removed_rank_cannot_be_given():
    table, state = seat(5, removed_ranks=[12])
    error = refused(
        "supply_exceeded", hand, table, state, {"tribute": TAX, "finish_order": order(*FIVE)}
    )
    assert "out of the deck" in error.message


def test_peasants_give_their_best_cards():
    table, state = seat(5)
    ok = {
        "greater_peasant": [2, 4],
        "greater_dalmuti": [12, 11],
        "lesser_peasant": [3],
        "lesser_dalmuti": [12],
    }
    hands = {"Eve": EVE, "Dee": DEE, "Ann": ANN}
    assert hand(table, state, {"tribute": ok, "hands": hands, "finish_order": order(*FIVE)})
    for role, cards in (("greater_peasant", [2, 7]), ("lesser_peasant", [5])):
        body = {"tribute": {**ok, role: cards}, "hands": hands, "finish_order": order(*FIVE)}
        error = refused("tribute_not_best", hand, table, state, body)
        assert error.field == f"tribute.{role}"


def test_cards_given_must_have_been_held():
    table, state = seat(5)
    tribute = {**TAX, "greater_peasant": [2, 3]}
    error = refused(
        "card_not_in_hand",
        hand,
        table,
        state,
        {"tribute": tribute, "hands": {"Eve": EVE}, "finish_order": order(*FIVE)},
    )
    assert error.field == "tribute.greater_peasant"


def test_simultaneous_timing_gives_from_the_hand_as_dealt():
    table, state = seat(5)
    tribute = {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [4, 12]}
    body = {"tribute": tribute, "hands": {"Ann": ANN}, "finish_order": order(*FIVE)}
    error = refused("card_not_in_hand", hand, table, state, body)
    assert error.field == "tribute.greater_dalmuti"


def test_sequential_timing_lets_a_dalmuti_pass_on_the_tribute():
    table, state = seat(5, tax_timing="sequential")
    tribute = {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [4, 12]}
    body = {"tribute": tribute, "hands": {"Ann": ANN}, "finish_order": order(*FIVE)}
    assert hand(table, state, body).result["deltas"]["Ann"] == 4
    tribute["greater_dalmuti"] = [4, 4]
    refused("card_not_in_hand", hand, table, state, body)
    due = tribute_due(list(table.players), table.rules, 0)
    assert [d["after_receiving"] for d in due] == [False, True, False, True]


def test_sequential_supply_counts_a_passed_on_card_once():
    tribute = {**TAX, "greater_peasant": [1, 2], "greater_dalmuti": [1, 12]}
    body = {"tribute": tribute, "finish_order": order(*FIVE)}
    table, state = seat(5)
    refused("supply_exceeded", hand, table, state, body)
    table, state = seat(5, tax_timing="sequential")
    assert hand(table, state, body).result["tax"] is True


def test_hands_and_tribute_together_respect_the_deck():
    table, state = seat(5)
    body = {"tribute": {**TAX, "greater_peasant": [1, 2]}, "hands": {"Ann": ANN}}
    error = refused("supply_exceeded", hand, table, state, {**body, "finish_order": order(*FIVE)})
    assert error.field == "tribute"


def test_merchant_trades_are_a_house_rule_between_merchants():
    body = {"tribute": TAX, "merchant_trades": [["Dee", "Cy"]], "finish_order": order(*NAMES[:6])}
    table, state = seat(6)
    refused("invalid_value", hand, table, state, body)
    table, state = seat(6, merchant_trade=True)
    assert hand(table, state, body).input["merchant_trades"] == [["Cy", "Dee"]]
    for trades in ([["Cy", "Ann"]], [["Cy", "Dee"], ["Dee", "Cy"]], [["Cy"]]):
        refused("invalid_value", hand, table, state, {**body, "merchant_trades": trades})
    alone = refused("invalid_value", hand, table, state, {**body, "merchant_trades": [["Cy"]]})
    assert alone.message == "A trade is between two merchants, not Cy."
    revolution = {"player": "Ben", "kind": "plain"}
    after = {**body, "tribute": None, "revolution": revolution}
    refused("tribute_not_allowed", hand, table, state, after)


# -- worked table cases (golden style, values from the rules file) ---------------------------------

TABLE_CASES = {
    "tax off: a tribute is refused and none is due": {
        "players": FOUR,
        "rules": {"tax": False},
        "state": {"tribute_due": [], "hands_played": 1},
        "rounds": [
            step({"tribute": TAX, "finish_order": FOUR}, error="tribute_not_allowed"),
            step({"finish_order": FOUR}, deltas=below(*FOUR)),
        ],
    },
    "tax_first_hand off: no tax in the first hand, due from the second": {
        "players": FOUR,
        "rules": {"tax_first_hand": False},
        "state": {"tribute_due": due("Dee", "Ann", "Cy", "Ben"), "hands_played": 2},
        "rounds": [
            step({"tribute": TAX, "finish_order": FOUR}, error="tribute_not_allowed"),
            step(
                {"finish_order": FOUR[::-1]},
                deltas=below(*FOUR[::-1]),
                state={"tribute_due": due("Ann", "Dee", "Ben", "Cy")},
            ),
            step({"finish_order": FOUR}, error="tribute_required"),
            step({"tribute": TAX, "finish_order": FOUR}, deltas=below(*FOUR)),
        ],
    },
    "sequential timing: a Dalmuti may give back a card received in tribute": {
        "players": P5,
        "rules": {"tax_timing": "sequential"},
        "rounds": [
            step(
                {
                    "tribute": {
                        "greater_peasant": [2, 4],
                        "greater_dalmuti": [4, 12],
                        "lesser_peasant": [3],
                        "lesser_dalmuti": [3],
                    },
                    "hands": {"Ann": ANN, "Dee": DEE, "Eve": EVE},
                    "finish_order": P5,
                },
                deltas=below(*P5),
            )
        ],
    },
    "simultaneous timing: a Dalmuti gives from the hand as dealt": {
        "players": P5,
        "rounds": [
            step(
                {
                    "tribute": {
                        "greater_peasant": [2, 4],
                        "greater_dalmuti": [4, 12],
                        "lesser_peasant": [3],
                        "lesser_dalmuti": [12],
                    },
                    "hands": {"Ann": ANN, "Dee": DEE, "Eve": EVE},
                    "finish_order": P5,
                },
                error="card_not_in_hand",
            ),
        ],
    },
    "tax and finish-order refusals, then a good hand": {
        "players": P5,
        "state": {"hands_played": 1, "hands_total": None},
        "rounds": [
            dry(
                {"tribute": {**TAX, "lesser_peasant": [5]}, "hands": {"Dee": DEE}},
                error="tribute_not_best",
            ),
            dry(
                {"tribute": {**TAX, "greater_peasant": [4, 4]}, "hands": {"Eve": EVE}},
                error="tribute_not_best",
            ),
            dry(
                {"tribute": {**TAX, "greater_peasant": [2, 3]}, "hands": {"Eve": EVE}},
                error="card_not_in_hand",
            ),
            dry({"tribute": {**TAX, "greater_dalmuti": [12, "J"]}}, error="jester_in_tribute"),
            dry({"tribute": {**TAX, "lesser_dalmuti": [13]}}, error="invalid_rank"),
            dry({"tribute": {**TAX, "lesser_dalmuti": [11, 12]}}, error="wrong_tribute_count"),
            dry({"tribute": TAX, "hands": {"Ben": [12] * 15}}, error="wrong_hand_size"),
            step(
                {"tribute": {**TAX, "lesser_peasant": None}, "finish_order": P5},
                error="tribute_required",
            ),
            step({"tribute": TAX, "finish_order": P5[:4]}, error="finish_order_invalid"),
            step({"tribute": TAX, "finish_order": [*P5[:4], "Zed"]}, error="unknown_player"),
            step({"tribute": TAX, "finish_order": P5}, deltas=below(*P5)),
        ],
    },
}


@pytest.mark.parametrize("name", list(TABLE_CASES))
def test_worked_table_case(name):
    play_table_case(TABLE_CASES[name])
