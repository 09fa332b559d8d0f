"""The session page's <main> that phones fetch after every change is rendered once per version
and kept: the same page as a fresh render, with each reader's own CSRF token."""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from refapp import services
from refapp.extensions import db
from refapp.web import live_main

from .conftest import SEED_TURN, turn
from .test_access import sign_in

LIVE = {"X-Refapp-Live": "1"}
TOKEN = re.compile(r'(name="csrf_token" type="hidden" value=")([^"]*)(")')


def tokens(html: str) -> list[str]:
    """Return every CSRF token a page carries."""
    return [found[1] for found in TOKEN.findall(html)]


def without_tokens(html: str) -> str:
    """Return a page with its CSRF tokens blanked (they are each reader's own)."""
    return TOKEN.sub(r"\1\3", html)


def started(app, rounds: int = 1) -> int:
    """Start a Dixit session of four with ``rounds`` rounds; return its id."""
    with app.app_context():
        seats = {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
        sid = services.create_session(seats | {"rules": {"target_score": 1000}}).id
        for number in range(rounds):
            services.record_round(sid, turn(("Ann", "Ben", "Cy", "Dee")[number % 4]))
        db.session.remove()
    return sid


def fetched(app, client, path: str, keep: bool) -> str:
    """Fetch a page's <main> as a phone does, kept pages on or off."""
    app.config[live_main.SWITCH] = keep
    response = client.get(path, headers=LIVE)
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
@pytest.mark.parametrize("signed_in", [True, False])
def test_a_kept_page_is_the_fresh_page_with_the_readers_own_token(guarded, language, signed_in):
    sid = started(guarded)
    client = guarded.test_client()
    client.get(f"/language/{language}")
    if signed_in:
        assert sign_in(client).status_code == 302
        client.get("/")  # where "Signed in" is said, once
    for path in (f"/sessions/{sid}", f"/sessions/{sid}?order=seats&just=1"):
        fresh = fetched(guarded, client, path, keep=False)
        first = fetched(guarded, client, path, keep=True)  # rendered and kept
        again = fetched(guarded, client, path, keep=True)  # from the kept page
        assert without_tokens(first) == without_tokens(fresh) == without_tokens(again)
        assert live_main.STAND_IN not in first + again
        assert (f'action="/sessions/{sid}/rounds"' in again) is signed_in
        assert len(set(tokens(again))) == (1 if signed_in else 0)


def test_each_reader_gets_a_token_that_records_a_round(guarded):
    sid = started(guarded)
    phones = [guarded.test_client() for _ in range(2)]
    pages = []
    for phone in phones:
        assert sign_in(phone).status_code == 302
        phone.get("/")
        pages.append(fetched(guarded, phone, f"/sessions/{sid}", keep=True))
    own = [tokens(page)[0] for page in pages]
    assert own[0] != own[1]
    with guarded.app_context():
        kept = list(live_main.pages(guarded))
    assert len(kept) == 1, "both phones read the one kept page"
    form = {"csrf_token": own[1], "expected_round": "2", "action": "record",
            "storyteller": "Ben", "pos_1": "Ben", "pos_2": "Ann", "pos_3": "Cy", "pos_4": "Dee",
            "vote_0": "1", "vote_2": "1", "vote_3": "1"}  # fmt: skip
    recorded = phones[1].post(f"/sessions/{sid}/rounds", data=form)
    assert recorded.status_code == 302, recorded.get_data(as_text=True)[:500]
    with guarded.app_context():
        assert services.load_session(sid, with_rounds=False).round_count == 2


def test_a_write_moves_the_page_on(app, client, api):
    sid = started(app)
    assert "Round 2" in fetched(app, client, f"/sessions/{sid}", keep=True)
    assert api.record(sid, SEED_TURN | {"storyteller": "Ben"} | turn("Ben")).status_code == 201
    page = fetched(app, client, f"/sessions/{sid}", keep=True)
    assert "Round 3" in page and "Round 2" not in page.split('id="history"')[0]


def test_a_message_to_show_once_is_shown_once_and_not_kept(app, client):
    sid = started(app)
    with client.session_transaction() as cookie:
        cookie["_flashes"] = [("message", "Round 1 recorded.")]
    assert "Round 1 recorded." in fetched(app, client, f"/sessions/{sid}", keep=True)
    assert "Round 1 recorded." not in fetched(app, client, f"/sessions/{sid}", keep=True)
    assert "Round 1 recorded." not in fetched(app, client, f"/sessions/{sid}", keep=True)


def test_a_kept_page_is_one_small_read(app, client, count_queries):
    sid = started(app, rounds=40)
    fetched(app, client, f"/sessions/{sid}", keep=True)
    with count_queries() as counted:
        fetched(app, client, f"/sessions/{sid}", keep=True)
    assert (counted.count, counted.rows) == (1, 1)


def test_no_page_is_kept_for_a_missing_session(app, client):
    app.config[live_main.SWITCH] = True
    assert client.get("/sessions/999", headers=LIVE).status_code == 404
    with app.app_context():
        assert list(live_main.pages(app)) == []


@pytest.mark.parametrize(
    "name",
    ["refapp-kept-page-token-0f6c1d", str(live_main.STAND_IN), "&lt;x&gt;"],
    ids=["old-stand-in", "stand-in", "escaped"],
)
def test_a_player_named_like_the_stand_in_keeps_their_name(guarded, name):
    with guarded.app_context():
        players = [name, "Ben", "Cy", "Dee"]
        sid = services.create_session({"game": "dixit", "players": players}).id
        services.record_round(sid, turn(name, players))
        db.session.remove()
    client = guarded.test_client()
    assert sign_in(client).status_code == 302
    client.get("/")
    fresh = fetched(guarded, client, f"/sessions/{sid}", keep=False)
    first = fetched(guarded, client, f"/sessions/{sid}", keep=True)
    again = fetched(guarded, client, f"/sessions/{sid}", keep=True)
    assert without_tokens(first) == without_tokens(fresh) == without_tokens(again)
    shown = escape(name)
    assert again.count(shown) == fresh.count(shown) >= 2  # the standings and the last round
    own = tokens(again)
    assert len(set(own)) == 1 and own[0] not in (name, shown)
    assert again.count(own[0]) == len(own)  # the token is in its fields, nowhere else
    assert str(live_main.STAND_IN) not in again
