"""What the server answers a kept entry: a stale one shows the round another phone recorded
beside it with two choices (Enter records nothing); a write whose CSRF token or sign-in lapsed
is answered so live.js keeps the entry (403 or the sign-in page, marked X-Refapp-Again), and
/signin answers live.js as JSON with a fresh token.
"""

from __future__ import annotations

import re

from refapp.models import Round

from .conftest import turn
from .test_web import count, new_session, shown, turn_form

LIVE = {"X-Refapp-Live": "1"}
JSON = {**LIVE, "Accept": "application/json"}
#: a first Mighty hand, recorded by another phone
MIGHTY_FIRST = {
    "dealer": "Ann",
    "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
    "friend": {"card": "JK", "player": "Cy"},
    "opposition_points": 3,
}


def side(page: str, name: str) -> str:
    """Return the text of one side of the stale choice."""
    found = re.search(rf'data-side="{name}">(.*?)(?:data-side=|<div class="buttons">)', page, re.S)
    assert found, page
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_a_stale_entry_shows_their_round_beside_it_and_two_choices(client, api, app):
    sid = new_session(client)
    api.record(sid, turn("Dee"))  # another phone: everyone found Dee's card
    response = client.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="1"))
    page = shown(response)
    assert response.status_code == 422
    theirs, mine = side(page, "theirs"), side(page, "mine")
    assert "round 1" in theirs and re.search(r"Ann\s*\+?2\b", theirs)
    assert re.search(r"Ben\s*\+?4\b", mine) and re.search(r"Ann\s*\+?3\b", mine)
    assert "Record mine as round 2" in page and "Discard mine" in page
    assert f'href="/sessions/{sid}" data-discard' in page
    form = page[page.index('id="round-form"') :]
    first_submit = re.search(r'<button type="submit"[^>]*>', form).group(0)
    assert "disabled" in first_submit  # Enter in a field presses it: nothing is sent
    assert re.search(r'name="expected_round"[^>]*value="2"', form)
    assert "autofocus" not in form[: form.index("data-record-mine") + 200]

    again = client.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="2"))
    assert again.status_code == 302 and count(app, Round) == 2


def test_a_stale_entry_the_rules_refuse_says_why_on_its_side(client, api):
    sid = new_session(client)
    api.record(sid, turn("Dee"))
    entry = turn_form(expected_round="1", votes={"Ben": "2"})  # Cy and Dee did not vote
    page = shown(client.post(f"/sessions/{sid}/rounds", data=entry))
    mine = side(page, "mine")
    assert mine.strip() and not re.search(r"[+−-]\d", mine), mine
    # beside the refusal, the entry itself in words, field by field
    assert re.search(r"Storyteller[^:]*:\s*Ann", mine), mine


def test_a_live_write_with_a_lapsed_token_is_kept_not_a_400_page(client, api, app):
    app.config["WTF_CSRF_ENABLED"] = True
    sid = api.create()["id"]
    data = turn_form(expected_round="1", csrf_token="from-an-expired-cookie")
    live = client.post(f"/sessions/{sid}/rounds", data=data, headers=LIVE)
    assert live.status_code == 403
    assert live.headers["X-Refapp-Again"] == "token"
    assert live.get_json()["error"]["code"] == "csrf"
    plain = client.post(f"/sessions/{sid}/rounds", data=data)
    assert plain.status_code == 400 and "<html" in plain.get_data(as_text=True)
    assert count(app, Round) == 0

    token = client.get("/signin", headers=JSON).get_json()
    assert token["password_needed"] is False
    data["csrf_token"] = token["csrf_token"]
    assert client.post(f"/sessions/{sid}/rounds", data=data, headers=LIVE).status_code == 302
    assert count(app, Round) == 1


