"""Players across sessions: the roster, figures per game by hand, renaming and merging, costs."""

from __future__ import annotations

import json
import re

import pytest

from refapp import create_app
from refapp.extensions import db
from refapp.models import GameSession, Player
from refapp.services.players import renamed

from .conftest import SEED_TURN, turn
from .test_stats import DALMUTI_HANDS, DIXIT_TURNS, FIVE, MIGHTY_HANDS, NO_TAX, told


def session(api, game: str, players, rounds, *, finish: bool = False, **extra) -> int:
    """Create a session, record its rounds, finish it if asked, and return its id."""
    sid = api.create(players=list(players), game=game, **extra)["id"]
    for body in rounds:
        response = api.record(sid, body)
        assert response.status_code == 201, response.get_json()
    if finish:
        assert api.client.post(f"/api/sessions/{sid}/finish").status_code == 200
    return sid


def dixit_table(api, finish: bool = True) -> int:
    """The five Dixit turns of test_stats: totals Ann 13, Ben 9, Cy 7, Dee 10."""
    return session(api, "dixit", ("Ann", "Ben", "Cy", "Dee"), DIXIT_TURNS, finish=finish)


def mighty_table(api) -> int:
    """The seven Mighty rounds of test_stats: totals Ann -45, Ben -16, Cy 3, Dee -2, Eve 60."""
    return session(api, "mighty", FIVE, MIGHTY_HANDS, finish=True)


def dalmuti_table(api, **extra) -> int:
    """The three Dalmuti hands of test_stats, no tax: totals Ann 11, Ben 4, Cy 8, Dee 4, Eve 3."""
    return session(api, "dalmuti", FIVE, DALMUTI_HANDS, finish=True, rules=NO_TAX, **extra)


