"""The statistics pages a table reads: /stats (standings, head-to-head grid, records board,
ratings, periods, players chosen), the player's story on their page, the records a session page
says fell, each figure's one-line explanation, refusals next to their field, bounded reads."""

from __future__ import annotations

import re

import pytest
from flask import render_template

from refapp.web.chart import rating_chart

from .conftest import shown
from .test_bounded_pages import LENGTHS, long_session
from .test_players import session
from .test_statistics import dixit
from .test_stats import FIVE, MIGHTY_HANDS


def evening(api, client, clock) -> tuple[list[int], int]:
    """Three Dixit sessions in which Ann tells once (Ben, Cy and Dee tie first, Ann last), then
    the seven Mighty hands of test_stats, finished: totals Ann -45, Ben -16, Cy 3, Dee -2,
    Eve 60. Return the Dixit sessions' ids and the Mighty session's."""
    told = []
    for _ in range(3):
        sid = dixit(api, clock, "A")
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
        told.append(sid)
        clock.advance(hours=1)
    return told, session(api, "mighty", FIVE, MIGHTY_HANDS, finish=True)


def page(client, path: str, status: int = 200, language: str = "en") -> str:
    """Return a page's HTML (names without their <bdi>), asserting its status."""
    client.set_cookie("lang", language)
    response = client.get(path)
    text = shown(response)
    assert response.status_code == status, text[:400]
    return text


def row_of(html: str, name: str) -> str:
    """Return the standings row of a player: from their link to the row's end."""
    start = html.index(f'<a href="/players/{name}">')
    return html[start : html.index("</tr>", start)]


def numbers(row: str) -> list[str]:
    """Return the numeric cells of a row, in order."""
    return re.findall(r'<td class="num">([^<]*)</td>', row)


# -- /stats ----------------------------------------------------------------------------------------


def test_the_statistics_page_shows_standings_grid_records_and_ratings(api, client, clock):
    told, mighty = evening(api, client, clock)
    html = page(client, "/stats")
    assert "<h1>Statistics</h1>" in html
    # Ben: four counted sessions, three (tied) Dixit wins, average place (1+1+1+4)/4
    assert numbers(row_of(html, "Ben")) == ["4", "3", "75%", "1.75"]
    assert numbers(row_of(html, "Eve")) == ["1", "1", "100%", "1.00"]
    assert numbers(row_of(html, "Ann")) == ["4", "0", "0%", "4.25"]
    assert "-45 points · 7 rounds · 0.00 h played" not in html  # Ann played 10 rounds
    assert "· 10 rounds · 0.00 h played" in row_of(html, "Ann")
    # the grid, row against column: Ann was behind Ben in all four sessions
    assert 'title="Ann against Ben: ahead 0, behind 4, tied 0">0–4</td>' in html
    assert 'title="Ben against Ann: ahead 4, behind 0, tied 0">4–0</td>' in html
    assert 'title="Ben against Cy: ahead 0, behind 1, tied 3">0–1–3</td>' in html
    # the records board: each a tap to the round (or the session) that set it
    contract = html.index("Highest contract made")
    link = html.rindex("<a href=", 0, contract)
    assert html[link:contract].startswith(f'<a href="/sessions/{mighty}?upto=6#round-6">')
    assert "16 · Eve" in html[contract : contract + 200]
    assert f'<a href="/sessions/{mighty}?upto=2#round-2">' in html  # Ann's -64
    assert f'<a href="/sessions/{told[0]}#standings">' in html  # Dixit's highest total
    # every part explains its figures in one line
    for line in (
        "Sessions count once finished, or when no round was recorded for 12 hours.",
        "Each cell: the counted sessions both sat at",
        "A record is the best mark of its game",
        "estimate of skill, mu − 3 sigma",
    ):
        assert line in html
    ratings = client.get("/api/stats").get_json()["ratings"]
    if ratings:  # the leaderboard, best first, or the empty state's explanation
        best = ratings[0]
        assert f'<a href="/players/{best["name"]}">{best["name"]}</a></td>' in html
    else:
        assert "No ratings yet" in html


