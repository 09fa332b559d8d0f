"""The year in review: the group's (/review) and a player's (/players/<name>/review), for a year
or a from-to period - nights (a round after midnight belongs to the evening before), sessions,
hours, wins, the longest streak, the games and people played with most, nemesis, partner, the
one-sided pair, the records set and the best night - each as the statistics count it; its card
data; a refused year beside its field; the same statements however many sessions."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from refapp.services.review import group_review, player_review
from refapp.services.statistics import Query, player_stats

from .conftest import shown
from .test_players import session
from .test_statistics import FOUR, dixit
from .test_stats import FIVE, MIGHTY_HANDS

#: the seats of a Dixit session in which Cy alone never tells in three turns
CY_LAST = ("Dee", "Ann", "Ben", "Cy")
#: 2026's nights: (evening, each session's Dixit tellers and seats); every card is found, so
#: the teller scores 0 and the others 2: "ABC" leaves Dee first, "DAB" at CY_LAST Cy
NIGHTS = [
    (datetime(2026, 11, 6, 19, 0, tzinfo=UTC), [("ABC", FOUR), ("DAB", CY_LAST)]),
    (datetime(2026, 11, 20, 20, 0, tzinfo=UTC), [("ABC", FOUR)]),
    (datetime(2026, 12, 1, 20, 0, tzinfo=UTC), [("ABC", FOUR)]),
]


def year(api, client, clock) -> list[int]:
    """Store 2025's Mighty session and one Dixit session (Ann first), then 2026's nights: the
    second session of the first night ends after midnight UTC. Return 2026's session ids."""
    clock.now = datetime(2025, 12, 30, 19, 0, tzinfo=UTC)
    session(api, "mighty", FIVE, MIGHTY_HANDS, finish=True)
    finish(client, dixit(api, clock, "BCD"))
    ids = []
    for evening, tables in NIGHTS:
        clock.now = evening
        for tellers, seats in tables:
            ids.append(finish(client, dixit(api, clock, tellers, players=seats)))
            clock.now = datetime(2026, 11, 7, 0, 50, tzinfo=UTC)  # the next: past midnight
    clock.now = datetime(2026, 12, 7, 0, 30, tzinfo=UTC)
    return ids


def finish(client, sid: int) -> int:
    """Finish a session (so it counts); return its id."""
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    return sid


def of_year(number: int) -> Query:
    return Query.of({"from": f"{number}-01-01", "to": f"{number}-12-31"})


def test_the_group_review_counts_nights_sessions_wins_and_the_best_night(app, api, client, clock):
    ids = year(api, client, clock)
    with app.app_context():
        review = group_review(of_year(2026))
    assert (review["nights"], review["sessions"]) == (3, 4)  # 01:05 is still 6 November's night
    assert review["best_night"] == {"day": "2026-11-06", "sessions": 2, "wins": 0, "hours": 0.33}
    assert review["hours"] == 0.67  # four sessions of two five-minute gaps
    assert [(line["name"], line["wins"]) for line in review["leaders"]] == [
        ("Dee", 3), ("Cy", 1), ("Ann", 0), ("Ben", 0)
    ]  # fmt: skip
    assert review["games"] == [{"name": "dixit", "sessions": 4}]
    assert [line["name"] for line in review["together"]] == ["Ann", "Ben", "Cy", "Dee"]
    streak = review["streak"]
    assert streak is not None
    assert (streak["player"], streak["value"], streak["session"]) == ("Dee", 2, ids[3])
    # Dee was ahead of Ann in three sessions and tied once: the most one-sided pair
    assert review["one_sided"] == {
        "a": "Dee", "b": "Ann", "sessions": 4, "a_ahead": 3, "b_ahead": 0, "tied": 1
    }  # fmt: skip
    assert {record["key"] for record in review["records"]} >= {"highest_total"}
    assert all(record["session"] in ids for record in review["records"])
    with app.app_context():
        before = group_review(of_year(2025))
    assert (before["nights"], before["sessions"], before["games"][0]["name"]) == (1, 2, "dixit")
    # a win each: Eve's Mighty session (all her wins), Ann's Dixit one (Ann 6, the rest 4)
    assert [line["name"] for line in before["leaders"]][:2] == ["Eve", "Ann"]