def player(client, name: str) -> dict:
    """Return a player's JSON (asserting success)."""
    response = client.get(f"/api/players/{name}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def rename(client, name: str, new):
    """Post a rename through the API and return the response."""
    return client.post(f"/api/players/{name}/rename", json={"name": new})


def stored(app, model) -> int:
    """Count stored rows of a model."""
    with app.app_context():
        return db.session.query(model).count()


# -- the pure rename helper -----------------------------------------------------------------------


def test_renamed_rewrites_keys_and_values_equal_to_the_name_only():
    value = {
        "storyteller": "Ann",
        "positions": ["Dee", "Ann", "Ben"],
        "votes": {"Ann": 2, "Annie": 1},
        "nested": [{"Ann": ["Ann", "Ann's card", 3, None, True]}],
        "explanation": ["Ann was the storyteller."],
    }
    before = json.dumps(value)
    assert renamed(value, "Ann", "Zoe") == {
        "storyteller": "Zoe",
        "positions": ["Dee", "Zoe", "Ben"],
        "votes": {"Zoe": 2, "Annie": 1},
        "nested": [{"Zoe": ["Zoe", "Ann's card", 3, None, True]}],
        "explanation": ["Ann was the storyteller."],
    }
    assert json.dumps(value) == before  # a copy: the stored value is untouched
    assert renamed(None, "Ann", "Zoe") is None
    assert renamed(7, "Ann", "Zoe") == 7


# -- reading ---------------------------------------------------------------------------------------


def test_players_list_sessions_played_and_won_and_the_games(api, client):
    dixit_table(api)  # Ann wins with 13
    session(api, "dixit", ("Ann", "Ben", "Cy"), [], finish=False)
    mighty_table(api)  # Eve wins with 60
    rows = client.get("/api/players").get_json()["players"]
    assert [row["name"] for row in rows] == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    by_name = {row["name"]: row for row in rows}
    assert by_name["Ann"]["sessions_played"] == 3
    assert by_name["Ann"]["sessions_won"] == 1
    assert by_name["Ann"]["rounds_played"] == 5 + 0 + 7
    assert by_name["Ann"]["games"] == ["mighty", "dixit"]
    assert by_name["Eve"]["sessions_played"] == 1 and by_name["Eve"]["sessions_won"] == 1
    assert by_name["Eve"]["games"] == ["mighty"]
    assert by_name["Dee"]["sessions_won"] == 0
    assert by_name["Ann"]["last_played"] is not None


def test_a_player_page_has_every_figure_per_game_worked_by_hand(api, client):
    first = dixit_table(api)  # finished: Ann 13 of 13, 9, 7, 10 - a win
    # running: Ann tells, Ben and Cy find it, Dee votes Ben's card - Ann +3, some found
    second = session(api, "dixit", ("Ann", "Ben", "Cy", "Dee"), [SEED_TURN])
    third = mighty_table(api)  # Ann -45, Eve wins
    fourth = dalmuti_table(api)  # Ann 11 of 11, 4, 8, 4, 3 - a win
    ann = player(client, "Ann")
    assert ann["name"] == "Ann"
    assert (ann["sessions_played"], ann["sessions_won"]) == (4, 2)
    assert list(ann["games"]) == ["dalmuti", "mighty", "dixit"]
    # Dixit: 5 + 1 turns, 13 + 3 points; storyteller in turns 1 (some), 5 (all) and the
    # second session's 1 (some); vote bonus 0, 1, 2 in turns 2, 3, 4 of the first
    assert ann["games"]["dixit"] == {
        "title": "Dixit",
        "sessions_played": 2,
        "sessions_won": 1,
        "sessions_counted": 1,  # the running session does not count yet
        "win_rate": 1.0,
        "average_place": 1.0,
        "hours": 0.0,
        "rounds_played": 6,
        "points": 16,
        "average_points": 2.67,
        "storyteller_turns": 3,
        "some_found": 2,
        "some_found_share": 0.67,
        "average_vote_bonus": 1.0,
    }
    # Mighty: 7 rounds (a misdeal and an all-pass among them) for -45; boss in 3 hands (bids 14,
    # 13, 17), only the critic made; friend once, in Eve's run; the back-run of hand 2 was hers
    assert ann["games"]["mighty"] == {
        "title": "Mighty",
        "sessions_played": 1,
        "sessions_won": 0,
        "sessions_counted": 1,
        "win_rate": 0.0,
        "average_place": 5.0,  # -45: everyone else is on more
        "hours": 0.0,
        "rounds_played": 7,
        "points": -45,
        "average_points": -6.43,
        "hands_played": 5,
        "hands_as_boss": 3,
        "contracts_made": 1,
        "average_bid": 14.67,
        "times_as_friend": 1,
        "runs": 1,
        "back_runs": 1,
        "hands_killed": 0,
        "hands_rested": 0,
    }
    # Dalmuti: finished 2nd, 1st, 1st (3 + 4 + 4 points); Greater Dalmuti during hands 1 and 3
    assert ann["games"]["dalmuti"] == {
        "title": "The Great Dalmuti",
        "sessions_played": 1,
        "sessions_won": 1,
        "sessions_counted": 1,
        "win_rate": 1.0,
        "average_place": 1.0,
        "hours": 0.0,
        "rounds_played": 3,
        "points": 11,
        "average_points": 3.67,
        "hands_played": 3,
        "average_finish": 1.33,
        "hands_as_greater_dalmuti": 2,
        "hands_as_greater_peasant": 0,
        "revolutions": 0,
    }
    rows = ann["sessions"]
    assert [row["id"] for row in rows] == [fourth, third, second, first]
    assert rows[2] == {
        **rows[2],
        "game": "dixit",
        "finished": False,
        "rounds": 1,
        "points": 3,
        "won": False,
        "place": None,
        "players": ["Ann", "Ben", "Cy", "Dee"],
    }
    assert [row["won"] for row in rows] == [True, False, False, True]
    # Dee declared the greater revolution and Cy the plain one; Eve's one session is Mighty
    assert player(client, "Dee")["games"]["dalmuti"]["revolutions"] == 1
    assert player(client, "Cy")["games"]["dalmuti"]["hands_as_greater_peasant"] == 1
    assert list(player(client, "Eve")["games"]) == ["dalmuti", "mighty"]


def test_an_unknown_player_is_not_found(client):
    response = client.get("/api/players/Nobody")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"
    assert "'Nobody'" in response.get_json()["error"]["message"]
    assert client.get("/players/Nobody").status_code == 404
    assert rename(client, "Nobody", "Ann").status_code == 404


def test_a_name_with_a_slash_has_its_page(api, client):
    session(api, "dixit", ("Ann/2", "Ben", "Cy"), [])
    assert player(client, "Ann/2")["sessions_played"] == 1
    page = client.get("/players").get_data(as_text=True)
    assert 'href="/players/Ann/2"' in page
    assert client.get("/players/Ann/2").status_code == 200
    assert rename(client, "Ann/2", "Ann").status_code == 200


# -- renaming --------------------------------------------------------------------------------------


def test_renaming_rewrites_the_name_everywhere_and_keeps_the_totals(api, client):
    sid = dixit_table(api, finish=False)
    before = api.session(sid)
    response = rename(client, "Ann", "Annie")
    assert response.status_code == 200
    assert response.get_json()["name"] == "Annie"
    after = api.session(sid)
    text = json.dumps(after)
    assert not re.search(r"\bAnn\b", text), "the old name is left somewhere"
    assert after["players"] == ["Annie", "Ben", "Cy", "Dee"]
    assert after["totals"] == {"Annie": 13, "Ben": 9, "Cy": 7, "Dee": 10}
    assert list(after["totals"].values()) == list(before["totals"].values())
    assert after["rounds"][0]["input"]["storyteller"] == "Annie"
    assert after["rounds"][3]["result"]["finders"] == ["Annie"]
    assert after["rounds"][2]["result"]["vote_bonus"]["Annie"] == 1
    assert after["rounds"][0]["recorded_at"] == before["rounds"][0]["recorded_at"]
    # the summary the sessions list reads is renamed too
    listed = client.get("/api/sessions").get_json()["sessions"]
    assert next(row for row in listed if row["id"] == sid)["totals"]["Annie"] == 13
    # the game goes on under the new name: Ben tells; Annie and Dee find it, Cy votes Annie's
    next_turn = told("Ben", "Ben Annie Cy Dee", "Annie=1 Cy=2 Dee=1")
    recorded = api.record(sid, next_turn)
    assert recorded.status_code == 201, recorded.get_json()
    assert recorded.get_json()["session"]["totals"]["Annie"] == 13 + 3 + 1
    entries = api.audit(sid)
    assert [e["action"] for e in entries][-2:] == ["rename_player", "record_round"]
    renaming = entries[-2]
    assert (renaming["before"], renaming["after"]) == ({"name": "Ann"}, {"name": "Annie"})
    assert client.get("/api/players/Ann").status_code == 404
    assert player(client, "Annie")["games"]["dixit"]["storyteller_turns"] == 2


def test_renaming_in_mighty_and_dalmuti_rewrites_results_setup_and_state(api, client, app):
    mighty = mighty_table(api)
    draw = {"Ann": 3, "Ben": 1, "Cy": 5, "Dee": 9, "Eve": "J"}
    dalmuti = dalmuti_table(api, initial_draw=draw)
    totals = {sid: api.session(sid)["totals"] for sid in (mighty, dalmuti)}
    assert rename(client, "Ann", "Zoe").status_code == 200
    for sid in (mighty, dalmuti):
        after = api.session(sid)
        assert not re.search(r"\bAnn\b", json.dumps(after))
        assert after["totals"] == renamed(totals[sid], "Ann", "Zoe")
        assert api.audit(sid)[-1]["action"] == "rename_player"
    hands = api.session(mighty)["rounds"]
    assert hands[1]["result"]["boss"] == "Zoe" and hands[5]["result"]["friend"] == "Zoe"
    assert hands[1]["input"]["friend"] == {"card": "SA", "player": "Zoe"}
    with app.app_context():
        stored_session = db.session.get(GameSession, dalmuti)
        assert stored_session.setup["initial_draw"]["Zoe"] == 3
        assert stored_session.initial_state["ranks"] == ["Ben", "Zoe", "Cy", "Dee", "Eve"]
    zoe = player(client, "Zoe")
    assert zoe["games"]["mighty"]["hands_as_boss"] == 3
    assert zoe["games"]["dalmuti"]["sessions_played"] == 1


def test_renaming_onto_another_players_name_merges_them(api, client, app):
    first = dixit_table(api)
    typo = session(
        api, "dixit", ("Anne", "Ben", "Cy"), [told("Anne", "Anne Ben Ben Cy Cy", "Ben=1 Cy=1")]
    )
    players_before = stored(app, Player)
    first_audit = api.audit(first)
    response = rename(client, "Anne", "Ann")
    assert response.status_code == 200
    merged = response.get_json()
    assert merged["name"] == "Ann" and merged["sessions_played"] == 2
    assert [row["id"] for row in merged["sessions"]] == [typo, first]
    assert stored(app, Player) == players_before - 1
    assert client.get("/api/players/Anne").status_code == 404
    assert api.session(typo)["players"] == ["Ann", "Ben", "Cy"]
    assert api.audit(typo)[-1]["after"] == {"name": "Ann"}
    assert api.audit(first) == first_audit
    rows = {row["name"]: row for row in client.get("/api/players").get_json()["players"]}
    assert "Anne" not in rows and rows["Ann"]["sessions_played"] == 2


def test_two_players_at_one_session_cannot_be_merged(api, client, app):
    sid = dixit_table(api)
    audit = api.audit(sid)
    response = rename(client, "Ben", "Ann")
    assert response.status_code == 409
    error = response.get_json()["error"]
    assert error["code"] == "player_conflict" and error["field"] == "name"
    assert f"session {sid}" in error["message"]
    assert api.audit(sid) == audit
    assert api.session(sid)["players"] == ["Ann", "Ben", "Cy", "Dee"]
    assert stored(app, Player) == 4


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": ""}, "invalid_value"),
        ({"name": "   "}, "invalid_value"),
        ({"name": "x" * 41}, "invalid_value"),
        ({"name": "A\nB"}, "invalid_value"),
        ({"name": 5}, "invalid_value"),
        ({}, "missing_field"),
    ],
)
def test_a_bad_new_name_is_refused_and_changes_nothing(api, client, body, code):
    sid = dixit_table(api)
    response = client.post("/api/players/Ann/rename", json=body)
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == code
    assert response.get_json()["error"]["field"] == "name"
    assert api.audit(sid)[-1]["action"] == "finish_session"
    assert player(client, "Ann")["name"] == "Ann"


