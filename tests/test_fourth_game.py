"""A fourth game defined only in tests/coin_toss registers itself and gets everything a game gets.

Nothing outside its own folder names it: the API, the session page with its form, the history
of changes, the player's statistics, export and import, and the pages in English, Korean and
Hungarian (its own words falling back to English) all come from its one registration.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from refapp.games import GAMES, register
from refapp.web.game_pages import PAGES

from .coin_toss import GAME, CoinToss
from .conftest import make_test_app


@contextmanager
def registries_kept() -> Iterator[None]:
    """Restore the games' and pages' registries as they were, whatever the test added."""
    games, pages = dict(GAMES), dict(PAGES)
    try:
        yield
    finally:
        GAMES.clear()
        GAMES.update(games)
        PAGES.clear()
        PAGES.update(pages)


@pytest.fixture
def coin_toss() -> Iterator[None]:
    """Register the coin toss (before the app is made) and forget it when the test ends."""
    with registries_kept():
        register(GAME)
        yield


@pytest.fixture
def app(coin_toss, app):
    """The conftest's app, made with the coin toss registered."""
    return app


def toss(api, sid: int, winner: str):
    """Record one toss through the API."""
    return api.record(sid, {"winner": winner})


def test_the_registry_lists_it_after_the_three_and_forgets_it_after(app):
    assert list(GAMES) == ["dalmuti", "mighty", "dixit", "coin_toss"]
    assert "coin_toss" in PAGES


def test_the_api_referees_and_scores_it(api):
    sid = api.create(["Ann", "Ben"], game="coin_toss", rules={"stake": 3})["id"]
    answer = toss(api, sid, "Ben")
    assert answer.status_code == 201
    assert answer.get_json()["round"]["result"]["deltas"] == {"Ben": 3, "Ann": -3}
    assert api.session(sid)["totals"] == {"Ann": -3, "Ben": 3}
    refused = toss(api, sid, "Cy").get_json()["error"]
    assert (refused["code"], refused["field"]) == ("unknown_player", "winner")
    missing = api.record(sid, {}).get_json()["error"]
    assert (missing["code"], missing["field"]) == ("missing_field", "winner")
    three = api.client.post(
        "/api/sessions", json={"game": "coin_toss", "players": ["Ann", "Ben", "Cy"]}
    )
    assert three.get_json()["error"]["code"] == "bad_player_count"
    big = api.client.post(
        "/api/sessions", json={"game": "coin_toss", "players": ["A", "B"], "rules": {"stake": 11}}
    )
    assert big.get_json()["error"]["code"] == "invalid_rules"


def test_the_session_page_shows_its_form_and_records_a_toss(client, api):
    sid = api.create(["Ann", "Ben"], game="coin_toss")["id"]
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'name="winner"' in page and 'value="Ben"' in page
    posted = client.post(f"/sessions/{sid}/rounds", data={"winner": "Ann", "action": "record"})
    assert posted.status_code == 302
    assert api.session(sid)["totals"] == {"Ann": 1, "Ben": -1}
    page = client.get(posted.headers["Location"]).get_data(as_text=True)
    assert "Ann won the toss: +1." in page
    refused = client.post(f"/sessions/{sid}/rounds", data={"action": "record"})
    assert refused.status_code == 422
    assert api.session(sid)["totals"] == {"Ann": 1, "Ben": -1}


def test_the_new_session_page_offers_its_house_rule_under_its_topic(client):
    page = client.get("/sessions/new?game=coin_toss").get_data(as_text=True)
    assert "Stakes" in page and "Stake" in page and 'name="rule_stake"' in page
    index = client.get("/").get_data(as_text=True)
    assert "/sessions/new?game=coin_toss" in index


def test_a_correction_is_in_the_history_in_its_own_words(client, api):
    sid = api.create(["Ann", "Ben"], game="coin_toss")["id"]
    toss(api, sid, "Ann")
    corrected = client.put(f"/api/sessions/{sid}/rounds/1", json={"winner": "Ben"})
    assert corrected.status_code == 200
    assert api.session(sid)["totals"] == {"Ann": -1, "Ben": 1}
    history = client.get(f"/sessions/{sid}/changes").get_data(as_text=True)
    assert "Winner of the toss" in history


def test_the_player_page_counts_its_own_figures(client, api):
    sid = api.create(["Ann", "Ben"], game="coin_toss")["id"]
    for winner in ("Ann", "Ann", "Ben"):
        toss(api, sid, winner)
    page = client.get("/players/Ann").get_data(as_text=True)
    assert "Tosses won" in page
    assert '<dd data-figure="tosses_won">2</dd>' in page
    stats = client.get("/api/players/Ann").get_json()
    assert stats["games"]["coin_toss"]["tosses_won"] == 2


def test_it_exports_and_imports_whole(client, api):
    sid = api.create(["Ann", "Ben"], game="coin_toss", rules={"stake": 2})["id"]
    for winner in ("Ben", "Ann", "Ben"):
        toss(api, sid, winner)
    exported = client.get(f"/api/sessions/{sid}/export").get_json()
    imported = client.post("/api/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = api.session(imported.get_json()["id"])
    assert copy["totals"] == {"Ann": -2, "Ben": 2} == api.session(sid)["totals"]
    assert copy["rules"]["stake"] == 2


@pytest.mark.parametrize(
    ("language", "shared_word"), [("en", "Standings"), ("ko", "순위"), ("hu", "Állás")]
)
def test_every_language_shows_its_pages_with_its_words_in_english(
    client, api, language, shared_word
):
    sid = api.create(["Ann", "Ben"], game="coin_toss")["id"]
    toss(api, sid, "Ann")
    client.set_cookie("lang", language)
    for url in (
        f"/sessions/{sid}",
        f"/sessions/{sid}/changes",
        f"/sessions/{sid}/print",
        "/players/Ann",
        "/sessions/new?game=coin_toss",
    ):
        answer = client.get(url)
        assert answer.status_code == 200, url
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "Coin toss" in page and shared_word in page


def test_a_game_registered_without_pages_stops_the_app_by_name(tmp_path):
    class Pageless(CoinToss):
        """The coin toss under another slug, with no web package of its own."""

        slug = "pageless"

    with registries_kept():
        register(Pageless())
        with pytest.raises(LookupError, match="pageless"):
            make_test_app(f"sqlite:///{tmp_path / 'none.sqlite'}")
