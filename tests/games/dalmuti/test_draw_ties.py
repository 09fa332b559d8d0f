"""The first hand's seating draw under ``draw_ties``: ties among the tied, or a redraw."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.draw import ranks_from_draw

from .support import FIVE, GAME, refused

TIED = {"Ann": [3, 9], "Ben": [3, 7], "Cy": 5, "Dee": "J", "Eve": 12}
REDRAWN = {"Ann": 3, "Ben": [3, 7], "Cy": 5, "Dee": "J", "Eve": [12, 1]}


def start(draw: dict, **rules) -> list[str]:
    """Open a table of five with a seating draw and return its first ranks."""
    resolved = GAME.resolve_rules(rules)
    _seats, state = GAME.start(list(FIVE), resolved, {"initial_draw": draw})
    return state["ranks"]


def test_the_default_orders_tied_players_among_themselves():
    assert GAME.resolve_rules({})["draw_ties"] == "among_tied"
    assert start(TIED) == ["Ben", "Ann", "Cy", "Eve", "Dee"]


def test_redraw_places_each_player_by_their_last_card():
    assert start(TIED, draw_ties="redraw") == ["Cy", "Ben", "Ann", "Eve", "Dee"]
    assert start(REDRAWN, draw_ties="redraw") == ["Eve", "Ann", "Cy", "Ben", "Dee"]


def test_the_rules_example_of_a_redraw():
    draw = {"Ann": 3, "Ben": [3, 7], "Cy": 5}
    assert ranks_from_draw(["Ann", "Ben", "Cy"], draw, "redraw") == ["Ann", "Cy", "Ben"]
    error = refused("draw_tie", ranks_from_draw, ["Ann", "Ben", "Cy"], draw, "among_tied")
    assert error.field == "initial_draw.Ben"


def test_equal_last_cards_are_a_tie_under_redraw():
    draw = {"Ann": 3, "Ben": [5, 3], "Cy": 6, "Dee": "J", "Eve": 12}
    error = refused("draw_tie", start, draw, draw_ties="redraw")
    assert error.field == "initial_draw.Ben"
    assert error.message.startswith("Ann and Ben both hold 3 as their last draw")
    assert "“Ties in the seating draw”" in error.message


def test_two_jesters_drawn_last_tie_under_redraw():
    draw = {"Ann": "J", "Ben": [2, "J"], "Cy": 6, "Dee": 1, "Eve": 12}
    assert refused("draw_tie", start, draw, draw_ties="redraw").field == "initial_draw.Ben"


@pytest.mark.parametrize("ties", ["among_tied", "redraw"])
def test_a_list_where_no_redraw_was_needed_is_accepted(ties):
    draw = {"Ann": [4, 2], "Ben": 6, "Cy": 1, "Dee": "J", "Eve": 12}
    expected = {
        "among_tied": ["Cy", "Ann", "Ben", "Eve", "Dee"],  # 4 places Ann; her 2 only orders
        "redraw": ["Cy", "Ann", "Ben", "Eve", "Dee"],  # her last card, 2, places her
    }
    assert start(draw, draw_ties=ties) == expected[ties]


def test_an_earlier_card_of_a_redraw_list_is_the_record_only():
    # Cy's first 1 was drawn again (Ann held it): her last card, 8, places her below Ben's 7
    draw = {"Ann": 1, "Ben": 7, "Cy": [1, 8], "Dee": "J", "Eve": 12}
    assert start(draw, draw_ties="redraw") == ["Ann", "Ben", "Cy", "Eve", "Dee"]


def test_an_unknown_way_to_break_ties_is_refused():
    error = refused("invalid_rules", GAME.resolve_rules, {"draw_ties": "coin"})
    assert error.field == "rules.draw_ties"


def test_the_presets_keep_the_default_draw():
    for preset in ("official", "korean_wiki"):
        assert GAME.resolve_rules({}, preset)["draw_ties"] == "among_tied"
