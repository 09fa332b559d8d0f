"""The Great Dalmuti's newer house rules with worked values.

A jester given back in the tax (``dalmuti_may_return_jester``), the first-hand draw where tied
players draw again only to order themselves, and the presets.
"""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.draw import ranks_from_draw
from refapp.games.dalmuti.tribute import may_give_jester

from .support import ANN, EVE, FIVE, FOUR, GAME, TAX, hand, order, refused, seat

JESTER_RULE = {"dalmuti_may_return_jester": True}


# -- dalmuti_may_return_jester ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "said"),
    [
        (
            {"greater_dalmuti": [12, "J"]},
            "tribute.greater_dalmuti",
            "Tax: Ann (Greater Dalmuti) gave 12 (Peasant) and a jester to Eve.",
        ),
        (
            {"greater_dalmuti": ["J", "J"]},
            "tribute.greater_dalmuti",
            "Tax: Ann (Greater Dalmuti) gave both jesters to Eve.",
        ),
        (
            {"lesser_dalmuti": ["J"]},
            "tribute.lesser_dalmuti",
            "Tax: Ben (Lesser Dalmuti) gave a jester to Dee.",
        ),
    ],
)
def test_a_dalmuti_may_give_a_jester_back_only_under_the_house_rule(change, field, said):
    body = {"tribute": {**TAX, **change}, "finish_order": order(*FIVE)}
    table, state = seat(5)
    error = refused("jester_in_tribute", hand, table, state, body)
    assert error.field == field
    table, state = seat(5, **JESTER_RULE)
    outcome = hand(table, state, body)
    assert outcome.input["tribute"] == {**TAX, **change}
    assert outcome.result["deltas"] == {"Ann": 4, "Ben": 3, "Cy": 2, "Dee": 1, "Eve": 0}
    assert said in outcome.result["explanation"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"greater_peasant": [2, "J"]}, "tribute.greater_peasant"),
        ({"lesser_peasant": ["J"]}, "tribute.lesser_peasant"),
    ],
)
def test_peasants_never_give_a_jester(change, field):
    table, state = seat(5, **JESTER_RULE)
    body = {"tribute": {**TAX, **change}, "finish_order": order(*FIVE)}
    assert refused("jester_in_tribute", hand, table, state, body).field == field


def test_a_jester_given_back_must_have_been_held_and_exist():
    table, state = seat(5, **JESTER_RULE)
    # Ann (the Greater Dalmuti) was dealt one jester: she may give it, not two
    one = {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [12, "J"]}
    body = {"tribute": one, "hands": {"Ann": ANN, "Eve": EVE}, "finish_order": order(*FIVE)}
    assert hand(table, state, body).input["tribute"]["greater_dalmuti"] == [12, "J"]
    two = {**one, "greater_dalmuti": ["J", "J"]}
    error = refused("card_not_in_hand", hand, table, state, {**body, "tribute": two})
    assert error.field == "tribute.greater_dalmuti"
    # three jesters given back: the deck has two
    three = {**TAX, "greater_dalmuti": ["J", "J"], "lesser_dalmuti": ["J"]}
    body = {"tribute": three, "finish_order": order(*FIVE)}
    assert refused("supply_exceeded", hand, table, state, body).field == "tribute"


def test_who_may_give_a_jester():
    on, off = GAME.resolve_rules(JESTER_RULE), GAME.resolve_rules({})
    gives = [role for role in TAX if may_give_jester(on, role)]
    assert gives == ["greater_dalmuti", "lesser_dalmuti"]
    assert not any(may_give_jester(off, role) for role in TAX)


# -- the first-hand draw: tied players draw again only to order themselves -----------------


