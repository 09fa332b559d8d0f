"""The same table again: a rematch in one tap, and a returning table's names offered, not typed."""

from __future__ import annotations

import html
import re

from refapp.services.again import READ_MOST, recent_tables

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


def test_the_new_session_page_offers_recent_tables_and_fills_them_in(client, api):
    older = api.create(["Dee", "Eve", "Fay"], game="dixit")["id"]
    newer = api.create(["Ann", "Ben", "Cy"], game="dixit", rules={"target_score": 20})["id"]
    api.create(["Ann", "Ben", "Cy"], game="dixit")  # the same seats: offered once
    api.create(FIVE, game="mighty")  # another game: not offered
    page = client.get("/sessions/new?game=dixit").get_data(as_text=True)
    offered = re.findall(r'href="/sessions/new\?game=dixit&amp;again=(\d+)"', page)
    assert len(offered) == 2 and int(offered[1]) == older and int(offered[0]) > newer
    filled = client.get(f"/sessions/new?game=dixit&again={newer}").get_data(as_text=True)
    names = re.search(r'<textarea[^>]*name="players"[^>]*>(.*?)</textarea>', filled, re.S)
    assert names and html.unescape(names.group(1)).split() == ["Ann", "Ben", "Cy"]
    assert re.search(r'name="rule_target_score"[^>]*value="20"', filled)


def test_another_games_session_fills_nothing(client, api):
    mighty = api.create(FIVE, game="mighty")["id"]
    page = client.get(f"/sessions/new?game=dixit&again={mighty}").get_data(as_text=True)
    names = re.search(r'<textarea[^>]*name="players"[^>]*>(.*?)</textarea>', page, re.S)
    assert names and names.group(1).strip() == ""


def test_recent_tables_read_a_bounded_page(app, api):
    api.create(["Old", "Table", "Here"], game="dixit")
    for _ in range(READ_MOST):
        api.create(["Ann", "Ben", "Cy"], game="dixit")
    with app.app_context():
        tables = recent_tables("dixit")
    # the oldest table lies past the rows read: a long history costs no more to offer
    assert [table["players"] for table in tables] == [["Ann", "Ben", "Cy"]]
