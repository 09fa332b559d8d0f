"""A Dixit vote is one position number; a list of one or two only under two_votes_large_game at a
table of 7 or more (docs/API.md, Dixit). Every path a vote takes is checked: the rules, the API
(recorded, dry run, corrected), an import's replay and the pages' turn form."""

from __future__ import annotations

import copy

import pytest

from refapp.extensions import db
from refapp.games.dixit import Dixit
from refapp.games.dixit.table_view import votes_each
from refapp.models import Round

from ...conftest import SEED_TURN, shown
from ...test_archive import MINIMAL, rows
from .test_rules import FOUR, play, refusal

DIXIT = Dixit()
FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
SEVEN = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
ODYSSEY = {"two_votes_large_game": True}
#: five players: Ann tells (card 1); Ben finds it, the others vote for Ben's card
FIVE_TURN = {
    "storyteller": "Ann",
    "positions": list(FIVE),
    "votes": {"Ben": 1, "Cy": 2, "Dee": 2, "Eve": 2},
}


@pytest.mark.parametrize("vote", [[2], [2, 1], []])
def test_without_the_option_a_list_is_invalid_value_even_of_one(vote):
    error = refusal(**{**SEED_TURN, "votes": {**SEED_TURN["votes"], "Ben": vote}})
    assert (error.code, error.field) == ("invalid_value", "votes.Ben")
    assert "Two votes in a large game" in error.message and repr(vote) in error.message
    assert "two_votes_large_game" not in error.message  # the rule by its title, not its key


def test_without_the_option_a_list_is_refused_at_seven_too():
    turn = {"storyteller": "Ann", "positions": list(SEVEN), "votes": dict.fromkeys(SEVEN[1:], 1)}
    assert play(SEVEN, **turn).result["deltas"]["Ann"] == 0  # all found: numbers are fine
    error = refusal(SEVEN, **{**turn, "votes": {**turn["votes"], "Cy": [1]}})
    assert (error.code, error.field) == ("invalid_value", "votes.Cy")


@pytest.mark.parametrize("players", [FOUR, FIVE, SEVEN[:6]])
def test_with_the_option_below_seven_players_a_list_is_invalid_value(players):
    others = players[1:]
    turn = {"storyteller": "Ann", "positions": list(players), "votes": dict.fromkeys(others, 1)}
    error = refusal(players, ODYSSEY, **{**turn, "votes": {**turn["votes"], others[0]: [1]}})
    assert (error.code, error.field) == ("invalid_value", f"votes.{others[0]}")
    assert "7" in error.message and str(len(players)) in error.message


def test_with_the_option_below_seven_only_the_cap_changes():
    """One vote each, no single-vote +1; the vote bonus is capped at 3."""
    odyssey = play(FIVE, rules=ODYSSEY, **FIVE_TURN)
    assert odyssey.result["deltas"] == {"Ann": 3, "Ben": 3 + 3, "Cy": 0, "Dee": 0, "Eve": 0}
    assert odyssey.input["votes"] == FIVE_TURN["votes"]  # stored as numbers
    assert not any("single vote" in line for line in odyssey.result["explanation"])
    six = SEVEN[:6]
    crowded = {"storyteller": "Ann", "positions": list(six), "votes": dict.fromkeys(six[2:], 2)}
    crowded["votes"]["Ben"] = 1  # Ben alone finds it; his card draws four votes
    assert play(six, **crowded).result["deltas"]["Ben"] == 3 + 4
    assert play(six, rules=ODYSSEY, **crowded).result["deltas"]["Ben"] == 3 + 3


@pytest.mark.parametrize("vote", [1, [1]])
def test_at_seven_with_the_option_a_number_or_a_list_of_one_is_one_vote(vote):
    turn = {"storyteller": "Ann", "positions": list(SEVEN), "votes": dict.fromkeys(SEVEN[1:], 2)}
    turn["votes"]["Ben"] = vote
    outcome = play(SEVEN, rules=ODYSSEY, **turn)
    assert outcome.input["votes"]["Ben"] == [1]
    assert outcome.result["deltas"]["Ben"] == 3 + 1 + 3  # finder, single vote, capped bonus


