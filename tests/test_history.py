"""The chart, the printable summary and the audit trail in plain words."""

from __future__ import annotations

from refapp.games.dixit import Dixit
from refapp.web.changes import differences, flatten
from refapp.web.chart import nice_step, totals_chart

from .conftest import SEED_TURN, turn
from .stored_oracle import running_series


def rounds_of(*deltas: dict) -> list:
    """Return rounds as the chart reads them: (number, running totals after it), from 0."""
    players = dict.fromkeys(deltas[0], 0)
    return list(enumerate(running_series(players, deltas), 1))


def test_running_points_are_the_running_totals_after_each_round():
    points = rounds_of({"Ann": 3, "Ben": 4}, {"Ann": 2, "Ben": -1})
    assert points == [(1, {"Ann": 3, "Ben": 4}), (2, {"Ann": 5, "Ben": 3})]


def test_chart_has_a_line_per_player_and_a_point_per_round():
    points = rounds_of(*[{"Ann": 1, "Ben": 2, "Cy": -1}] * 12)
    chart = totals_chart(["Ann", "Ben", "Cy"], points, len(points))
    assert [line.player for line in chart.lines] == ["Ann", "Ben", "Cy"]
    assert all(len(line.points.split()) == 13 for line in chart.lines)
    assert [line.total for line in chart.lines] == [12, 24, -12]
    values = [value for _, value in chart.grid]
    assert values[0] <= -12 and values[-1] >= 24 and 0 in values
    marks = [n for _, n in chart.rounds]
    assert marks[0] == 1 and marks[-1] == 12
    assert len({line.colour for line in chart.lines}) == 3


def test_nice_steps():
    assert [nice_step(s) for s in (1, 5, 6, 11, 30, 49, 120, 2600)] == [
        1,
        1,
        2,
        5,
        10,
        10,
        50,
        1000,
    ]


def test_flatten_and_differences_in_words():
    before = {"storyteller": "Ann", "votes": {"Ben": 2, "Dee": 3}}
    after = {"storyteller": "Ann", "votes": {"Ben": 2, "Dee": 2}}
    assert flatten(before) == {"storyteller": "Ann", "votes.Ben": 2, "votes.Dee": 3}
    assert differences(Dixit(), before, after) == ["<bdi>Dee</bdi>&#39;s vote: 3 → 2"]
    nested = flatten({"bidding": [{"player": "Ann", "bid": 13}]})
    assert nested == {"bidding.1.player": "Ann", "bidding.1.bid": 13}


def test_session_page_draws_the_chart(api, client):
    sid = api.create()["id"]
    assert "<polyline" not in client.get(f"/sessions/{sid}").get_data(as_text=True)
    api.record(sid, SEED_TURN)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert page.count("<polyline") == 4
    assert "<title>Ben: 4</title>" in page
    assert f'href="/sessions/{sid}/print"' in page and f'href="/sessions/{sid}/changes"' in page


def test_printable_summary_lists_every_round_and_the_totals(api, client):
    sid = api.create(name="Argued game")["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    page = client.get(f"/sessions/{sid}/print").get_data(as_text=True)
    assert "Argued game" in page and page.count("<polyline") == 4
    totals = api.session(sid)["totals"]
    footer = page.split("<tfoot>")[1].split("</tfoot>")[0]
    for name in ("Ann", "Ben", "Cy", "Dee"):
        assert f'<th class="num">{totals[name]}</th>' in footer
    assert "Dee voted for Ben&#39;s card (position 3): +1 to Ben." in page


def test_changes_page_tells_corrections_and_undos_in_words(api, client):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    client.put(
        f"/sessions/{sid}/rounds/1".replace("/sessions", "/api/sessions"),
        json={**SEED_TURN, "votes": {"Ben": 2, "Cy": 2, "Dee": 2}},
    )
    client.delete(f"/api/sessions/{sid}/rounds/2")
    page = client.get(f"/sessions/{sid}/changes").get_data(as_text=True)
    assert "Session started with Ann, Ben, Cy, Dee." in page
    assert "Round 1 corrected." in page and "<bdi>Dee</bdi>&#39;s vote: 3 → 2" in page
    assert "Round 2 undone." in page and "Storyteller was <bdi>Ben</bdi>" in page
    assert page.index("Round 1 recorded.") < page.index("Round 1 corrected.")
    assert client.get("/sessions/999/changes").status_code == 404
