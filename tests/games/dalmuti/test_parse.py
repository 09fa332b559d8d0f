"""A Dalmuti hand is parsed once: the body becomes a HandEntry, and the rules read only that."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.hand import play_hand
from refapp.games.dalmuti.parse import parse_hand
from refapp.games.dalmuti.shapes import HandEntry
from refapp.games.errors import Refusal

from .support import FIVE, GAME, TAX, order, seat

TABLE, STATE = seat()
#: a table that pays no tax: a tribute there breaks a rule
UNTAXED, UNTAXED_STATE = seat(tax=False)


def refusal(body: object) -> Refusal:
    """Return what parsing the body refuses."""
    with pytest.raises(Refusal) as caught:
        parse_hand(TABLE, body)
    return caught.value


def test_a_body_becomes_a_hand_entry_of_seated_names_and_cards():
    body = {
        "revolution": {"player": " Eve ", "kind": " Greater "},
        "tribute": {"greater_peasant": ["5", 6], "paid": True},
        "hands": {"Eve": [12, "j", 1.0]},
        "merchant_trades": [["Cy", "Ben"]],
        "finish_order": list(FIVE),
    }
    with pytest.raises(Refusal):  # "5" is text, not a card: the parse refuses it
        parse_hand(TABLE, body)
    body["tribute"] = {"greater_peasant": [5, 6], "lesser_dalmuti": None, "paid": True}
    assert parse_hand(TABLE, body) == HandEntry(
        hands={"Eve": [1, 12, "J"]},
        revolution={"player": "Eve", "kind": "greater"},
        tribute={"greater_peasant": [5, 6], "lesser_dalmuti": None},
        paid=True,
        merchant_trades=[["Cy", "Ben"]],
        finish_order=list(FIVE),
    )


def test_parts_left_out_parse_as_nothing_sent():
    assert parse_hand(TABLE, {}) == HandEntry({}, None, None, False, [], None)
    assert parse_hand(TABLE, {"tribute": {}, "merchant_trades": []}).tribute is None


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ("hand", "invalid_value", "round"),
        ({"hands": {"Zed": [1]}}, "unknown_player", "hands.Zed"),
        ({"hands": {"Ann": [1], " Ann": [2]}}, "invalid_value", "hands.Ann"),
        ({"hands": {"Ann": [14]}}, "invalid_rank", "hands.Ann"),
        ({"revolution": {"player": "Eve", "kind": "huge"}}, "invalid_value", "revolution.kind"),
        ({"revolution": {"kind": "plain"}}, "missing_field", "revolution.player"),
        ({"tribute": {"king": [1]}}, "invalid_value", "tribute.king"),
        ({"tribute": {"greater_peasant": [5], "paid": "yes"}}, "invalid_value", "tribute.paid"),
        ({"merchant_trades": [["Cy", "Zed"]]}, "unknown_player", "merchant_trades.0"),
        ({"finish_order": "Ann"}, "invalid_value", "finish_order"),
    ],
)
def test_a_body_out_of_shape_is_refused_by_the_parse_alone(body, code, field):
    refused = refusal(body)
    assert (refused.code, refused.field) == (code, field)


def test_the_rules_check_the_parsed_entry_never_the_body():
    entry = HandEntry({}, None, None, False, [], order(*FIVE))
    outcome = play_hand(UNTAXED, UNTAXED_STATE, entry, partial=False)
    assert outcome.state == {"ranks": list(FIVE), "hands_played": 1}
    assert outcome.input["finish_order"] == list(FIVE)


def test_a_shape_fault_is_told_before_a_rule_broken_earlier_in_the_body():
    # a tribute at a table that pays no tax (a rule) and a finish order that is no list (a
    # shape): the parse speaks first; without the shape fault the rule is told
    body = {"tribute": TAX, "finish_order": "Ann"}
    with pytest.raises(Refusal) as caught:
        GAME.play(UNTAXED, UNTAXED_STATE, body)
    assert (caught.value.code, caught.value.field) == ("invalid_value", "finish_order")
    with pytest.raises(Refusal) as caught:
        GAME.play(UNTAXED, UNTAXED_STATE, {**body, "finish_order": list(FIVE)})
    assert (caught.value.code, caught.value.field) == ("tribute_not_allowed", "tribute")
