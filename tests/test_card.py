"""The result card (``/sessions/<id>/card``): each game's highlights from its stored results
(pure), the page with its standings, highlights and records that fell, and the card data
(``card-data``) that static/card.js draws, in the reader's language."""

from __future__ import annotations

import json
import re

import pytest

from refapp.extensions import db
from refapp.games import GAMES
from refapp.games.highlights import MOST_TOLD
from refapp.models import GameSession

from .conftest import shown, turn
from .test_players import session
from .test_stats import DALMUTI_HANDS, DIXIT_TURNS, FIVE, MIGHTY_HANDS, NO_TAX, out, results

FOUR = ("Ann", "Ben", "Cy", "Dee")
CARD_KEYS = {"file", "title", "subtitle", "rows", "facts", "footer", "text"}


def told(slug: str, players, inputs, rules=None) -> list[tuple[str, dict]]:
    """Return a game's highlights of the inputs played from its start, each template and values,
    read only from the result parts the game names (as the page reads them)."""
    book = GAMES[slug].highlights
    scored = results(slug, players, inputs, rules)
    parts = [{key: r[key] for key in book.keys if r.get(key) is not None} for r in scored]
    return [(template, dict(values)) for template, values in book.find(enumerate(parts, 1))]


def filled(sentences: list[tuple[str, dict]]) -> list[str]:
    """Return the sentences in English, as the rules fill them."""
    return [template.format(**values) for template, values in sentences]


def test_mighty_highlights_are_the_biggest_hand_the_highest_contract_made_and_the_run():
    # hand 6: Eve 16 no-trump with Ann, opposition 0: a run, Eve +48, the night's biggest hand
    # made contracts: Cy 15 (hand 1), Ann 13 (critic, hand 5), Eve 16 (hand 6): Eve's is highest
    sentences = told("mighty", FIVE, MIGHTY_HANDS)
    assert filled(sentences) == [
        "The biggest hand: round 6, Eve +48.",
        "Eve made the highest contract of the night: 16 no-trump (round 6).",
        "A run in round 6: ['Eve', 'Ann'] took all 20 point cards.",
    ]
    assert sentences[2][1]["players"] == ["Eve", "Ann"]  # listed in words where shown


def test_mighty_tells_no_contract_when_none_was_made_and_at_most_three_runs():
    lost = [MIGHTY_HANDS[1], MIGHTY_HANDS[2], MIGHTY_HANDS[3]]  # a back-run, a misdeal, all pass
    assert [t for t, _v in told("mighty", FIVE, lost)] == [
        "The biggest hand: round {round}, {player} {points}."
    ]
    runs = told("mighty", FIVE, [MIGHTY_HANDS[5]] * 5)
    assert [v["round"] for t, v in runs if t.startswith("A run")] == [1, 2, 3][:MOST_TOLD]


def test_dalmuti_highlights_are_the_revolutions_and_the_longest_greater_dalmuti_run():
    assert filled(told("dalmuti", FIVE, DALMUTI_HANDS, NO_TAX)) == [
        "Dee declared a greater revolution in hand 2.",
        "Cy declared a revolution in hand 3.",
    ]  # Ann, Dee, Ann held the seat: no run of two
    # Ann finishes first every hand and keeps the Greater Dalmuti's seat through hand 4
    kept = [out("Ann Ben Cy Dee Eve")] * 4
    assert filled(told("dalmuti", FIVE, kept, NO_TAX)) == [
        "Ann held the Greater Dalmuti's seat 4 hands in a row (hands 1 to 4).",
    ]


def test_dixit_highlights_are_the_storyteller_nobody_found_and_the_best_turn():
    # turn 3: nobody found Cy's card; turn 4: Ann +5, the most one player scored in a turn
    assert filled(told("dixit", FOUR, DIXIT_TURNS)) == [
        "Nobody found Cy's card in turn 3.",
        "The best turn: Ann +5 in turn 4.",
    ]
    unfound = [nobody_found(teller) for teller in ("Cy", "Dee", "Ann", "Ben", "Cy")]
    found = told("dixit", FOUR, unfound)
    nobody = [v["storyteller"] for t, v in found if t.startswith("Nobody found {storyteller}")]
    assert nobody == ["Cy", "Dee", "Ann"]
    assert ("Nobody found the storyteller's card in {count} more turns.", {"count": 2}) in found


