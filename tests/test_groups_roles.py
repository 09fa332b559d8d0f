"""In a group with an organizer password, its seasons, public views and backup are the
organizer's: a player with the table password is refused ``403 organizer_required`` over the API
and on the pages, and the organizer is let through; one group's organizer is nobody in another."""

from __future__ import annotations

import pytest

from .groups_support import two_groups

SEASON = {"from": "2026-01-01", "to": "2026-03-31"}
#: organizer actions over the API: (method, path under the group's prefix, JSON body)
API_ACTIONS = [
    ("PUT", "/api/seasons/Winter", SEASON),
    ("DELETE", "/api/seasons/{season}", None),
    ("GET", "/api/public-views", None),
    ("POST", "/api/public-views", None),
    ("POST", "/api/sessions/{session}/public-view", None),
    ("DELETE", "/api/public-views/{view}", None),
    ("GET", "/api/backup", None),
]
#: organizer pages: (method, path under the group's prefix, form)
PAGE_ACTIONS = [
    ("GET", "/seasons", None),
    ("POST", "/seasons", {"name": "Winter", "first": "2026-01-01", "last": "2026-03-31"}),
    ("POST", "/seasons/forget", {"name": "{season}"}),
    ("GET", "/public-views", None),
    ("POST", "/public-views", {"session": "{session}"}),
    ("POST", "/public-views/{view}/revoke", None),
    ("GET", "/backup", None),
]


def filled(text: str, group) -> str:
    """Return a path or form value with the group's season, Dixit session and view put in."""
    return (
        text.replace("{season}", group.season)
        .replace("{session}", str(group.sessions["dixit"]))
        .replace("{view}", str(group.view_id))
    )


@pytest.mark.parametrize(("method", "path", "body"), API_ACTIONS)
def test_the_api_refuses_a_player_and_lets_the_organizer_through(app, client, method, path, body):
    alpha, beta = two_groups(app, client)
    url = alpha.prefix + filled(path, alpha)
    player = client.open(url, method=method, json=body, headers=alpha.headers(organizer=False))
    assert player.status_code == 403, player.get_data()
    assert player.get_json()["error"]["code"] == "organizer_required"
    stranger = client.open(url, method=method, json=body, headers=beta.headers())
    assert stranger.status_code == 403  # beta's organizer password is nothing in alpha
    organizer = client.open(url, method=method, json=body, headers=alpha.headers())
    assert organizer.status_code in (200, 201, 204), organizer.get_data()


@pytest.mark.parametrize(("method", "path", "form"), PAGE_ACTIONS)
def test_the_pages_refuse_a_player_and_let_the_organizer_through(app, client, method, path, form):
    alpha, _beta = two_groups(app, client)
    url = alpha.prefix + filled(path, alpha)
    data = {key: filled(value, alpha) for key, value in (form or {}).items()}
    signed = client.post(f"{alpha.prefix}/signin", data={"password": alpha.password})
    assert signed.status_code == 302
    assert client.open(url, method=method, data=data).status_code == 403
    client.post(f"{alpha.prefix}/signout")
    signed = client.post(f"{alpha.prefix}/signin", data={"password": alpha.organizer})
    assert signed.status_code == 302
    assert client.open(url, method=method, data=data).status_code in (200, 201, 302)
