"""The same table again: a rematch in one tap, and a returning table's names offered, not typed."""

from __future__ import annotations

import html
import re

from refapp.services.again import recent_tables

FIVE = ["Minsu", "Jiwoo", "Ann", "Ben", "Cy"]


def button_posts(client, path: str):
    """Post a one-button form (CSRF is off in the tests)."""
    return client.post(path, data={})


def test_same_players_again_starts_a_session_with_the_seats_and_rules(client, api):
    rules = {"min_bid": 14, "next_dealer": "clockwise"}
    first = api.create(FIVE, game="mighty", preset="online", rules=rules)
    page = client.get(f"/sessions/{first['id']}").get_data(as_text=True)
    assert "Same players again: a new session" in page
    answer = button_posts(client, f"/sessions/{first['id']}/again")
    assert answer.status_code == 302
    new_id = int(re.search(r"/sessions/(\d+)$", answer.headers["Location"]).group(1))
    again = api.session(new_id)
    assert new_id != first["id"]
    assert (again["game"], again["players"], again["preset"]) == ("mighty", FIVE, "online")
    assert again["rules"] == first["rules"] and again["rules"]["min_bid"] == 14
    assert again["rounds"] == [] and [e["action"] for e in api.audit(new_id)] == ["create_session"]


def test_a_finished_session_offers_a_rematch(client, api):
    sid = api.create(["Ann", "Ben", "Cy"], game="dixit")["id"]
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "Rematch: the same players and rules" in page
    assert button_posts(client, f"/sessions/{sid}/again").status_code == 302
    assert client.get("/api/sessions").get_json()["total"] == 2


def test_a_missing_session_cannot_be_played_again(client):
    assert button_posts(client, "/sessions/999/again").status_code == 404


def test_the_sessions_page_offers_recent_tables_and_they_fill_the_form_in(client, api):
    older = api.create(["Dee", "Eve", "Fay"], game="dixit")["id"]
    newer = api.create(["Ann", "Ben", "Cy"], game="dixit", rules={"target_score": 20})["id"]
    latest = api.create(["Ann", "Ben", "Cy"], game="dixit")["id"]  # the same seats: offered once
    mighty = api.create(FIVE, game="mighty")["id"]
    page = client.get("/").get_data(as_text=True)
    offered = re.findall(r'href="/sessions/new\?game=(\w+)&amp;again=(\d+)"', page)
    assert offered == [("mighty", str(mighty)), ("dixit", str(latest)), ("dixit", str(older))]
    filled = client.get(f"/sessions/new?game=dixit&again={newer}").get_data(as_text=True)
    names = re.search(r'<textarea[^>]*name="players"[^>]*>(.*?)</textarea>', filled, re.S)
    assert names and html.unescape(names.group(1)).split() == ["Ann", "Ben", "Cy"]
    assert re.search(r'name="rule_target_score"[^>]*value="20"', filled)


def test_another_games_session_fills_nothing(client, api):
    mighty = api.create(FIVE, game="mighty")["id"]
    page = client.get(f"/sessions/new?game=dixit&again={mighty}").get_data(as_text=True)
    names = re.search(r'<textarea[^>]*name="players"[^>]*>(.*?)</textarea>', page, re.S)
    assert names and names.group(1).strip() == ""


def test_recent_tables_are_the_list_rows_one_per_game_and_seats():
    rows = [
        {"id": 4, "game": "dixit", "players": ["Ann", "Ben", "Cy"]},
        {"id": 3, "game": "mighty", "players": ["Ann", "Ben", "Cy", "Dee", "Eve"]},
        {"id": 2, "game": "dixit", "players": ["Ann", "Ben", "Cy"]},
        {"id": 1, "game": "dixit", "players": ["Ben", "Ann", "Cy"]},
    ]
    assert [row["id"] for row in recent_tables(rows)] == [4, 3, 1]
    assert [row["id"] for row in recent_tables(rows, most=1)] == [4]


def test_the_same_table_again_plays_at_the_same_place(client, api):
    body = {"game": "dixit", "players": ["Ann", "Ben", "Cy"], "location": "Ann's flat"}
    first = client.post("/api/sessions", json=body).get_json()["id"]
    answer = button_posts(client, f"/sessions/{first}/again")
    new_id = int(re.search(r"/sessions/(\d+)$", answer.headers["Location"]).group(1))
    assert api.session(new_id)["location"] == "Ann's flat"
    filled = client.get(f"/sessions/new?game=dixit&again={first}").get_data(as_text=True)
    assert re.search(r'name="location"[^>]*value="Ann&#39;s flat"', filled)
