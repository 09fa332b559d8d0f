"""Send to BG Stats: the session page's link decoded, every field checked against the session."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from refapp.extensions import db
from refapp.models import GameSession
from refapp.services.bgstats import play_link

from .conftest import SEED_TURN, turn
from .test_archive import dalmuti_session, mighty_session

LINK = re.compile(r'<a class="button secondary" href="([^"]+)"[^>]*data-bgstats')


def page_link(client, session_id: int) -> str | None:
    """Return the "Send to BG Stats" link the session page offers (None when there is none)."""
    response = client.get(f"/sessions/{session_id}")
    assert response.status_code == 200
    found = LINK.search(response.get_data(as_text=True))
    return html.unescape(found.group(1)) if found else None


def decoded(link: str) -> dict:
    """Return the play a BG Stats link carries."""
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def set_times(app, session_id: int, began: datetime, seconds: int) -> None:
    """Store when a session's first round was played and its playing time (a new version)."""
    with app.app_context():
        session = db.session.get(GameSession, session_id)
        session.first_round_at = began
        session.played_seconds = seconds
        session.version += 1
        db.session.commit()


def test_a_finished_dixit_session_sends_every_field(api, client, app):
    sid = api.create(location=" Ann's  flat ", name="Friday")["id"]
    for body in (SEED_TURN, turn("Ben")):
        assert api.record(sid, body).status_code == 201
    assert page_link(client, sid) is None  # not over yet
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    set_times(app, sid, datetime(2026, 11, 27, 20, 5, 9, tzinfo=UTC), 5430)
    session = api.session(sid)
    play = decoded(page_link(client, sid))
    assert play == {
        "sourceName": "refapp",
        "sourcePlayId": str(sid),
        "playDate": "2026-11-27 20:05:09",
        "durationMin": 90,
        "location": "Ann's flat",
        "game": {
            "name": "Dixit",
            "sourceGameId": "dixit",
            "highestWins": True,
            "noPoints": False,
            "bggId": 39856,
        },
        "players": play["players"],
    }
    with app.app_context():
        ids = {
            seat.player.name: str(seat.player_id) for seat in db.session.get(GameSession, sid).seats
        }
    totals = session["totals"]
    assert [player["name"] for player in play["players"]] == session["players"]
    for player in play["players"]:
        name = player["name"]
        rank = 1 + sum(1 for other in totals.values() if other > totals[name])
        assert player == {
            "name": name,
            "sourcePlayerId": ids[name],
            "score": totals[name],
            "rank": rank,
            "winner": name in session["winners"],
            "startPlayer": False,
            "role": "",
        }
    assert sum(player["winner"] for player in play["players"]) == len(session["winners"]) >= 1


def test_mighty_has_no_bgg_id_and_no_location_when_none(api, client):
    session = mighty_session(api)
    play = decoded(page_link(client, session["id"]))
    assert "location" not in play
    assert play["game"] == {
        "name": "Mighty",
        "sourceGameId": "mighty",
        "highestWins": True,
        "noPoints": False,
    }
    assert {p["name"]: p["score"] for p in play["players"]} == session["totals"]
    assert [p["name"] for p in play["players"] if p["winner"]] == session["winners"]


def test_dalmuti_ended_by_its_rules_sends_its_bgg_id_and_places(api, client):
    session = dalmuti_session(api)
    assert session["finished"] and session["finished_by"] == "game"
    play = decoded(page_link(client, session["id"]))
    assert play["game"]["name"] == "The Great Dalmuti" and play["game"]["bggId"] == 929
    ranks = sorted(p["rank"] for p in play["players"])
    assert ranks[0] == 1 and all(p["winner"] == (p["rank"] == 1) for p in play["players"])


def test_a_counted_session_has_a_link_and_a_running_one_none(api, app):
    sid = api.create()["id"]
    empty = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    with app.app_context():
        session = db.session.get(GameSession, sid)
        assert play_link(session) is None  # running
        session.counted = True  # idle 12 hours: it counts, as the statistics say
        link = play_link(session)
        assert link is not None
        assert decoded(link)["players"][1] | {"sourcePlayerId": "x"} == {
            "name": "Ben",
            "sourcePlayerId": "x",
            "score": 4,
            "rank": 1,
            "winner": True,
            "startPlayer": False,
            "role": "",
        }
        nothing = db.session.get(GameSession, empty)
        nothing.finished = True
        assert play_link(nothing) is None  # no round played: nothing to send
        db.session.rollback()


def test_the_play_date_is_on_the_tables_clock(api, app):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    with app.app_context():
        session = db.session.get(GameSession, sid)
        session.finished = True
        session.first_round_at = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)
        link = play_link(session, 39856, ZoneInfo("Asia/Seoul"))
        assert decoded(link)["playDate"] == "2027-01-01 08:30:00"
        db.session.rollback()


def test_the_session_page_links_the_result_card(api, client):
    sid = api.create()["id"]
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'href="/sessions/{sid}/card"' in page