def nobody_found(storyteller: str) -> dict:
    """Return a four-player turn nobody found: each voter votes for the next voter's card."""
    voters = [name for name in FOUR if name != storyteller]
    votes = {voter: 2 + (index + 1) % 3 for index, voter in enumerate(voters)}
    return {"storyteller": storyteller, "positions": [storyteller, *voters], "votes": votes}


def card_of(client, sid: int, language: str = "en") -> tuple[str, dict]:
    """Return the card page's HTML (names without <bdi>) and its card data."""
    client.set_cookie("lang", language)
    response = client.get(f"/sessions/{sid}/card")
    assert response.status_code == 200
    html = shown(response)
    found = re.search(r'<script type="application/json" id="card-data">(.*?)</script>', html, re.S)
    assert found, "the page embeds its card data"
    data = json.loads(found.group(1))
    assert set(data) == CARD_KEYS
    return html, data


def test_a_finished_mighty_night_as_a_card(api, client, clock):
    sid = session(api, "mighty", FIVE, MIGHTY_HANDS, finish=True)
    html, data = card_of(client, sid)
    # totals Ann -45, Ben -16, Cy 3, Dee -2, Eve 60: Eve wins
    assert [(r["place"], r["name"], r["value"], r["winner"]) for r in data["rows"]] == [
        ("1", "Eve", "60", True),
        ("2", "Cy", "3", False),
        ("3", "Dee", "-2", False),
        ("4", "Ben", "-16", False),
        ("5", "Ann", "-45", False),
    ]
    assert data["title"] == "Mighty"
    assert data["file"] == f"refapp-mighty-{sid}-2026-11-06.png"
    assert "November 6, 2026" in data["subtitle"]
    assert "Preset " in data["subtitle"]
    assert data["facts"][:3] == [
        "The biggest hand: round 6, Eve +48.",
        "Eve made the highest contract of the night: 16 no-trump (round 6).",
        "A run in round 6: Eve and Ann took all 20 point cards.",
    ]
    # the first session of the history: every record it set stands
    assert data["facts"][3:] == [
        "New record: Highest final total, 60 by Eve",
        "New record: Best round, 48 by Eve (round 6)",
        "New record: Worst round, -64 by Ann (round 2)",
        "New record: Highest contract made, 16 by Eve (round 6)",
        "New record: Longest win streak, 1 by Eve",
    ]
    assert data["footer"] == f"refapp · session {sid} · 7 rounds"
    lines = data["text"].splitlines()
    assert lines[0] == "Mighty"
    assert "1. Eve 60 🏆" in lines and "5. Ann -45" in lines
    assert "• The biggest hand: round 6, Eve +48." in lines
    assert lines[-1] == data["footer"]
    # the page says the same: the rows, the highlights, the two buttons and the script
    assert html.count('<li class="result-row') == 5
    assert "The biggest hand: round 6, Eve +48." in html
    assert "data-share-card" in html and "data-copy-card-text" in html
    assert "/static/card.js" in html
    # a link to the page pasted into a chat previews the night
    assert '<meta property="og:title" content="Mighty · November 6, 2026' in html
    preview = re.search(r'<meta property="og:description" content="([^"]*)"', html)
    assert preview and "1. Eve 60 🏆 2. Cy 3" in preview.group(1), preview


def test_a_session_in_play_marks_no_winner_and_tells_no_records(api, client):
    sid = session(api, "dixit", FOUR, DIXIT_TURNS)  # not finished: still being played
    _html, data = card_of(client, sid)
    assert [r["winner"] for r in data["rows"]] == [False] * 4
    first = data["rows"][0]
    assert (first["place"], first["name"]) == ("1", "Ann")  # 13 points
    assert data["facts"] == [
        "Nobody found Cy's card in turn 3.",
        "The best turn: Ann +5 in turn 4.",
    ]


