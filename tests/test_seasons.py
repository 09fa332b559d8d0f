"""Seasons (docs/API.md, "Seasons"): an organizer names date ranges, and ``?season=`` on every
statistics route and page gives exactly what the season's ``from`` and ``to`` give."""

from __future__ import annotations

import re
import unicodedata

import pytest

from refapp import club
from refapp.extensions import db
from refapp.season_models import Season

from .conftest import Clock
from .test_statistics_filters import DAY_2, DAY_3, dixit

SPRING = {"from": DAY_2, "to": DAY_3}


@pytest.fixture
def days(api, client, clock: Clock) -> None:
    """Three evenings of Dixit (as test_statistics_filters' week): one session a day, two on
    the second, a running one on the third."""
    dixit(api, client, clock, "A")
    clock.advance(days=1)
    dixit(api, client, clock, "B")
    dixit(api, client, clock, "E", players=("Ann", "Ben", "Eve", "Fay"))
    clock.advance(days=1)
    dixit(api, client, clock, "AB")
    dixit(api, client, clock, "C", finish=False)


def put(client, name: str, body: object, **headers: str):
    """Send ``PUT /api/seasons/<name>``."""
    return client.put(f"/api/seasons/{name}", json=body, headers=headers)


def refusal(response) -> dict:
    """Return an API refusal's error object."""
    return response.get_json()["error"]


def test_a_season_is_named_moved_listed_and_forgotten(client):
    made = put(client, "Spring 2027", {"from": "2027-03-01", "to": "2027-05-31"})
    assert made.status_code == 201
    assert made.get_json() == {
        "season": {"name": "Spring 2027", "from": "2027-03-01", "to": "2027-05-31"}
    }
    put(client, "Winter 2026", {"from": "2026-12-01", "to": "2027-02-28"})
    moved = put(client, "Spring 2027", {"from": "2027-03-20", "to": "2027-06-20"})
    assert moved.status_code == 200
    assert moved.get_json()["season"]["from"] == "2027-03-20"
    assert client.get("/api/seasons").get_json() == {
        "seasons": [
            {"name": "Winter 2026", "from": "2026-12-01", "to": "2027-02-28"},
            {"name": "Spring 2027", "from": "2027-03-20", "to": "2027-06-20"},
        ]
    }
    assert client.delete("/api/seasons/Winter 2026").status_code == 204
    assert [s["name"] for s in client.get("/api/seasons").get_json()["seasons"]] == ["Spring 2027"]
    gone = client.delete("/api/seasons/Winter 2026")
    assert gone.status_code == 404 and refusal(gone)["code"] == "not_found"


def test_a_name_is_trimmed_and_nfc_as_a_players(app, client):
    decomposed = unicodedata.normalize("NFD", "  Été 2027 ")
    assert put(client, decomposed, {"from": "2027-06-21", "to": "2027-09-22"}).status_code == 201
    with app.app_context():
        assert db.session.query(Season.name, Season.group_id).all() == [("Été 2027", 1)]
    assert put(client, "Été 2027", {"from": "2027-06-21", "to": "2027-09-21"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "code", "field", "quoted"),
    [
        ({"from": "2027-02-30", "to": "2027-03-01"}, "invalid_value", "from", "'2027-02-30'"),
        ({"from": "2027-03-01", "to": "March"}, "invalid_value", "to", "'March'"),
        ({"from": "2027-03-02", "to": "2027-03-01"}, "invalid_value", "to", "'2027-03-01'"),
        ({"from": 20270301, "to": "2027-03-01"}, "invalid_value", "from", "20270301"),
        ({"from": "2027-03-01"}, "missing_field", "to", None),
        ({"from": "", "to": "2027-03-01"}, "missing_field", "from", None),
    ],
)
def test_bad_days_are_refused_naming_the_field(client, body, code, field, quoted):
    response = put(client, "Spring", body)
    assert response.status_code == 422
    error = refusal(response)
    assert (error["code"], error["field"]) == (code, field)
    if quoted:
        assert quoted in error["message"]
    assert client.get("/api/seasons").get_json() == {"seasons": []}


def test_a_bad_name_or_body_is_refused(client):
    long = put(client, "x" * 41, SPRING)
    assert (long.status_code, refusal(long)["field"]) == (422, "name")
    assert refusal(put(client, "   ", SPRING))["field"] == "name"
    not_json = client.put("/api/seasons/Spring", data="from=1", content_type="text/plain")
    assert refusal(not_json)["code"] == "invalid_json"


def test_only_the_organizer_names_or_forgets_a_season(client, monkeypatch):
    put(client, "Spring", SPRING)
    monkeypatch.setattr(club, "is_organizer", lambda: False)
    for response in (put(client, "Summer", SPRING), client.delete("/api/seasons/Spring")):
        assert response.status_code == 403
        assert refusal(response)["code"] == "organizer_required"
    assert client.get("/api/seasons").get_json()["seasons"][0]["name"] == "Spring"  # all read
    assert client.get("/seasons").status_code == 403
    assert client.post("/seasons", data={"name": "X"}).status_code == 403