def test_a_game_and_the_players_chosen_narrow_the_page(api, client, clock):
    _told, mighty = evening(api, client, clock)
    html = page(client, "/stats?game=mighty")
    assert re.search(r'class="chip-link chosen" href="/stats\?game=mighty">Mighty</a>', html)
    assert "Best turn" not in html and "Highest contract made" in html
    assert numbers(row_of(html, "Eve"))[:2] == ["1", "1"]
    html = page(client, "/stats?players=Ann&players=Ben")
    for name in ("Ann", "Ben"):
        assert f'name="players" value="{name}" checked>' in html
    assert 'name="players" value="Cy">' in html
    # the last table is one tap: the newest session's players
    assert '/stats?players=Ann,Ben,Cy,Dee,Eve">The last table: Ann, Ben, Cy, Dee, Eve' in html
    assert f"/sessions/{mighty}" in page(client, "/stats?players=Ann,Ben,Cy,Dee,Eve")


def test_periods_are_links_and_a_bad_date_stands_next_to_its_field(api, client, clock):
    evening(api, client, clock)  # the clock reads 2026-11-06 on the evening's last hand
    html = page(client, "/stats?game=dixit")
    evening_link = 'href="/stats?game=dixit&amp;from=2026-11-06&amp;to=2026-11-06">This evening'
    assert f'<a class="chip-link" {evening_link}</a>' in html
    assert 'href="/stats?game=dixit&amp;from=2026-11-01&amp;to=2026-11-06">This month</a>' in html
    assert 'href="/stats?game=dixit&amp;from=2026-01-01&amp;to=2026-11-06">This year</a>' in html
    assert "All time: every stored session, from the first." in html
    chosen = page(client, "/stats?from=2026-11-01&to=2026-11-06")
    month = 'href="/stats?from=2026-11-01&amp;to=2026-11-06" aria-current="true">This month'
    assert f'class="chip-link chosen" {month}' in chosen
    assert "from 2026-11-01 to 2026-11-06." in chosen
    refused = page(client, "/stats?from=2026-13-01&game=dixit", 422)
    field = re.search(
        r'<input id="f-from" type="date" name="from" value="2026-13-01">'
        r'<p class="error" role="alert">([^<]*)</p></div>',
        refused,
    )
    assert field and "is not a date" in field.group(1)
    assert "All time: every stored session" in refused  # the rest of the query still answered
    assert 'value="dixit"' in refused
    game = page(client, "/stats?game=chess", 422)
    section = game[game.index('id="game"') : game.index('id="table"')]
    assert '<p class="error" role="alert">Unknown game' in section


def test_the_pages_speak_korean_and_hungarian(api, client, clock):
    evening(api, client, clock)
    korean = page(client, "/stats", language="ko")
    assert "<h1>통계</h1>" in korean and "상대 전적" in korean and "오늘 저녁" in korean
    assert "성공한 최고 공약" in korean
    hungarian = page(client, "/stats", language="hu")
    assert "<h1>Statisztika</h1>" in hungarian and "Egymás ellen" in hungarian
    assert "Legmagasabb teljesített vállalás" in hungarian
    player = page(client, "/players/Ann", language="ko")
    assert "라이벌" in player and "천적" in player and "가진 기록" in player


# -- the player's story --------------------------------------------------------------------------


def story(html: str, key: str) -> list[str]:
    """Return every value the page shows under a story key (one per game for per-game keys)."""
    return re.findall(rf'data-story="{key}">([^<]*)<', html)


