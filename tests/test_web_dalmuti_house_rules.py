"""Dalmuti's newer house rules on the pages: the new-session form, the round form, How we score."""

from __future__ import annotations

import re

from .conftest import shown

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def test_the_new_session_form_offers_the_new_house_rules(client):
    page = shown(client.get("/sessions/new?game=dalmuti"))
    for words in (
        "Ties in the seating draw",
        "Tied players redraw (Korean)",
        "the tied players draw again only to order themselves (a Korean custom)",
        "a rank already drawn is drawn again until it is nobody",
        "Fewest players for the Lesser pair",
        "Chips per role (Korean club)",
        "a chip per role: 4, 3, 2 for each merchant, 1, 0 (a Korean club custom)",
    ):
        assert words in page, words
    assert re.search(r'name="[^"]*draw_ties"', page)
    assert re.search(r'name="[^"]*lesser_tax_min_players"', page)


def test_the_round_form_asks_no_lesser_tribute_below_the_threshold(client, api):
    small = api.create(players=FIVE, game="dalmuti", rules={"lesser_tax_min_players": 6})["id"]
    page = shown(client.get(f"/sessions/{small}"))
    assert 'name="tribute_greater_peasant"' in page
    assert 'name="tribute_greater_dalmuti"' in page
    assert 'name="tribute_lesser_peasant"' not in page
    assert 'name="tribute_lesser_dalmuti"' not in page
    usual = api.create(players=FIVE, game="dalmuti")["id"]
    page = shown(client.get(f"/sessions/{usual}"))
    assert 'name="tribute_lesser_peasant"' in page and 'name="tribute_lesser_dalmuti"' in page


def test_a_hand_below_the_threshold_is_recorded_through_the_form(client, api):
    sid = api.create(players=FIVE, game="dalmuti", rules={"lesser_tax_min_players": 6})["id"]
    data = {"tribute_greater_peasant": "2 4", "tribute_greater_dalmuti": "12 12"}
    for place, name in enumerate(["Cy", "Ann", "Eve", "Ben", "Dee"], 1):
        data[f"finish_{place}"] = name
    response = client.post(f"/sessions/{sid}/rounds", data={**data, "expected_round": "1"})
    assert response.status_code == 302, shown(response)
    session = api.session(sid)
    assert session["totals"] == {"Ann": 3, "Ben": 1, "Cy": 4, "Dee": 0, "Eve": 2}


def test_how_we_score_says_this_tables_rules(client, api):
    rules = {"draw_ties": "redraw", "scoring": "role_chips", "lesser_tax_min_players": 6}
    sid = api.create(players=FIVE, game="dalmuti", rules=rules)["id"]
    page = shown(client.get(f"/sessions/{sid}/how-we-score"))
    assert "their last card places them" in page
    assert "Greater Dalmuti 4, Lesser Dalmuti 3, every merchant 2" in page
    assert "pays tribute only with 6 players or more, and 5 sit here" in page