def test_a_session_without_rounds_has_a_card_of_its_seats(api, client):
    sid = api.create(players=list(FIVE), game="dalmuti")["id"]
    _html, data = card_of(client, sid)
    assert [r["name"] for r in data["rows"]] == list(FIVE)  # all tied on 0, in seat order
    assert {r["place"] for r in data["rows"]} == {"1"}
    assert data["facts"] == []


def test_a_tie_for_first_makes_every_leader_a_winner(api, client):
    sid = session(api, "dixit", FOUR, [turn("Ann")], finish=True)  # all found: 0 2 2 2
    _html, data = card_of(client, sid)
    assert [(r["place"], r["name"], r["winner"]) for r in data["rows"]] == [
        ("1", "Ben", True),
        ("1", "Cy", True),
        ("1", "Dee", True),
        ("4", "Ann", False),
    ]


@pytest.mark.parametrize(
    ("language", "title", "words"),
    [
        ("ko", "마이티", "가장 큰 판"),
        ("hu", "Mighty", "A legnagyobb leosztás"),
    ],
)
def test_the_card_speaks_the_readers_language(api, client, language, title, words):
    sid = session(api, "mighty", ["민준", "Ben", "서연", "Dee", "Ödön"], [], finish=False)
    api.record(sid, {**MIGHTY_HANDS[5], "contract": {"boss": "Ödön", "bid": 16, "trump": "NT"},
                     "friend": {"card": "DA", "player": "민준"}})  # fmt: skip
    _html, data = card_of(client, sid, language)
    assert data["title"] == title
    assert any(words in fact for fact in data["facts"]), data["facts"]
    assert "Ödön" in data["text"] and "민준" in data["text"]
    assert not re.search(r"The biggest|Preset|Playing time|session", json.dumps(data))


def test_the_card_shows_the_location_when_the_session_has_one(app, api, client):
    if not hasattr(GameSession, "location"):
        pytest.skip("sessions carry no location yet")
    sid = session(api, "dixit", FOUR, DIXIT_TURNS, finish=True)
    with app.app_context():
        db.session.get(GameSession, sid).location = "Café Körte"
        db.session.commit()
    _html, data = card_of(client, sid)
    assert "Café Körte" in data["subtitle"]
    assert "Café Körte" in data["text"]


def test_the_card_says_how_long_the_night_was_played(api, client, clock):
    sid = api.create(players=list(FOUR), game="dixit")["id"]
    for number, teller in enumerate(FOUR):
        if number:
            clock.advance(minutes=25)
        assert api.record(sid, turn(teller)).status_code == 201
    _html, data = card_of(client, sid)
    assert "Playing time: 1 h 15 min" in data["subtitle"]  # three gaps of 25 minutes
    assert "Playing time: 1 h 15 min" in data["text"]


def test_an_unknown_session_has_no_card(client):
    assert client.get("/sessions/999/card").status_code == 404


@pytest.mark.parametrize(
    ("hour", "night", "written"),
    [
        (19, "2026-11-06", "November 6, 2026"),
        (1, "2026-11-06", "November 6, 2026"),
        (6, "2026-11-07", "November 7, 2026"),
    ],
)
def test_the_card_dates_a_session_by_its_night_as_the_review_does(
    api, client, clock, hour, night, written
):
    # begun at 01:00 the morning after, it is still the night of November 6; from 06:00 on,
    # the next one's
    clock.now = clock.now.replace(day=6 if hour >= 19 else 7, hour=hour)
    sid = api.create(players=list(FOUR), game="dixit")["id"]
    assert api.record(sid, turn("Ann")).status_code == 201
    _html, data = card_of(client, sid)
    assert data["file"] == f"refapp-dixit-{sid}-{night}.png"
    assert written in data["subtitle"]