def test_a_player_page_leads_with_their_story_then_head_to_head_and_records(api, client, clock):
    _told, mighty = evening(api, client, clock)
    html = page(client, "/players/Ann")
    games = re.findall(r'<section class="card" id="game-(\w+)">', html)
    assert games == ["mighty", "dixit"]
    assert story(html, "sessions_counted") == ["1", "3"]
    assert story(html, "sessions_won") == ["0", "0"]
    assert story(html, "win_rate") == ["0%", "0%"]
    assert story(html, "streak_current") == ["0", "0"]
    ben = page(client, "/players/Ben")
    assert story(ben, "streak_longest") == ["0", "3"]
    assert story(ben, "average_place") == ["4.00", "1.00"]
    # the figures the page always showed are still there, per game
    assert '<dd data-figure="sessions_played">3</dd>' in html
    # head-to-head: Ann behind everyone; Ben is rival (most together, then by name) and nemesis
    assert story(html, "rival") == ["Ben"] and story(html, "nemesis") == ["Ben"]
    line = html[html.index('data-opponent="Ben"') :]
    assert numbers(line[: line.index("</tr>")]) == ["4", "0", "4", "0"]
    assert numbers(html[html.index('data-opponent="Eve"') :][:300])[:4] == ["1", "0", "1", "0"]
    # the records Ann holds: Mighty's worst round, a tap to its round
    held = html[html.index('id="records"') :]
    assert f'<a href="/sessions/{mighty}?upto=2#round-2">' in held
    assert "-64 · Ann" in held
    for line in (
        "Counted sessions: finished, or no round for 12 hours",
        "Over the counted sessions both sat at",
        "records (in the period shown) this player holds",
    ):
        assert line in html
    # the rename form still stands
    assert 'action="/players/Ann/rename"' in html


def test_a_player_page_has_the_periods_and_refuses_a_bad_date_by_its_field(api, client, clock):
    evening(api, client, clock)
    html = page(client, "/players/Ann")
    assert 'href="/players/Ann?from=2026-11-06&amp;to=2026-11-06">This evening</a>' in html
    refused = page(client, "/players/Ann?to=2026-02-30", 422)
    assert re.search(
        r'name="to" value="2026-02-30"><p class="error" role="alert">[^<]*is not a date', refused
    )
    assert story(refused, "sessions_counted") == ["1", "3"]  # all time, the date left out
    assert 'action="/players/Ann/rename"' in refused


def test_a_rating_is_drawn_on_the_server_with_its_history(api, client, clock):
    chart = rating_chart([{"at": "2026-11-01T20:00:00Z", "display": 1.5},
                          {"at": None, "display": None},
                          {"at": "2026-11-06T21:00:00Z", "display": 4.25}])  # fmt: skip
    assert chart is not None and len(chart.points.split()) == 2
    assert (chart.first, chart.last) == ("2026-11-01", "2026-11-06")
    assert rating_chart([{"at": "2026-11-01", "display": 3.0}]) is None
    assert rating_chart([]) is None
    evening(api, client, clock)
    html = page(client, "/players/Ben")
    rating = client.get("/api/players/Ben/stats").get_json()["games"]["dixit"].get("rating")
    if rating and len(rating.get("history") or ()) >= 2:
        assert 'class="chart rating-chart"' in html
        assert "Rating after each rated session or hand." in html
    elif rating is None:
        assert "not rated yet" in html


# -- each game's roles, from the shapes of docs/API.md ---------------------------------------------

MIGHTY_ROLES = {
    "boss": {"hands": 4, "won": 3},
    "friend": {"hands": 2, "won": 1},
    "opposition": {"hands": 5, "won": 2},
    "by_bid": {"14": {"hands": 1, "made": 0}, "16": {"hands": 3, "made": 3}},
    "by_trump": {"S": {"hands": 3, "made": 2}, "NT": {"hands": 1, "made": 1}},
    "runs": 1,
    "back_runs": 0,
    "partners": [{"name": "Eve", "role": "friend", "hands": 2, "won": 2}],
}