@pytest.mark.parametrize(
    ("players", "draw", "ranks"),
    [
        # the rules' own example: Ben and Ann tied on 3 stay above Cy's 5
        (["Ann", "Ben", "Cy"], {"Ann": [3, 9], "Ben": [3, 7], "Cy": 5}, ["Ben", "Ann", "Cy"]),
        # a redraw worse than a third player's first draw keeps the tied pair above them
        (FOUR, {"Ann": [2, 12], "Ben": [2, 11], "Cy": 3, "Dee": "J"}, ["Ben", "Ann", "Cy", "Dee"]),
        # a tie below someone keeps its place below them
        (FOUR, {"Ann": 1, "Ben": [6, 1], "Cy": [6, 2], "Dee": 7}, ["Ann", "Ben", "Cy", "Dee"]),
        # any player may send a one-item list
        (FOUR, {"Ann": [4], "Ben": [1], "Cy": 2, "Dee": ["J"]}, ["Ben", "Cy", "Ann", "Dee"]),
        # two jesters drawn: the worst draw, then their redraw orders them at the bottom
        (FOUR, {"Ann": ["J", 5], "Ben": ["J", 4], "Cy": 9, "Dee": 8}, ["Dee", "Cy", "Ben", "Ann"]),
        # a jester in the redraw is its worst
        (FOUR, {"Ann": [5, "J"], "Ben": [5, 12], "Cy": 9, "Dee": 8}, ["Ben", "Ann", "Dee", "Cy"]),
        # tied again: a third draw
        (FOUR, {"Ann": [3, 7, 2], "Ben": [3, 7, 1], "Cy": [3, 4], "Dee": 1},
         ["Dee", "Cy", "Ben", "Ann"]),
        # three tied at once
        (FOUR, {"Ann": [6, 3], "Ben": [6, 2], "Cy": [6, 4], "Dee": 10},
         ["Ben", "Ann", "Cy", "Dee"]),
    ],
)  # fmt: skip
def test_tied_players_draw_again_to_order_themselves(players, draw, ranks):
    assert ranks_from_draw(players, draw) == ranks
    seats, state = GAME.start(players, GAME.resolve_rules({}), {"initial_draw": draw})
    assert (list(seats), state["ranks"]) == (list(players), ranks)


@pytest.mark.parametrize(
    ("draw", "field", "message"),
    [
        ({"Ann": [3, 9], "Ben": 3, "Cy": 5, "Dee": 6}, "initial_draw.Ben",
         "Ann and Ben both drew 3;"),
        ({"Ann": [3], "Ben": [3], "Cy": 5, "Dee": 6}, "initial_draw.Ben",
         "Ann and Ben both drew 3;"),
        ({"Ann": [3, 9], "Ben": [3, 9], "Cy": 5, "Dee": 6}, "initial_draw.Ben",
         "Ann and Ben are still tied after drawing 3, 9;"),
        ({"Ann": 2, "Ben": ["J", "J"], "Cy": 5, "Dee": ["J", "J"]}, "initial_draw.Dee",
         "Ben and Dee are still tied after drawing 'J', 'J';"),
        ({"Ann": [6, 3], "Ben": [6, 2], "Cy": 6, "Dee": 10}, "initial_draw.Cy",
         "both drew 6;"),
    ],
)  # fmt: skip
def test_a_tie_left_unbroken_is_draw_tie(draw, field, message):
    error = refused("draw_tie", ranks_from_draw, FOUR, draw)
    assert error.field == field
    assert message in error.message


@pytest.mark.parametrize(
    ("value", "code", "field"),
    [
        ([], "invalid_value", "initial_draw.Ann"),
        ([3, 13], "invalid_rank", "initial_draw.Ann.1"),
        ([3, "x"], "invalid_rank", "initial_draw.Ann.1"),
        ({"first": 3}, "invalid_rank", "initial_draw.Ann"),
        ([True], "invalid_rank", "initial_draw.Ann.0"),
    ],
)
def test_bad_draw_lists(value, code, field):
    draw = {"Ann": value, "Ben": 1, "Cy": 2, "Dee": 4}
    assert refused(code, ranks_from_draw, FOUR, draw).field == field


# -- presets --------------------------------------------------------------------------------


def test_presets_official_is_the_default():
    assert [preset.key for preset in GAME.presets] == ["official", "korean_wiki"]
    assert GAME.default_preset == "official"
    assert GAME.resolve_rules({}, "official") == GAME.resolve_rules({})


def test_korean_wiki_preset_and_explicit_rules_winning():
    korean = GAME.resolve_rules({}, "korean_wiki")
    assert (korean["extra_cards_to"], korean["tax_timing"], korean["gp_may_choose_plain"]) == (
        "greater_peasant_first",
        "sequential",
        False,
    )
    assert GAME.rules_changed(korean) == ["extra_cards_to", "gp_may_choose_plain", "tax_timing"]
    assert GAME.rules_changed(korean, "korean_wiki") == []
    mixed = GAME.resolve_rules({"tax_timing": "simultaneous", "tax": False}, "korean_wiki")
    assert mixed["tax_timing"] == "simultaneous"
    assert GAME.rules_changed(mixed, "korean_wiki") == ["tax", "tax_timing"]


def test_korean_wiki_preset_deals_the_extra_cards_from_the_greater_peasant():
    players = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
    table, state = seat(6, **GAME.resolve_rules({}, "korean_wiki"))
    sizes = GAME.public_state(table, state, {})["hand_sizes"]
    assert [sizes[name] for name in players] == [13, 13, 13, 13, 14, 14]


def test_an_unknown_preset_is_invalid_rules():
    error = refused("invalid_rules", GAME.resolve_rules, {}, "online")
    assert error.field == "preset"
