"""``lesser_tax_min_players``: below it only the Greater pair exchanges cards."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.tax import givers, lesser_tax, tribute_due

from .support import FIVE, GAME, TAX, hand, order, refused, seat

GREATER = {key: TAX[key] for key in ("greater_peasant", "greater_dalmuti")}
FINISH = order("Cy", "Ann", "Eve", "Ben", "Dee")


@pytest.mark.parametrize(
    ("count", "least", "lesser"),
    [(3, 4, False), (4, 4, True), (5, 4, True), (4, 5, False), (5, 5, True), (5, 6, False),
     (8, 9, False), (6, 1, True), (3, 1, False)],
)  # fmt: skip
def test_the_lesser_pair_exchanges_from_the_threshold_on(count, least, lesser):
    rules = GAME.resolve_rules({"lesser_tax_min_players": least, "allow_any_count": True})
    assert lesser_tax(count, rules) is lesser
    assert len(givers(count, rules)) == (4 if lesser else 2)


def test_the_default_is_four():
    assert GAME.resolve_rules({})["lesser_tax_min_players"] == 4
    refused("invalid_rules", GAME.resolve_rules, {"lesser_tax_min_players": 0})


def test_below_the_threshold_only_the_greater_pair_is_due():
    table, state = seat(5, lesser_tax_min_players=6)
    due = tribute_due(list(table.players), table.rules, 0)
    assert [item["role"] for item in due] == ["greater_peasant", "greater_dalmuti"]
    public = GAME.public_state(table, state, {})
    assert [item["from"] for item in public["tribute_due"]] == ["Eve", "Ann"]


def test_below_the_threshold_a_missing_lesser_tribute_is_fine():
    table, state = seat(5, lesser_tax_min_players=6)
    outcome = hand(table, state, {"tribute": GREATER, "finish_order": FINISH})
    assert outcome.result["deltas"] == {"Ann": 3, "Ben": 1, "Cy": 4, "Dee": 0, "Eve": 2}
    assert outcome.input["tribute"] == GREATER
    assert outcome.result["facts"]["no_lesser_tax"] == {"players": 5, "least": 6}
    assert (
        "The Lesser Peasant and the Lesser Dalmuti exchange no cards: 5 players, fewer than the 6 "
        "the "
        "house rule “Fewest players for the Lesser pair's tax” asks for."
    ) in outcome.result["explanation"]


@pytest.mark.parametrize("role", ["lesser_peasant", "lesser_dalmuti"])
def test_below_the_threshold_a_lesser_tribute_is_refused(role):
    table, state = seat(5, lesser_tax_min_players=6)
    body = {"tribute": {**GREATER, role: TAX[role]}, "finish_order": FINISH}
    error = refused("tribute_not_allowed", hand, table, state, body)
    assert error.field == f"tribute.{role}"
    assert error.message.startswith(
        "With 5 players only the Greater Peasant and the Greater Dalmuti exchange cards (the "
        "house rule “Fewest players for the Lesser pair's tax” asks for 6 players"
    )


def test_an_empty_lesser_tribute_below_the_threshold_is_nothing_entered():
    table, state = seat(5, lesser_tax_min_players=6)
    body = {"tribute": {**GREATER, "lesser_peasant": None}, "finish_order": FINISH}
    assert hand(table, state, body).result["deltas"]["Cy"] == 4


def test_at_the_threshold_a_missing_lesser_tribute_is_required():
    table, state = seat(5, lesser_tax_min_players=5)
    error = refused(
        "tribute_required", hand, table, state, {"tribute": GREATER, "finish_order": FINISH}
    )
    assert error.field == "tribute.lesser_peasant"
    outcome = hand(table, state, {"tribute": TAX, "finish_order": FINISH})
    assert outcome.result["facts"]["no_lesser_tax"] is None
    assert not any("exchange no cards" in line for line in outcome.result["explanation"])


def test_paid_as_due_below_the_threshold_needs_only_the_greater_pair():
    table, state = seat(5, lesser_tax_min_players=6)
    done = hand(table, state, {"tribute": {"paid": True}, "finish_order": FINISH})
    assert done.state["hands_played"] == 1 and done.result.get("complete", True)
    body = {"tribute": {"paid": True, **GREATER}, "finish_order": FINISH}
    lines = hand(table, state, body).result["explanation"]
    assert not any("The rest of the tax" in line for line in lines)


def test_a_revolution_still_cancels_every_tribute():
    table, state = seat(5, lesser_tax_min_players=6)
    body = {"revolution": {"player": "Cy", "kind": "plain"}, "finish_order": order(*FIVE)}
    outcome = hand(table, state, body)
    assert outcome.result["tax"] is False
    assert outcome.result["facts"]["no_lesser_tax"] is None