def test_each_games_roles_are_worded_in_its_own_words(app):
    with app.test_request_context("/players/Ann"):
        mighty = render_template("mighty/roles.html", roles=MIGHTY_ROLES)
        dalmuti = render_template(
            "dalmuti/roles.html",
            roles={"hands_by_rank": {"greater_dalmuti": 3, "greater_peasant": 1}, "hands": 4,
                   "average_finish": 1.75, "revolutions": 1},
        )  # fmt: skip
        dixit_roles = {"storyteller_turns": 3, "some_found": 2, "votes_drawn_per_turn": 0.5,
                       "found_storyteller": 4, "turns_voted": 9}  # fmt: skip
        dixit_part = render_template("dixit/roles.html", roles=dixit_roles)
    boss = r'data-role="boss"><td>Boss \(주공\)</td><td class="num">4</td><td class="num">3</td>'
    assert re.search(boss + r'\s*<td class="num">75%', mighty)
    assert 'data-role="opposition"><td>Opposition (야당)</td><td class="num">5</td>' in mighty
    assert '<tr data-bid="16"><td>16</td><td class="num">3</td><td class="num">3</td>' in mighty
    assert mighty.index('data-trump="S"') < mighty.index('data-trump="NT"')
    assert "♠ Spades" in mighty and "No-trump (노기루다)" in mighty
    assert '<a href="/players/Eve"><bdi>Eve</bdi></a></td><td>Friend (프렌드)</td>' in mighty
    assert "주공 and 프렌드 are the ruling side" in mighty
    assert '<tr data-rank="greater_dalmuti"><td>Greater Dalmuti</td><td class="num">3</td>' in (
        dalmuti
    )
    # the hands, average finish and revolutions are the game's figures, shown once, above
    assert "Average finish" not in dalmuti and "Revolutions" not in dalmuti
    assert '<dd data-role="found_storyteller">4 of 9 turns voted</dd>' in dixit_part
    assert '<dd data-role="votes_drawn_per_turn">0.50</dd>' in dixit_part


# -- the session page ------------------------------------------------------------------------------


def test_a_session_page_says_which_records_fell_there(api, client, clock):
    told, mighty = evening(api, client, clock)
    html = page(client, f"/sessions/{mighty}")
    start = html.index('id="records-fell"')
    fell = html[start : html.index("</section>", start)]
    assert "Highest contract made" in fell and "16 · Eve" in fell
    assert f'<a href="/sessions/{mighty}?upto=6#round-6">' in fell
    assert "Best round" in fell and "Worst round" in fell and "Highest final total" in fell
    assert "whole history" in fell
    # the first Dixit evening set the round records; the third ended the longest streak
    assert "Best round" in page(client, f"/sessions/{told[0]}")
    assert "Longest win streak" in page(client, f"/sessions/{told[2]}")
    assert 'id="records-fell"' not in page(client, f"/sessions/{told[1]}")
    running = dixit(api, clock, "B")  # Ben tells: a running session shows none yet
    assert 'id="records-fell"' not in page(client, f"/sessions/{running}")


# -- bounded ---------------------------------------------------------------------------------------


def costs(count_queries, client, path: str) -> tuple[int, int]:
    """Ask for a page and return the queries and rows it read."""
    with count_queries() as counter:
        assert client.get(path).status_code == 200
    return counter.count, counter.rows


@pytest.mark.parametrize("path", ["/stats", "/stats?game=mighty", "/players/Ann"])
def test_the_pages_read_the_same_whatever_the_rounds(app, api, client, count_queries, path):
    read = []
    for rounds in LENGTHS:
        sid = long_session(app, api, "mighty", rounds)
        assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
        costs(count_queries, client, path)  # a first read counts what went idle
        read.append(costs(count_queries, client, path))
    assert read[0][0] == read[1][0]
    assert read[1][1] <= read[0][1] + 2 * len(FIVE)  # a second session listed with its seats


def test_the_stats_page_reads_the_same_whatever_the_sessions(api, client, clock, count_queries):
    read = []
    for sessions in (1, 4):
        for _ in range(sessions):
            sid = dixit(api, clock, "AB")
            assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
        costs(count_queries, client, "/stats")
        read.append(costs(count_queries, client, "/stats"))
    assert read[0] == read[1]