def test_how_many_votes_the_form_offers():
    plain, odyssey = DIXIT.resolve_rules({}), DIXIT.resolve_rules(ODYSSEY)
    assert [votes_each(plain, n) for n in (3, 6, 7, 12)] == [1, 1, 1, 1]
    assert [votes_each(odyssey, n) for n in (3, 6, 7, 12)] == [1, 1, 2, 2]


# -- the paths a vote takes ----------------------------------------------------------------


def five_at_odyssey(api) -> int:
    """Create a five-player Dixit session under the Odyssey preset; return its id."""
    return api.create(players=FIVE, preset="odyssey")["id"]


def stored_rounds(app) -> int:
    """Return how many rounds are stored."""
    with app.app_context():
        return db.session.query(Round).count()


@pytest.mark.parametrize("dry_run", [False, True])
def test_the_api_refuses_a_vote_list_below_seven(api, app, dry_run):
    sid = five_at_odyssey(api)
    body = {**FIVE_TURN, "votes": {**FIVE_TURN["votes"], "Cy": [2]}}
    response = api.record(sid, body, dry_run=dry_run)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_value", "votes.Cy")
    assert stored_rounds(app) == 0
    assert api.record(sid, FIVE_TURN).status_code == 201


def test_the_api_refuses_a_vote_list_without_the_option(api, app):
    sid = api.create()["id"]
    body = {**SEED_TURN, "votes": {**SEED_TURN["votes"], "Dee": [3]}}
    response = api.record(sid, body)
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "invalid_value"
    assert stored_rounds(app) == 0


def test_a_correction_to_a_vote_list_is_refused_and_changes_nothing(api, client):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    before = api.session(sid)
    body = {**SEED_TURN, "votes": {**SEED_TURN["votes"], "Ben": [2]}}
    response = client.put(f"/api/sessions/{sid}/rounds/1", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("invalid_value", "votes.Ben")
    assert api.session(sid)["totals"] == before["totals"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}


@pytest.mark.parametrize("rules", [{}, ODYSSEY])
def test_an_import_with_a_vote_list_below_seven_is_refused(client, app, rules):
    body = copy.deepcopy(MINIMAL)
    body["rules"] = rules
    body["rounds"][0]["input"]["votes"]["Ben"] = [2]
    stored = rows(app)
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"], error["round"]) == ("invalid_value", "votes.Ben", 1)
    assert rows(app) == stored


def test_an_import_at_seven_under_the_option_keeps_two_votes(client):
    body = copy.deepcopy(MINIMAL)
    body["players"], body["rules"] = list(SEVEN), ODYSSEY
    votes = {voter: [1] for voter in SEVEN[1:]}
    votes["Ben"] = [4, 1]
    body["rounds"] = [{"input": {"storyteller": "Ann", "positions": list(SEVEN), "votes": votes}}]
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["rounds"][0]["input"]["votes"]["Ben"] == [4, 1]


def test_the_turn_form_below_seven_offers_one_vote_each_and_records_numbers(api, client):
    sid = five_at_odyssey(api)
    page = shown(client.get(f"/sessions/{sid}"))
    assert 'name="vote_1"' in page and 'name="vote2_1"' not in page
    data = {"storyteller": "Ann", "expected_round": "1"}
    data.update({f"pos_{n}": owner for n, owner in enumerate(FIVE, 1)})
    data.update({f"vote_{FIVE.index(v)}": str(n) for v, n in FIVE_TURN["votes"].items()})
    assert client.post(f"/sessions/{sid}/rounds", data=data).status_code == 302
    played = api.session(sid)["rounds"][0]
    assert played["input"]["votes"] == FIVE_TURN["votes"]
    assert played["result"]["deltas"]["Ben"] == 6


def test_the_turn_form_at_seven_offers_two_votes_each(api, client):
    sid = api.create(players=SEVEN, preset="odyssey")["id"]
    page = shown(client.get(f"/sessions/{sid}"))
    assert 'name="vote2_1"' in page
    data = {"storyteller": "Ann", "expected_round": "1"}
    data.update({f"pos_{n}": owner for n, owner in enumerate(SEVEN, 1)})
    data.update({f"vote_{seat}": "1" for seat in range(1, 7)})
    data["vote2_2"] = "4"  # Cy votes for Ann's card and Dee's
    assert client.post(f"/sessions/{sid}/rounds", data=data).status_code == 302
    votes = api.session(sid)["rounds"][0]["input"]["votes"]
    assert votes["Cy"] == [1, 4] and votes["Ben"] == [1]
