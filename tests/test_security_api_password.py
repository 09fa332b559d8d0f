"""The API takes the table password only from its header: the pages' cookie never writes."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .conftest import SEED_TURN
from .test_access import sign_in

OWL = {"X-Table-Password": "owl"}
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture
def table(app):
    """Return the test app with the table password 'owl' and CSRF on, as in production."""
    app.config.update(PASSWORD="owl", WTF_CSRF_ENABLED=True)
    return app


def start(client) -> int:
    """Create a Dixit session with the password and return its id."""
    created = client.post("/api/sessions", json={"game": "dixit", "players": PLAYERS}, headers=OWL)
    assert created.status_code == 201
    return created.get_json()["id"]


def refused(response) -> bool:
    """Return True for the API's 401 sign_in_required."""
    body = response.get_json() or {}
    return response.status_code == 401 and body["error"]["code"] == "sign_in_required"


def test_the_sign_in_cookie_alone_writes_nothing_through_the_api(table):
    client = table.test_client()
    sid = start(client)
    client.post(f"/api/sessions/{sid}/rounds", json=SEED_TURN, headers=OWL)
    assert sign_in(client).status_code == 302
    # what a page on another port of this host can send with the cookie, and more
    assert refused(client.post(f"/api/sessions/{sid}/finish"))
    assert refused(client.post(f"/api/sessions/{sid}/rounds", json=SEED_TURN))
    assert refused(client.put(f"/api/sessions/{sid}/rounds/1", json=SEED_TURN))
    assert refused(client.delete(f"/api/sessions/{sid}/rounds/1"))
    assert refused(client.post("/api/sessions", json={"game": "dixit", "players": PLAYERS}))
    assert refused(client.post("/api/players/Ann/rename", json={"name": "Zoe"}))
    session = client.get(f"/api/sessions/{sid}").get_json()
    assert not session["finished"] and len(session["rounds"]) == 1
    assert session["players"] == PLAYERS
    assert client.post(f"/api/sessions/{sid}/finish", headers=OWL).status_code == 200


def test_reads_dry_runs_and_trick_checks_need_no_password(table):
    client = table.test_client()
    sid = start(client)
    assert client.get("/api/sessions").status_code == 200
    assert client.get(f"/api/sessions/{sid}").status_code == 200
    for flag in ("1", "true", "yes"):
        checked = client.post(f"/api/sessions/{sid}/rounds?dry_run={flag}", json=SEED_TURN)
        assert checked.status_code == 200, flag
    assert client.get(f"/api/sessions/{sid}").get_json()["rounds"] == []
    assert client.post("/api/mighty/trick", json={}).status_code != 401


@pytest.mark.parametrize(
    "method, path",
    [
        ("post", "/api/sessions/{sid}/rounds?dry_run=0"),
        ("post", "/api/sessions/{sid}/rounds?dry_run="),
        ("post", "/api/sessions?dry_run=1"),
        ("post", "/api/sessions/{sid}/finish?dry_run=1"),
        ("put", "/api/sessions/{sid}/rounds/1?dry_run=1"),
        ("delete", "/api/sessions/{sid}/rounds/1?dry_run=1"),
        ("post", "/api/mighty/trick/../../sessions/{sid}/finish"),
    ],
)
def test_a_dry_run_flag_on_other_writes_still_needs_the_password(table, method, path):
    client = table.test_client()
    sid = start(client)
    response = client.open(path.format(sid=sid), method=method, json=SEED_TURN)
    assert refused(response) or response.status_code == 404
    assert not client.get(f"/api/sessions/{sid}").get_json()["finished"]


@pytest.mark.parametrize("password", ["테스트", "Jelszó ő", "50%off", "%41"])
def test_a_password_that_is_not_ascii_is_sent_percent_encoded(table, password):
    table.config["PASSWORD"] = password
    client = table.test_client()
    body = {"game": "dixit", "players": PLAYERS}
    encoded = {"X-Table-Password": quote(password, safe="")}
    assert client.post("/api/sessions", json=body, headers=encoded).status_code == 201
    if password.isascii():
        raw = {"X-Table-Password": password}
        assert client.post("/api/sessions", json=body, headers=raw).status_code == 201
    else:
        # the UTF-8 bytes sent as they are (curl -H) arrive as Latin-1 text
        raw = {"X-Table-Password": password.encode().decode("latin-1")}
        assert client.post("/api/sessions", json=body, headers=raw).status_code == 201


@pytest.mark.parametrize("header", ["%ED%85", "%", "%zz", "테", "owl ", "OWL", "%6Fwl%"])
def test_a_wrong_or_broken_header_is_refused_plainly(table, header):
    client = table.test_client()
    response = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": PLAYERS},
        headers={"X-Table-Password": header.encode().decode("latin-1")},
    )
    assert refused(response)
