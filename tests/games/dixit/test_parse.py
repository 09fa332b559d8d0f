"""A Dixit turn is parsed once: the body becomes a TurnEntry, and the rules read only that."""

from __future__ import annotations

import pytest

from refapp.games.dixit import GAME
from refapp.games.dixit.parse import parse_turn
from refapp.games.dixit.shapes import TurnEntry
from refapp.games.dixit.turn import play_turn
from refapp.games.errors import Refusal
from refapp.games.game import Table

FOUR = ("Ann", "Ben", "Cy", "Dee")
RULES = GAME.resolve_rules({})
TABLE = GAME.with_house_rules(Table(FOUR, RULES))
STATE = GAME.start(FOUR, RULES, {})[1]


def refusal(body: object) -> Refusal:
    """Return what parsing the body refuses."""
    with pytest.raises(Refusal) as caught:
        parse_turn(TABLE, body)
    return caught.value


def test_a_body_becomes_a_turn_entry_of_seated_names_and_whole_numbers():
    body = {
        "storyteller": " Ann ",
        "positions": ["Ben", "Ann", "Cy", "Dee"],
        "votes": {"Ben": 2.0, "Cy": 2, "Dee": [1]},
    }
    assert parse_turn(TABLE, body) == TurnEntry(
        "Ann", ["Ben", "Ann", "Cy", "Dee"], {"Ben": 2, "Cy": 2, "Dee": [1]}
    )


def test_votes_left_out_parse_as_none_for_a_dry_run():
    assert parse_turn(TABLE, {"storyteller": "Ann", "positions": []}).votes is None


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ([], "invalid_value", "round"),
        ({"positions": []}, "missing_field", "storyteller"),
        ({"storyteller": "Zed", "positions": []}, "unknown_player", "storyteller"),
        ({"storyteller": "Ann", "positions": "Ben"}, "invalid_value", "positions"),
        ({"storyteller": "Ann", "positions": ["Ben", "Zed"]}, "unknown_player", "positions.2"),
        ({"storyteller": "Ann", "positions": [], "votes": [2]}, "invalid_value", "votes"),
        (
            {"storyteller": "Ann", "positions": [], "votes": {"Ben": "2"}},
            "invalid_value",
            "votes.Ben",
        ),
        (
            {"storyteller": "Ann", "positions": [], "votes": {"Ben": 2, " Ben": 3}},
            "duplicate_vote",
            "votes.Ben",
        ),
    ],
)
def test_a_body_out_of_shape_is_refused_by_the_parse_alone(body, code, field):
    refused = refusal(body)
    assert (refused.code, refused.field) == (code, field)


def test_the_rules_check_the_parsed_entry_never_the_body():
    entry = TurnEntry("Ann", ["Ben", "Ann", "Cy", "Dee"], {"Ben": 2, "Cy": 2, "Dee": 2})
    outcome = play_turn(TABLE, STATE, entry, partial=False)
    assert outcome.result["deltas"] == {"Ann": 0, "Ben": 2, "Cy": 2, "Dee": 2}
    assert outcome.input == {
        "storyteller": "Ann",
        "positions": ["Ben", "Ann", "Cy", "Dee"],
        "votes": {"Ben": 2, "Cy": 2, "Dee": 2},
    }


def test_a_shape_fault_is_told_before_a_rule_broken_earlier_in_the_body():
    # the storyteller is the wrong one (a rule) and a vote is text (a shape): the parse speaks
    after = {**STATE, "last_storyteller": "Ann"}
    body = {"storyteller": "Ann", "positions": ["Ben", "Ann", "Cy", "Dee"], "votes": {"Ben": "x"}}
    with pytest.raises(Refusal) as caught:
        GAME.play(TABLE, after, body)
    assert (caught.value.code, caught.value.field) == ("invalid_value", "votes.Ben")
    with pytest.raises(Refusal) as caught:
        GAME.play(TABLE, after, {**body, "votes": {"Ben": 2}})
    assert (caught.value.code, caught.value.field) == ("wrong_storyteller", "storyteller")
