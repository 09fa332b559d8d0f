"""The tax recorded as paid as due (``"paid": true``): alone, beside some cards, or refused."""

from __future__ import annotations

import pytest

from .support import EVE, FIVE, TAX, hand, order, refused, seat

FINISH = order("Cy", "Ann", "Ben", "Eve", "Dee")


def test_paid_alone_records_the_hand_and_moves_the_ranks_on():
    table, state = seat(5)
    done = hand(table, state, {"tribute": {"paid": True}, "finish_order": FINISH})
    assert done.input["tribute"] == {"paid": True}
    assert "complete" not in done.result  # an incomplete hand says complete: false
    assert done.state["ranks"] == FINISH and done.state["hands_played"] == 1
    assert sum(done.result["deltas"].values()) == sum(
        hand(table, state, {"tribute": TAX, "finish_order": FINISH}).result["deltas"].values()
    )
    assert "The tax was paid as due; its cards were not recorded." in done.result["explanation"]


def test_paid_beside_some_cards_checks_those_and_needs_no_others():
    table, state = seat(5)
    body = {"tribute": {"paid": True, "greater_peasant": [5, 6]}, "finish_order": FINISH}
    done = hand(table, state, body)
    assert done.input["tribute"] == {"paid": True, "greater_peasant": [5, 6]}
    lines = done.result["explanation"]
    assert any(
        "Eve (Greater Peasant) gave 5 (Abbess) and 6 (Knight) to Ann" in line for line in lines
    ), lines
    assert "The rest of the tax was paid as due; those cards were not recorded." in lines
    wrong = {"tribute": {"paid": True, "greater_peasant": [5]}, "finish_order": FINISH}
    refused("wrong_tribute_count", hand, table, state, wrong)


def test_paid_cards_are_still_checked_against_the_hands_dealt():
    table, state = seat(5)
    body = {
        "tribute": {"paid": True, "greater_peasant": [4, 4]},
        "hands": {"Eve": EVE},
        "finish_order": FINISH,
    }
    refused("tribute_not_best", hand, table, state, body)


def test_paid_where_no_tax_is_due_is_refused():
    table, state = seat(5, tax=False)
    body = {"tribute": {"paid": True}, "finish_order": order(*FIVE)}
    error = refused("tribute_not_allowed", hand, table, state, body)
    assert error.field == "tribute"


@pytest.mark.parametrize("paid", ["yes", 1, [True], {"a": 1}])
def test_paid_is_true_or_false(paid):
    table, state = seat(5)
    body = {"tribute": {"paid": paid}, "finish_order": FINISH}
    error = refused("invalid_value", hand, table, state, body)
    assert error.field == "tribute.paid"


def test_paid_false_is_no_tribute():
    table, state = seat(5)
    error = refused(
        "tribute_required", hand, table, state, {"tribute": {"paid": False}, "finish_order": FINISH}
    )
    assert error.field == "tribute.greater_peasant"