def test_a_rename_body_must_be_an_object(client, api):
    dixit_table(api)
    response = client.post("/api/players/Ann/rename", data="Zoe")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"


def test_the_same_name_after_trimming_changes_nothing(api, client):
    sid = dixit_table(api)
    audit = api.audit(sid)
    assert rename(client, "Ann", " Ann ").status_code == 200
    assert api.audit(sid) == audit


def test_a_new_name_is_trimmed_and_normalised(api, client):
    dixit_table(api)
    decomposed = "Zoe\u0301"  # e + combining acute accent
    assert rename(client, "Ann", f"  {decomposed} ").status_code == 200
    assert player(client, "Zo\u00e9")["sessions_played"] == 1


def test_a_name_that_is_also_a_word_of_the_game_is_not_renamed_blindly(api, client):
    # a player called J, and J's hand as dealt holds a jester, written "J" too
    j_hand = [1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, "J"]
    hands = {"hands": {"J": j_hand}}
    seats = ("J", "Ben", "Cy", "Dee", "Eve")
    sid = session(api, "dalmuti", seats, [{**hands, "finish_order": list(seats)}], rules=NO_TAX)
    before = api.session(sid)
    response = rename(client, "J", "Jo")
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "rename_unsafe" and error["field"] == "name"
    assert f"session {sid} (round 1" in error["message"]
    assert api.session(sid) == before
    assert player(client, "J")["name"] == "J"


