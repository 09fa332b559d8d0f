"""Public views (docs/API.md, "Public views"): a read-only link to a session's live scoreboard
or to the group's sessions and standings, made and revoked by the organizer, kept only as a
digest; the page has no write control and follows new rounds as the session page does."""

from __future__ import annotations

import hashlib
import re

import sqlalchemy as sa

from refapp import club
from refapp.extensions import db
from refapp.season_models import PublicView
from refapp.services import public_views

from .conftest import turn

PLAYERS = ("Ann", "Ben", "Cy", "Dee")
#: what would let a watcher change something: a form or any control of one
CONTROLS = re.compile(r"<(form|button|input|select|textarea)\b", re.I)


def made(client, path: str) -> dict:
    """Make a public view over the API and return it (asserting 201)."""
    response = client.post(path)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["public_view"]


def token_of(view: dict) -> str:
    """Return the token of a view's link."""
    return view["url"].rsplit("/view/", 1)[1]


def test_a_session_view_shows_the_scoreboard_and_no_write_control(api, client):
    sid = api.create()["id"]
    api.record(sid, turn("Ann"))
    view = made(client, f"/api/sessions/{sid}/public-view")
    assert view["session"] == sid and view["url"].startswith("http://localhost/view/")
    page = client.get(f"/view/{token_of(view)}")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    assert page.headers["Referrer-Policy"] == "no-referrer"
    html = page.get_data(as_text=True)
    assert "Dixit" in html and all(name in html for name in PLAYERS)
    assert re.findall(r"data-total>(-?\d+)<", html) == ["2", "2", "2", "0"]  # Ann told: 0
    assert "Round 1" in html
    assert CONTROLS.search(html) is None
    assert f"/sessions/{sid}" not in html and "/api/" not in html  # no way into the app
    assert 'href="/signin' not in html and "Sign out" not in html


def test_the_view_follows_a_new_round_as_the_session_page_does(api, client):
    sid = api.create()["id"]
    api.record(sid, turn("Ann"))
    token = token_of(made(client, f"/api/sessions/{sid}/public-view"))
    html = client.get(f"/view/{token}").get_data(as_text=True)
    version = api.session(sid)["version"]
    poll = f"/view/{token}/version"
    assert f'data-version="{version}" data-poll="{poll}"' in html  # live.js polls it
    asked = client.get(poll)
    assert asked.get_json() == {"version": str(version)}
    assert asked.headers["ETag"] == f'"{version}"'
    assert client.get(poll, headers={"If-None-Match": f'"{version}"'}).status_code == 304
    api.record(sid, turn("Ben"))
    moved = client.get(poll, headers={"If-None-Match": f'"{version}"'})
    assert moved.status_code == 200 and moved.get_json()["version"] != str(version)
    live = client.get(f"/view/{token}", headers={"X-Refapp-Live": "1"}).get_data(as_text=True)
    assert live.lstrip().startswith("<main")  # the part live.js swaps in
    assert "Round 2" in live
    assert re.findall(r"data-total>(-?\d+)<", live) == ["4", "4", "2", "2"]  # Cy, Dee


def test_a_revoked_link_answers_404(api, client):
    sid = api.create()["id"]
    view = made(client, f"/api/sessions/{sid}/public-view")
    token = token_of(view)
    listed = client.get("/api/public-views").get_json()["public_views"]
    assert [item["id"] for item in listed] == [view["id"]] and "url" not in listed[0]
    assert client.delete(f"/api/public-views/{view['id']}").status_code == 204
    assert client.get(f"/view/{token}").status_code == 404
    assert client.get(f"/view/{token}/version").status_code == 404
    again = client.delete(f"/api/public-views/{view['id']}")
    assert (again.status_code, again.get_json()["error"]["code"]) == (404, "not_found")
    assert client.get("/view/not-a-token").status_code == 404
    assert client.get("/view/" + "x" * 500).status_code == 404


def test_the_token_is_stored_only_as_its_digest(app, api, client):
    sid = api.create()["id"]
    token = token_of(made(client, f"/api/sessions/{sid}/public-view"))
    assert len(token) >= 32
    with app.app_context():
        rows = db.session.execute(sa.select(PublicView.__table__)).all()
    assert len(rows) == 1
    assert rows[0].digest == hashlib.sha256(token.encode()).hexdigest()
    assert all(token not in str(value) for value in rows[0])


def test_the_group_view_lists_sessions_and_standings_and_follows_them(api, client):
    sid = api.create()["id"]
    api.record(sid, turn("Ann"))
    client.post(f"/api/sessions/{sid}/finish")
    view = made(client, "/api/public-views")
    assert view["session"] is None
    token = token_of(view)
    html = client.get(f"/view/{token}").get_data(as_text=True)
    assert f'data-session="{sid}"' in html and 'id="group-standings"' in html
    assert CONTROLS.search(html) is None
    version = client.get(f"/view/{token}/version").get_json()["version"]
    other = api.create(players=("Eve", "Fay", "Gus", "Hal"))["id"]
    assert client.get(f"/view/{token}/version").get_json()["version"] != version
    assert f'data-session="{other}"' in client.get(f"/view/{token}").get_data(as_text=True)


def test_only_the_organizer_makes_lists_and_revokes_views(api, client, monkeypatch):
    sid = api.create()["id"]
    view = made(client, f"/api/sessions/{sid}/public-view")
    monkeypatch.setattr(club, "is_organizer", lambda: False)
    for response in (
        client.post(f"/api/sessions/{sid}/public-view"),
        client.post("/api/public-views"),
        client.get("/api/public-views"),
        client.delete(f"/api/public-views/{view['id']}"),
    ):
        assert response.status_code == 403
        assert response.get_json()["error"]["code"] == "organizer_required"
    assert client.get("/public-views").status_code == 403
    assert client.post("/public-views").status_code == 403
    assert client.get(f"/view/{token_of(view)}").status_code == 200  # watching needs no right


def test_a_view_of_no_session_is_refused(client):
    response = client.post("/api/sessions/999/public-view")
    assert (response.status_code, response.get_json()["error"]["code"]) == (404, "not_found")


def test_the_organizers_page_makes_shows_once_and_revokes(api, client):
    sid = api.create()["id"]
    page = client.get(f"/public-views?session={sid}").get_data(as_text=True)
    assert f"New link to session {sid}" in page and "No public view yet." in page
    response = client.post("/public-views", data={"session": str(sid)})
    assert response.status_code == 201
    html = response.get_data(as_text=True)
    url = re.search(r"data-view-url>([^<]+)<", html).group(1)
    assert "/view/" in url
    token = url.rsplit("/view/", 1)[1]
    assert client.get(f"/view/{token}").status_code == 200
    listed = client.get("/public-views").get_data(as_text=True)
    assert token not in listed and f"Session {sid}" in listed  # shown once, then never
    view_id = client.get("/api/public-views").get_json()["public_views"][0]["id"]
    assert client.post(f"/public-views/{view_id}/revoke").status_code == 302
    assert client.get(f"/view/{token}").status_code == 404
    session_page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'href="/public-views?session={sid}"' in session_page


def test_a_screen_watches_without_the_table_password(guarded):
    with guarded.app_context():
        _view, token = public_views.make_view(1, None)
    client = guarded.test_client()
    page = client.get(f"/view/{token}")
    assert page.status_code == 200  # no sign-in asked
    assert CONTROLS.search(page.get_data(as_text=True)) is None  # not even a sign-in form
    assert client.get(f"/view/{token}/version").status_code == 200
    refused = client.post("/api/public-views")
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (401, "sign_in_required")
