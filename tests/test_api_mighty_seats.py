"""Mighty at six and four seats through the API: a new session's seat defaults, a 6마 hand kept
through a correction, an export and an import, and the players' figures of kills and rests."""

from __future__ import annotations

SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
#: the worked case MS-01 (tests/golden/mighty-seats.json): Eve killed by the joker, Dee friend
KILL = {
    "dealer": "Ann",
    "contract": {"boss": "Cy", "bid": 15, "trump": "H"},
    "kill": {"card": "JK", "player": "Eve"},
    "friend": {"card": "SA", "player": "Dee"},
    "opposition_points": 4,
}


def test_a_table_of_four_gets_its_seat_defaults_and_they_are_no_change(api):
    four = api.create(players=["Ann", "Ben", "Cy", "Dee"], game="mighty")
    assert four["rules"]["min_bid"] == 14 and four["rules"]["friend_forbidden"] == ["joker"]
    assert four["rules_changed"] == []
    own = api.create(players=["Ann", "Ben", "Cy", "Dee"], game="mighty", rules={"min_bid": 13})
    assert own["rules"]["min_bid"] == 13 and own["rules_changed"] == ["min_bid"]
    assert api.create(players=SIX, game="mighty")["rules"]["min_bid"] == 13


def test_a_kill_is_corrected_exported_and_imported_like_any_hand(api, client):
    sid = api.create(players=SIX, game="mighty")["id"]
    assert api.record(sid, KILL).status_code == 201
    second = {**KILL, "dealer": "Dee", "kill": {"card": "SA", "player": "Ann"}}
    second["friend"] = {"card": "DA", "player": "Eve"}
    assert api.record(sid, second).status_code == 201
    corrected = {**KILL, "kill": {"card": "JK", "player": "Fay", "misses": ["HA"]}}
    response = client.put(f"/api/sessions/{sid}/rounds/1", json=corrected)
    assert response.status_code == 200, response.get_json()
    session = api.session(sid)
    first = {"Ann": -5, "Ben": -5, "Cy": 10, "Dee": 5, "Eve": -5, "Fay": 0}
    then = {"Ann": 0, "Ben": -5, "Cy": 10, "Dee": -5, "Eve": 5, "Fay": -5}
    assert session["totals"] == {name: first[name] + then[name] for name in SIX}
    exported = client.get(f"/api/sessions/{sid}/export").get_json()
    imported = client.post("/api/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    again = api.session(imported.get_json()["id"])
    assert again["totals"] == session["totals"] and again["players"] == SIX
    rounds = again["rounds"]
    assert [r["result"]["killed"] for r in rounds] == [["Fay"], ["Ann"]]
    assert rounds[0]["input"]["kill"] == {"card": "JK", "player": "Fay", "misses": ["HA"]}


def test_a_refused_kill_names_its_code_and_field_and_changes_nothing(api):
    sid = api.create(players=SIX, game="mighty")["id"]
    response = api.record(sid, {**KILL, "kill": {"card": "JK", "player": "Cy"}})
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "invalid_kill"
    assert response.get_json()["error"]["field"] == "kill.player"
    assert api.session(sid)["rounds_total"] == 0


def test_the_figures_count_hands_killed_and_rested(api, client):
    sid = api.create(players=SIX, game="mighty", rules={"six_player_rule": "dealer_sits_out"})["id"]
    rested = {key: value for key, value in KILL.items() if key != "kill"}
    assert api.record(sid, rested).status_code == 201
    other = api.create(players=SIX, game="mighty")["id"]
    assert api.record(other, KILL).status_code == 201
    eve = client.get("/api/player", query_string={"name": "Eve"}).get_json()["games"]["mighty"]
    ann = client.get("/api/player", query_string={"name": "Ann"}).get_json()["games"]["mighty"]
    assert (eve["hands_killed"], eve["hands_rested"], eve["hands_played"]) == (1, 0, 1)
    assert (ann["hands_killed"], ann["hands_rested"], ann["hands_played"]) == (0, 1, 1)