def test_a_table_password_guards_seasons_as_every_write(guarded):
    client = guarded.test_client()
    response = put(client, "Spring", SPRING)
    assert (response.status_code, refusal(response)["code"]) == (401, "sign_in_required")
    assert client.get("/api/seasons").status_code == 200


# -- ?season= is its from and to -------------------------------------------------------------------


STATS_ROUTES = ["/api/stats", "/api/players/Ann/stats", "/api/player/stats?name=Ann"]


@pytest.mark.parametrize("route", STATS_ROUTES)
def test_a_season_gives_the_figures_of_its_days(client, days, route):
    put(client, "Spring", SPRING)
    joiner = "&" if "?" in route else "?"
    by_season = client.get(f"{route}{joiner}season=Spring&game=dixit")
    by_dates = client.get(f"{route}{joiner}from={DAY_2}&to={DAY_3}&game=dixit")
    assert by_season.status_code == by_dates.status_code == 200
    assert by_season.get_json() == by_dates.get_json()
    assert by_season.get_json() != client.get(route).get_json()  # the season narrows it


def test_an_unknown_season_or_one_with_dates_is_refused_naming_season(client, days):
    put(client, "Spring", SPRING)
    unknown = client.get("/api/stats?season=Autumn")
    assert unknown.status_code == 422
    assert refusal(unknown)["code"] == "invalid_value"
    assert refusal(unknown)["field"] == "season" and "'Autumn'" in refusal(unknown)["message"]
    both = client.get(f"/api/stats?season=Spring&from={DAY_2}")
    assert (both.status_code, refusal(both)["field"]) == (422, "season")
    assert client.get("/api/stats?season=").get_json() == client.get("/api/stats").get_json()


def section(html: str, ident: str) -> str:
    """Return a page's section of that id."""
    found = re.search(rf'<section[^>]*id="{ident}".*?</section>', html, re.S)
    assert found, ident
    return found.group(0)


def test_the_pages_offer_seasons_and_show_what_their_days_show(client, days):
    put(client, "Spring", SPRING)
    html = client.get("/stats?season=Spring").get_data(as_text=True)
    dated = client.get(f"/stats?from={DAY_2}&to={DAY_3}").get_data(as_text=True)
    assert 'aria-current="true">Spring</a>' in html
    assert html.split('id="period"')[1].count("chosen") == 1  # the season, not a period too
    assert html.split('<section class="card period"')[0].count("<table") == 0
    tables = re.findall(r"<table.*?</table>", html, re.S)
    assert tables and tables == re.findall(r"<table.*?</table>", dated, re.S)
    assert "/seasons" in html  # the organizer's way to name one
    player = client.get("/players/Ann?season=Spring").get_data(as_text=True)
    assert 'aria-current="true">Spring</a>' in player
    assert re.findall(r"<dl.*?</dl>", player, re.S) == re.findall(
        r"<dl.*?</dl>", client.get(f"/players/Ann?from={DAY_2}&to={DAY_3}").get_data(as_text=True),
        re.S,
    )  # fmt: skip
    refused = client.get("/stats?season=Autumn")
    assert refused.status_code == 422 and "There is no season" in refused.get_data(as_text=True)


def test_the_review_takes_a_season(client, days):
    put(client, "Spring", SPRING)
    html = client.get("/review?season=Spring").get_data(as_text=True)
    dated = client.get(f"/review?from={DAY_2}&to={DAY_3}").get_data(as_text=True)
    assert "<h1>The group&#39;s Spring in review</h1>" in html
    assert section(html, "review-figures") == section(dated, "review-figures")
    assert '<dd data-review="sessions">3</dd>' in html  # s2, s4 and s3; not s1 (day 1)
    assert 'aria-current="true">Spring</a>' in html
    mine = client.get("/players/Ann/review?season=Spring").get_data(as_text=True)
    assert section(mine, "review-figures") == section(
        client.get(f"/players/Ann/review?from={DAY_2}&to={DAY_3}").get_data(as_text=True),
        "review-figures",
    )
    refused = client.get("/review?season=Autumn")
    assert refused.status_code == 422


def test_the_seasons_page_names_and_forgets_a_season(client):
    page = client.get("/seasons")
    assert page.status_code == 200 and "No season yet." in page.get_data(as_text=True)
    saved = client.post("/seasons", data={"name": " Spring ", "first": DAY_2, "last": DAY_3})
    assert saved.status_code == 302
    assert client.get("/api/seasons").get_json()["seasons"] == [{"name": "Spring", **SPRING}]
    bad = client.post("/seasons", data={"name": "Late", "first": DAY_3, "last": DAY_2})
    assert bad.status_code == 422
    assert "The period cannot end on" in bad.get_data(as_text=True)
    listed = client.get("/seasons").get_data(as_text=True)
    assert 'href="/stats?season=Spring"' in listed and 'href="/review?season=Spring"' in listed
    assert client.post("/seasons/forget", data={"name": "Spring"}).status_code == 302
    assert client.get("/api/seasons").get_json() == {"seasons": []}
