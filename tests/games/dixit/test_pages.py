"""Dixit's newer house rules on the pages: the new-session form, the status, How we score."""

from __future__ import annotations

import re

from refapp.extensions import db
from refapp.models import GameSession

from ...conftest import shown

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def turn(players: list[str], teller: str) -> dict:
    """Return a turn in which every voter finds the storyteller's card at position 1."""
    others = [p for p in players if p != teller]
    votes = dict.fromkeys(others, 1)
    return {"storyteller": teller, "positions": [teller, *others], "votes": votes}


def test_the_new_session_form_offers_every_dixit_rule(client):
    page = shown(client.get("/sessions/new?game=dixit"))
    for name in ("end_after_rounds", "large_table", "target_score", "deck_exhausted"):
        assert f'name="rule_{name}"' in page, name
    for words in ("Rounds of storytellers to play", "Large table (two boxes)", "Players and cards"):
        assert words in page, words


def test_the_form_starts_a_large_table_with_rounds_to_play(client, app):
    data = {
        "game": "dixit",
        "players": "\n".join(f"P{i}" for i in range(1, 11)),
        "rule_target_score": "",
        "rule_end_after_rounds": "2",
        "rule_large_table": "y",
        "rule_deck_exhausted": "reshuffle",
    }
    response = client.post("/sessions/new?game=dixit", data=data)
    assert response.status_code == 302, shown(response)[:2000]
    with app.app_context():
        stored = db.session.query(GameSession).order_by(GameSession.id.desc()).first()
        assert stored.rules["large_table"] is True and stored.rules["end_after_rounds"] == 2
        assert stored.rules["target_score"] is None


def test_no_target_without_rounds_is_refused_on_the_form_in_words(client):
    data = {"game": "dixit", "players": "\n".join(FOUR), "rule_target_score": ""}
    page = shown(client.post("/sessions/new?game=dixit", data=data))
    assert "may be none only with" in page and "Rounds of storytellers to play" in page


def test_the_status_counts_turns_left_then_says_why_the_game_ended(api, client):
    sid = api.create(FOUR, rules={"end_after_rounds": 1})["id"]
    assert api.session(sid)["state"]["turns_left"] == 4
    for teller in FOUR[:3]:
        assert api.record(sid, turn(FOUR, teller)).status_code == 201
    page = re.sub(r"\s+", " ", shown(client.get(f"/sessions/{sid}")))
    assert "Turns left" in page and "1 at most (full rounds of storytellers played: 0)" in page
    assert api.record(sid, turn(FOUR, "Dee")).status_code == 201
    session = api.session(sid)
    assert session["finished"] is True and session["state"]["end_reasons"] == ["end_after_rounds"]
    page = re.sub(r"\s+", " ", shown(client.get(f"/sessions/{sid}")))
    assert "Why the game ended" in page and "the last round of storytellers was played" in page
    assert "Turns left" not in page


def test_how_we_score_says_the_tables_ends(api, client):
    sid = api.create(FOUR, rules={"deck_exhausted": "end", "end_after_rounds": 2})["id"]
    page = re.sub(r"\s+", " ", shown(client.get(f"/sessions/{sid}/how-we-score")))
    assert "turn 8 at this table" in page and "turn 15 at this table" in page
    assert "Players and cards" in page and "this table has 4" in page
