"""The API takes numbers as JSON numbers: text that looks like a number is refused, not guessed."""

from __future__ import annotations

import pytest

from .conftest import SEED_TURN

MIGHTY = ["Ann", "Ben", "Cy", "Dee", "Eve"]
HAND = {
    "contract": {"boss": "Cy", "bid": 15, "trump": "H"},
    "friend": {"card": "JK", "player": "Dee"},
    "opposition_points": 3,
}


def refused(api, sid, body) -> dict:
    """Post a round that must be refused with 422; return its error (nothing stored)."""
    response = api.record(sid, body)
    assert response.status_code == 422, response.get_json()
    assert api.session(sid)["rounds_total"] == 0
    return response.get_json()["error"]


def test_a_vote_sent_as_text_is_invalid_value(api):
    sid = api.create()["id"]
    error = refused(api, sid, {**SEED_TURN, "votes": {"Ben": "2", "Cy": 2, "Dee": 3}})
    assert (error["code"], error["field"]) == ("invalid_value", "votes.Ben")


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"contract": {"boss": "Cy", "bid": "15", "trump": "H"}}, "invalid_value", "contract.bid"),
        ({"opposition_points": "3"}, "invalid_points", "opposition_points"),
        ({"opposition_points": 3.5}, "invalid_points", "opposition_points"),
    ],
)
def test_mighty_numbers_sent_as_text_are_refused(api, change, code, field):
    sid = api.create(players=MIGHTY, game="mighty")["id"]
    error = refused(api, sid, {**HAND, **change})
    assert (error["code"], error["field"]) == (code, field)


def test_a_whole_number_written_with_a_point_counts(api):
    sid = api.create(players=MIGHTY, game="mighty")["id"]
    response = api.record(sid, {**HAND, "opposition_points": 3.0})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["round"]["input"]["opposition_points"] == 3


def test_expected_round_as_text_is_refused(api):
    sid = api.create()["id"]
    error = refused(api, sid, {**SEED_TURN, "expected_round": "1"})
    assert (error["code"], error["field"]) == ("invalid_value", "expected_round")


def test_a_dalmuti_rank_sent_as_text_is_invalid_value(api):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = api.create(players=players, game="dalmuti")["id"]
    body = {
        "tribute": {"greater_peasant": ["2", 4], "greater_dalmuti": [12, 11],
                    "lesser_peasant": [3], "lesser_dalmuti": [12]},
        "finish_order": players,
    }  # fmt: skip
    error = refused(api, sid, body)
    assert (error["code"], error["field"]) == ("invalid_value", "tribute.greater_peasant")
