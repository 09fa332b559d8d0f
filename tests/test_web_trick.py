"""Mighty's "Who takes this trick?" page: a plain GET form answered on the server, in English
and Korean, from the home page and from a session (with the players' names), and its refusals."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

from flask import render_template

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DEAD_JOKER = "/trick?trump=S&trick=1&cards=H5,JK,HK,H2,C4&suit=&call="
JOKER_CALL = "/trick?trump=H&trick=4&cards=C3,JK,CA,C10,C2&suit=&call=1"
TWICE = "/trick?trump=S&trick=2&cards=H5,HK,H5"


def text(response) -> str:
    """Return the page's text, tags dropped and spaces folded."""
    page = re.sub(r"<script.*?</script>", " ", response.get_data(as_text=True), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def verdict(response) -> str:
    """Return the text of the verdict box."""
    page = response.get_data(as_text=True)
    found = re.search(r'<section class="card trick-verdict".*?</section>', page, re.S)
    assert found, "no verdict on the page"
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", found.group(0))))


def test_the_home_page_links_to_the_trick_page(client):
    page = client.get("/").get_data(as_text=True)
    assert 'href="/trick"' in page and "Mighty: who takes this trick?" in page
    empty = client.get("/trick")
    assert empty.status_code == 200
    assert "Who takes this trick?" in text(empty) and "trick-verdict" not in empty.get_data(True)


def test_a_dead_first_trick_joker_loses_to_the_led_suit(client):
    response = client.get(DEAD_JOKER)
    assert response.status_code == 200
    box = verdict(response)
    assert "3rd play" in box and "♥K" in box
    assert "The highest card of the led suit (선도패)" in box
    assert "♥K takes trick 1 (the highest card of the led suit); point cards: ♥K." in box
    assert "The joker (조커) is dead in the first trick (초구)" in box
    # the grid greys the cards in the trick, and is full
    page = response.get_data(as_text=True)
    assert re.search(r'value="HK" class="trick-card[^"]*" aria-pressed="true" disabled', page)
    assert re.search(r'value="SA" class="trick-card[^"]*" disabled', page)


def test_a_called_joker_is_dead(client):
    response = client.get(JOKER_CALL)
    assert response.status_code == 200
    box = verdict(response)
    assert "3rd play" in box and "♣A" in box
    assert "Joker call (조커콜): the joker had to come out, and it is dead." in box
    assert "♣A takes trick 4 (the highest card of the led suit); point cards: ♣A ♣10." in box


def test_the_words_in_korean(client):
    """The verdict in Korean: the particle after a card fits its rank letter (♥K가, ♣A가)."""
    headers = {"Accept-Language": "ko"}
    dead = verdict(client.get(DEAD_JOKER, headers=headers))
    assert "세 번째 카드" in dead and "선도패" in dead and "초구" in dead
    assert "♥K가 1번 트릭을 따요" in dead  # a rank letter reads 케이: vowel-final
    called = verdict(client.get(JOKER_CALL, headers=headers))
    assert "조커콜" in called and "♣A가 4번 트릭을 따요" in called
    page = text(client.get("/trick", headers=headers))
    assert "이 트릭은 누가 따나요?" in page and "Who takes this trick?" not in page


def test_a_card_twice_is_refused_by_its_field_and_at_the_top(client):
    response = client.get(TWICE)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    message = "♥5 is already in this trick; no card is played twice."
    assert page.count(message) == 2
    form = page.split('id="trick-form"', 1)[1]
    assert form.index(message) < form.index('name="trump"')  # at the top of the form
    field = form.split('id="cards"', 1)[1].split("</div>", 1)[0]
    assert message in field  # and next to the cards
    assert "trick-verdict" not in page
    korean = client.get(TWICE, headers={"Accept-Language": "ko"})
    assert korean.status_code == 422
    assert "♥5" in text(korean) and message not in text(korean)


def test_bad_input_is_refused_never_a_server_error(client):
    for query in (
        "/trick?trump=S&trick=1&cards=ZZ&go=1",
        "/trick?trump=X&trick=1&cards=HK&go=1",
        "/trick?trump=S&trick=11&cards=HK",
        "/trick?trump=S&trick=two&cards=HK",
        "/trick?trump=S&trick=2&cards=JK&suit=NT&go=1",
        "/trick?trump=S&trick=2&cards=JK&go=1",
        "/trick?go=1",
        "/trick?trump=S&trick=2&cards=HA,HK,HQ,HJ,H10,H9",
    ):
        response = client.get(query)
        assert response.status_code in (200, 422), query
        if response.status_code == 422:
            assert 'class="error"' in response.get_data(as_text=True), query


def test_taps_without_javascript_add_and_undo(client):
    added = client.get("/trick?trump=S&trick=2&cards=JK&suit=D&add=DK")
    assert added.status_code == 200
    assert 'value="JK,DK"' in added.get_data(as_text=True)
    assert "So far" in verdict(added) and "The joker (조커)" in verdict(added)
    undone = client.get("/trick?trump=S&trick=2&cards=JK,DK&suit=D&undo=1")
    assert 'value="JK"' in undone.get_data(as_text=True)
    # a led joker waits for its suit until the trick is asked for
    waiting = client.get("/trick?trump=S&trick=2&cards=JK")
    assert waiting.status_code == 200 and 'class="error"' not in waiting.get_data(True)


def test_from_a_session_the_plays_have_names_in_seat_order(client, api):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    session_page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'href="/sessions/{sid}/trick"' in session_page
    response = client.get(f"/sessions/{sid}/trick{DEAD_JOKER[6:]}&leader=Cy")
    assert response.status_code == 200
    box = verdict(response)
    assert "3rd play" in box and "Eve" in box  # Cy leads, Dee, then Eve plays the HK
    dixit = api.create(players=["Ann", "Ben", "Cy"], game="dixit")["id"]
    assert client.get(f"/sessions/{dixit}/trick").status_code == 404


def test_a_hand_with_tricks_shows_them_in_the_history(app):
    tricks = [
        {
            "number": 1,
            "leader": "Ann",
            "winner": "Ben",
            "reason": "lead",
            "points": ["HK", "HA"],
            "card": "HA",
            "plays": [],
        },
        {
            "number": 2,
            "leader": "Ben",
            "winner": "Cy",
            "reason": "trump",
            "points": [],
            "card": "S2",
            "plays": [],
        },
    ]
    result = {
        "outcome": "ruling_win",
        "tricks": tricks,
        "deltas": {},
        "m": 1,
        "base": 1,
        "multipliers": [],
        "friend": "Cy",
    }
    played = SimpleNamespace(
        result=result,
        input={
            "contract": {"boss": "Ann", "bid": 13, "trump": "S"},
            "friend": {"card": "SK"},
            "opposition_points": 5,
        },
    )
    with app.test_request_context():
        page = render_template("mighty/summary.html", played=played, view=None)
    words = re.sub(r"</?bdi>", "", page)
    assert "Trick 1: Ann led, Ben took it, 2 point cards" in words
    assert "Trick 2: Ben led, Cy took it, 0 point cards" in words
