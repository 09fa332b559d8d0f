"""The play log: each session's date, playing time, location and winner, filtered by location."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from refapp.extensions import db
from refapp.models import GameSession

from .conftest import SEED_TURN, shown, turn


def csrf(client, path: str) -> str:
    """Return the CSRF token a page's form carries."""
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    if found is None:
        found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    return found.group(1) if found else ""


def played(app, session_id: int, began: datetime, seconds: int) -> None:
    """Store when a session's first round was played and for how long."""
    with app.app_context():
        session = db.session.get(GameSession, session_id)
        session.first_round_at, session.played_seconds = began, seconds
        db.session.commit()


def test_each_row_shows_date_playing_time_location_and_winner(api, client, app):
    sid = api.create(location="Cafe Mokka")["id"]
    for body in (SEED_TURN, turn("Ben")):
        assert api.record(sid, body).status_code == 201
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    played(app, sid, datetime(2026, 11, 27, 20, 5, tzinfo=UTC), 2 * 3600 + 5 * 60)
    winners = api.session(sid)["winners"]
    row = client.get("/api/sessions").get_json()["sessions"][0]
    assert row["location"] == "Cafe Mokka"
    assert row["played_at"].startswith("2026-11-27T20:05")
    assert row["played_seconds"] == 7500 and row["winners"] == winners
    page = shown(client.get("/?lang=en", headers={"Accept-Language": "en"}))
    item = page.split('class="sessions"', 1)[1]
    assert "Cafe Mokka" in item
    assert "2 h 5 min" in item
    assert f"Won by {', '.join(winners)}" in item
    assert 'datetime="2026-11-27T20:05' in item


def test_a_session_counted_by_idleness_shows_its_winner(api, client, app):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    with app.app_context():
        db.session.get(GameSession, sid).counted = True
        db.session.commit()
    item = shown(client.get("/")).split('class="sessions"', 1)[1]
    assert "Won by Ben (4)" in item and "Leading" not in item


def test_filter_by_location_offers_the_locations_used(api, client):
    home = [api.create(location="Home")["id"] for _ in range(2)]
    club = api.create(location="Club Ütő")["id"]
    api.create()

    def ids(query: str) -> list[int]:
        answer = client.get(f"/api/sessions{query}").get_json()
        return sorted(s["id"] for s in answer["sessions"])

    assert ids("?location=Home") == home
    assert ids("?location=%20Club%20%20U%CC%88t%C5%91%20") == [club]  # trimmed, NFC
    assert ids("?location=Nowhere") == []
    page = shown(client.get("/"))
    choices = re.findall(
        r'<option value="([^"]*)"', page.split('id="f-location"', 1)[1].split("</select>")[0]
    )
    assert choices == ["", "Home", "Club Ütő"]  # anywhere, then the most used first
    narrowed = shown(client.get("/?location=Home"))
    assert '<option value="Home" selected>' in narrowed
    assert narrowed.count('class="place">Home<') == 2 and "Club Ütő</span>" not in narrowed


def test_a_location_too_long_in_the_filter_is_refused(client):
    response = client.get("/api/sessions?location=" + "x" * 61)
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "location"
    assert client.get("/?location=" + "x" * 61).status_code == 422


def test_new_session_form_takes_the_location(client, api):
    api.create(location="Home")
    form = client.get("/sessions/new?game=dixit").get_data(as_text=True)
    assert 'id="location"' in form and '<datalist id="known-locations">' in form
    assert '<option value="Home">' in form
    token = csrf(client, "/sessions/new?game=dixit")
    response = client.post(
        "/sessions/new?game=dixit",
        data={
            "csrf_token": token,
            "game": "dixit",
            "players": "Ann\nBen\nCy",
            "location": "  Ann's flat ",
            "preset": "classic",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    assert api.session(sid)["location"] == "Ann's flat"
    assert "Played at Ann&#39;s flat" in client.get(f"/sessions/{sid}").get_data(as_text=True)


def test_the_session_page_sets_and_clears_the_location(client, api):
    sid = api.create()["id"]
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'action="/sessions/{sid}/location"' in page
    token = csrf(client, f"/sessions/{sid}")
    done = client.post(f"/sessions/{sid}/location", data={"csrf_token": token, "location": "Club"})
    assert done.status_code == 302
    assert api.session(sid)["location"] == "Club"
    assert api.audit(sid)[-1]["action"] == "set_location"
    assert "Played at Club" in client.get(f"/sessions/{sid}").get_data(as_text=True)
    long = client.post(
        f"/sessions/{sid}/location", data={"csrf_token": token, "location": "x" * 61}
    )
    assert long.status_code == 302 and api.session(sid)["location"] == "Club"
    client.post(f"/sessions/{sid}/location", data={"csrf_token": token, "location": ""})
    assert api.session(sid)["location"] is None