def test_signing_in_again_in_place_then_sending_the_kept_round(client, api, app):
    app.config.update(PASSWORD="owl", WTF_CSRF_ENABLED=True)
    response = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]},
        headers={"X-Table-Password": "owl"},
    )
    sid = response.get_json()["id"]
    state = client.get("/signin", headers=JSON).get_json()
    assert state["password_needed"] is True
    kept = turn_form(expected_round="1", csrf_token=state["csrf_token"])
    lapsed = client.post(f"/sessions/{sid}/rounds", data=kept, headers=LIVE, follow_redirects=True)
    assert lapsed.headers.get("X-Refapp-Again") == "sign-in"
    assert count(app, Round) == 0

    wrong = client.post(
        "/signin", data={"password": "hawk", "csrf_token": state["csrf_token"]}, headers=JSON
    )
    assert wrong.status_code == 401
    assert wrong.get_json()["error"] == "That is not the table's password."
    right = client.post(
        "/signin", data={"password": "owl", "csrf_token": state["csrf_token"]}, headers=JSON
    )
    signed = right.get_json()
    assert right.status_code == 200 and signed["password_needed"] is False
    assert signed["csrf_token"] != state["csrf_token"]  # a sign-in starts a new session
    kept["csrf_token"] = signed["csrf_token"]
    sent = client.post(f"/sessions/{sid}/rounds", data=kept, headers=LIVE)
    assert sent.status_code == 302 and count(app, Round) == 1


def test_the_sign_in_page_without_script_is_unchanged(client, app):
    app.config.update(PASSWORD="owl")
    page = client.get("/signin")
    assert page.status_code == 200 and "X-Refapp-Again" not in page.headers
    assert 'type="password"' in page.get_data(as_text=True)
    wrong = client.post("/signin", data={"password": "hawk"})
    assert wrong.status_code == 401 and "<form" in wrong.get_data(as_text=True)


def test_a_kept_entry_takes_the_next_dealer_and_each_side_shows_its_whole_round(client, api, app):
    from .test_web_mighty import PLAYERS, hand_fields, selected

    sid = api.create(players=PLAYERS, game="mighty")["id"]
    assert api.record(sid, MIGHTY_FIRST).status_code == 201
    offered = selected(client.get(f"/sessions/{sid}").get_data(as_text=True), "dealer")
    assert offered == "Cy"  # this phone's form for round 2
    theirs = {
        "dealer": "Cy",
        "contract": {"boss": "Ben", "bid": 14, "trump": "S"},
        "friend": {"card": "SA", "player": "Dee"},
        "opposition_points": 5,
    }
    recorded = api.record(sid, theirs).get_json()  # another phone is first with round 2
    now = recorded["session"]["state"]["next_dealer"]
    assert now != "Cy"
    entry = {"action": "record", "dealer": "Cy", "expected_round": "2", **hand_fields()}
    response = client.post(f"/sessions/{sid}/rounds", data=entry)
    page = shown(response)
    assert response.status_code == 422 and 'id="stale"' in page
    assert selected(response.get_data(as_text=True), "dealer") == now  # the dealer moved on
    assert re.search(rf"Taken from the round recorded since:.*Cy → {now}", page, re.S), page
    mine, other = side(page, "mine"), side(page, "theirs")
    assert "deals this hand" not in mine and re.search(r"Ann\s*\+\d", mine)
    assert "Ann" in mine and "15" in mine  # the entry itself: boss, contract
    assert "Ben" in other and "14" in other and "Dee" in other  # their whole round
    again = {**entry, "dealer": now, "expected_round": "3"}
    assert client.post(f"/sessions/{sid}/rounds", data=again).status_code == 302
    assert count(app, Round) == 3


def test_a_kept_hand_without_its_points_says_what_recording_it_would_refuse(client, api, app):
    from .test_web_mighty import PLAYERS, hand_fields

    sid = api.create(players=PLAYERS, game="mighty")["id"]
    assert api.record(sid, MIGHTY_FIRST).status_code == 201  # another phone is first with round 1
    entry = {"action": "record", "expected_round": "1", **hand_fields()}
    entry.pop("opposition_points")  # a hand kept before its points were entered
    response = client.post(f"/sessions/{sid}/rounds", data=entry)
    page = shown(response)
    assert response.status_code == 422 and 'id="stale"' in page  # was a 500
    mine = side(page, "mine")
    assert not re.search(r"[+−-]\d", mine), mine  # no score for a hand not whole
    assert "points" in mine.lower(), mine  # what recording it would refuse
    assert count(app, Round) == 1