# -- pages -----------------------------------------------------------------------------------------


def test_the_players_page_lists_everyone_with_links(api, client):
    dixit_table(api)
    page = client.get("/players").get_data(as_text=True)
    assert 'href="/players/Ann"' in page and "Dixit" in page
    assert client.get("/players").status_code == 200


def test_an_empty_roster_says_so(client):
    assert "No players yet" in client.get("/players").get_data(as_text=True)


def test_a_player_page_shows_the_figures_and_the_sessions(api, client):
    dixit_table(api)
    dalmuti_table(api)
    page = client.get("/players/Ann").get_data(as_text=True)
    assert '<dd data-figure="average_finish">1.33</dd>' in page
    assert '<dd data-figure="some_found_share">50%</dd>' in page
    assert '<dd data-figure="average_points">2.60</dd>' in page
    assert "Greater Dalmuti" in page and "Revolutions declared" in page
    assert page[page.index('id="sessions"') :].count('href="/sessions/') == 2
    assert 'action="/players/Ann/rename"' in page


def test_renaming_through_the_page(api, client):
    sid = dixit_table(api)
    response = client.post("/players/Ann/rename", data={"name": "Annie"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/players/Annie"
    page = client.get("/players/Annie").get_data(as_text=True)
    assert "Ann is now Annie." in page
    assert api.session(sid)["players"][0] == "Annie"


def test_a_refused_rename_stands_by_the_field(api, client):
    dixit_table(api)
    response = client.post("/players/Ben/rename", data={"name": "Ann"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "both sit at session" in page
    assert 'value="Ann"' in page
    assert client.post("/players/Ben/rename", data={"name": ""}).status_code == 422
    assert client.post("/players/Nobody/rename", data={"name": "X"}).status_code == 404


def test_a_merge_through_the_page_says_so(api, client):
    session(api, "dixit", ("Ann", "Ben", "Cy"), [])
    session(api, "dixit", ("Anne", "Ben", "Cy"), [])
    response = client.post("/players/Anne/rename", data={"name": "Ann"}, follow_redirects=True)
    assert "Anne merged into Ann" in response.get_data(as_text=True)


def test_the_rename_form_requires_the_csrf_token(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    client.post("/api/sessions", json={"game": "dixit", "players": ["Ann", "Ben", "Cy"]})
    assert client.post("/players/Ann/rename", data={"name": "Zoe"}).status_code == 400
    page = client.get("/players/Ann").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    accepted = client.post("/players/Ann/rename", data={"name": "Zoe", "csrf_token": token})
    assert accepted.status_code == 302
    with app.app_context():
        db.engine.dispose()


def test_with_a_table_password_reading_is_open_and_renaming_needs_it(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "PASSWORD": "owl",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'guarded.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    owl = {"X-Table-Password": "owl"}
    body = {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
    assert client.post("/api/sessions", json=body, headers=owl).status_code == 201
    page = client.get("/players/Ann").get_data(as_text=True)
    assert "Sign in</a> to rename Ann" in page and 'name="name"' not in page
    refused = client.post("/api/players/Ann/rename", json={"name": "Zoe"})
    assert refused.status_code == 401
    assert refused.get_json()["error"]["code"] == "sign_in_required"
    assert client.post("/players/Ann/rename", data={"name": "Zoe"}).status_code == 302
    assert client.get("/api/players/Ann").status_code == 200
    renamed_ok = client.post("/api/players/Ann/rename", json={"name": "Zoe"}, headers=owl)
    assert renamed_ok.status_code == 200
    with app.app_context():
        db.engine.dispose()


# -- costs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/players", "/players", "/api/players/Ann", "/players/Ann"])
def test_reading_players_costs_the_same_for_one_session_and_many(api, client, count_queries, path):
    session(api, "dixit", ("Ann", "Ben", "Cy", "Dee"), [turn("Ann")], finish=True)
    if path == "/players/Ann":  # the page's story reads a few rows per game: one of each first
        session(api, "mighty", FIVE, MIGHTY_HANDS[:1], finish=True)
        session(api, "dalmuti", FIVE, DALMUTI_HANDS[:1], finish=True, rules=NO_TAX)
    # each count after a first read: the first read after writes does what they left due (the
    # streaks and ratings of the sessions they counted: services/due.py), once
    client.get(path)
    with count_queries() as one:
        assert client.get(path).status_code == 200
    # then more sessions of every game, with many rounds, running and finished
    dixit_table(api)
    dixit_table(api, finish=False)
    mighty_table(api)
    dalmuti_table(api)
    session(api, "dixit", ("Ann", "Ben", "Cy", "Eve"), [turn("Ann", ("Ann", "Ben", "Cy", "Eve"))])
    client.get(path)
    with count_queries() as many:
        assert client.get(path).status_code == 200
    costs = [one.count, many.count]
    assert costs[0] == costs[1]
    # with the one query each for sessions that went idle and sessions owing figures (none
    # here); the player page's story reads a few rows per game and one per record
    # (services/statistics.py)
    assert costs[0] <= (40 if path == "/players/Ann" else 6)