def test_a_players_review_is_their_statistics_for_the_period(app, api, client, clock):
    year(api, client, clock)
    with app.app_context():
        dee = player_review("Dee", of_year(2026))
        ann = player_review("Ann", of_year(2026))
        stats = player_stats("Dee", of_year(2026))["games"]["dixit"]
        partner = player_stats("Ann", Query())["partner"]
    assert (dee["nights"], dee["sessions"], dee["wins"], dee["win_rate"]) == (3, 4, 3, 0.75)
    assert (dee["sessions"], dee["wins"]) == (stats["sessions_counted"], stats["sessions_won"])
    assert dee["hours"] == stats["hours"] == 0.67
    assert dee["streak"] is not None and dee["streak"]["value"] == 2
    assert dee["best_night"] == {"day": "2026-11-06", "sessions": 2, "wins": 1, "hours": 0.33}
    assert [line["name"] for line in dee["together"]] == ["Ann", "Ben", "Cy"]
    assert ann["nemesis"] == "Dee"  # behind Dee three times
    # partners are kept for the whole history: Ann won a Mighty hand as Eve's friend in 2025
    assert ann["partner"] == partner == "Eve"
    assert ann["wins"] == 0 and ann["win_rate"] == 0.0


def test_the_review_pages_show_the_figures_and_embed_their_card(api, client, clock):
    year(api, client, clock)
    html = shown(client.get("/review?year=2026"))
    assert "<h1>The group&#39;s 2026 in review</h1>" in html
    assert '<dd data-review="nights">3</dd>' in html
    assert '<dd data-review="sessions">4</dd>' in html
    assert "data-share-card" in html and "data-copy-card-text" in html
    card = card_of(html)
    assert card["file"] == "refapp-review-group-2026.png"
    assert [(row["place"], row["name"], row["winner"]) for row in card["rows"]][:2] == [
        ("1", "Dee", True), ("2", "Cy", False)
    ]  # fmt: skip
    assert card["subtitle"] == "3 nights · 4 sessions · 0.7 h"
    assert "Best night: Nov 6, 2026" in card["facts"]
    assert card["text"].splitlines()[0] == card["title"]
    html = shown(client.get("/players/Dee/review?year=2026"))
    assert '<dd data-review="win_rate">75%</dd>' in html
    assert card_of(html)["file"] == "refapp-review-player-2026.png"
    # the period from-to, and the default: this year by the app's clock (2026-12-07)
    html = shown(client.get("/review?from=2026-11-01&to=2026-11-30"))
    assert '<dd data-review="sessions">3</dd>' in html
    assert '<dd data-review="sessions">4</dd>' in shown(client.get("/review"))
    assert client.get("/players/Nobody/review").status_code == 404
    # the statistics page and each player's page lead to the review
    assert '<a class="go" href="/review">The year in review</a>' in shown(client.get("/stats"))
    assert 'href="/players/Dee/review">The year in review' in shown(client.get("/players/Dee"))


def test_the_review_speaks_korean_and_hungarian(api, client, clock):
    year(api, client, clock)
    for language in ("ko", "hu"):
        client.set_cookie("lang", language)
        html = shown(client.get("/players/Dee/review?year=2026"))
        card = card_of(html)
        assert "review" not in card["title"] and "night" not in card["subtitle"]
        assert "Dee" in card["title"]


def test_a_refused_year_or_day_stands_by_its_field(api, client, clock):
    year(api, client, clock)
    response = client.get("/review?year=20x6")
    html = shown(response)
    assert response.status_code == 422
    assert "is not a year; write one as 2026." in html
    field = html.index('id="f-year"')
    assert field < html.index("is not a year") < html.index('id="f-from"')
    response = client.get("/players/Dee/review?from=2026-12-01&to=2026-11-01")
    assert response.status_code == 422
    assert "before it starts" in shown(response)


def test_a_review_reads_the_same_statements_however_many_nights(api, client, clock, count_queries):
    year(api, client, clock)
    client.get("/review?year=2026")  # the due streaks and ratings worked out first
    with count_queries() as first:
        assert client.get("/players/Ann/review?year=2026").status_code == 200
    with count_queries() as group_first:
        assert client.get("/review?year=2026").status_code == 200
    clock.now = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
    for _night in range(3):
        finish(client, dixit(api, clock, "ABC"))
        clock.advance(days=1)
    clock.now = datetime(2026, 12, 9, 20, 0, tzinfo=UTC)
    client.get("/review?year=2026")
    with count_queries() as then:
        html = shown(client.get("/players/Ann/review?year=2026"))
    with count_queries() as group_then:
        assert client.get("/review?year=2026").status_code == 200
    assert '<dd data-review="nights">6</dd>' in html
    assert then.count == first.count and group_then.count == group_first.count


def card_of(html: str) -> dict:
    """Return the card data a page embeds."""
    found = re.search(r'<script type="application/json" id="card-data">(.*?)</script>', html)
    assert found, "no card data"
    return json.loads(found.group(1))


def test_the_korean_review_fits_its_particles_to_the_names(api, client, clock):
    year(api, client, clock)
    client.set_cookie("lang", "ko")
    html = shown(client.get("/review?year=2026"))
    # a Latin name's sound is not known: its particle stays in both forms (refapp/particles.py)
    assert "Dee이(가) Ann보다 3번 앞서고 0번 뒤졌어요." in html
