"""The sessions list: filters, paging, leaders and winners, and its fixed cost in queries."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from refapp.extensions import db
from refapp.models import GameSession

from .conftest import SEED_TURN, migrated_sqlite_app, shown, turn


def listed(client, query: str = "") -> dict:
    """Return the API's list answer for a query string."""
    response = client.get(f"/api/sessions{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_rows_carry_rounds_totals_leaders_and_winners(api, client):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    row = listed(client)["sessions"][0]
    assert row["rounds"] == 1
    assert row["totals"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert row["leaders"] == ["Ben"] and row["winners"] == []
    client.post(f"/api/sessions/{sid}/finish")
    assert listed(client)["sessions"][0]["winners"] == ["Ben"]


def test_summary_follows_corrections_and_undo(api, client):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    client.put(
        f"/api/sessions/{sid}/rounds/1", json={**SEED_TURN, "votes": {"Ben": 2, "Cy": 2, "Dee": 2}}
    )
    row = listed(client)["sessions"][0]
    assert row["totals"] == api.session(sid)["totals"] and row["rounds"] == 2
    client.delete(f"/api/sessions/{sid}/rounds/2")
    row = listed(client)["sessions"][0]
    assert row["totals"] == {"Ann": 0, "Ben": 2, "Cy": 2, "Dee": 2} and row["rounds"] == 1


def test_filters_by_game_player_status_and_date(api, client, app):
    dixit = api.create(players=["Ann", "Ben", "Cy"])["id"]
    mighty = api.create(players=["Ann", "Eve", "Fay", "Gus", "Hal"], game="mighty")["id"]
    other = api.create(players=["Ivy", "Jo", "Kim"])["id"]
    client.post(f"/api/sessions/{other}/finish")
    with app.app_context():
        db.session.get(GameSession, dixit).created_at = datetime(2026, 11, 20, 21, 0, tzinfo=UTC)
        db.session.commit()
    ids = lambda q: sorted(s["id"] for s in listed(client, q)["sessions"])  # noqa: E731
    assert ids("?game=mighty") == [mighty]
    assert ids("?player=Ann") == sorted([dixit, mighty])
    assert ids("?status=finished") == [other]
    assert ids("?status=active&player=Ann&game=dixit") == [dixit]
    assert ids("?from=2026-11-20&to=2026-11-20") == [dixit]
    assert ids("?to=2026-11-19") == []


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?status=maybe", "status"),
        ("?from=friday", "from"),
        ("?page=0", "page"),
        ("?per_page=x", "per_page"),
    ],
)
def test_bad_filters_are_refused_by_name(client, query, field):
    response = client.get(f"/api/sessions{query}")
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == field


def test_pages_split_the_list_newest_first(api, client):
    made = [api.create(players=["A", "B", f"C{i}"])["id"] for i in range(5)]
    first = listed(client, "?per_page=2")
    assert first["total"] == 5 and first["pages"] == 3
    assert [s["id"] for s in first["sessions"]] == made[::-1][:2]
    last = listed(client, "?per_page=2&page=3")
    assert [s["id"] for s in last["sessions"]] == [made[0]]


def test_home_page_filters_pages_and_shows_leaders(api, client):
    for i in range(22):
        api.create(players=["Ann", "Ben", f"P{i}"])
    sid = api.create(name="Argued game")["id"]
    api.record(sid, SEED_TURN)
    page = shown(client.get("/"))
    assert "23 sessions · page 1 of 2" in page and "Leading: Ben (4)" in page
    assert "Older</a>" in page
    assert "Argued game" in client.get("/?player=Dee").get_data(as_text=True)
    assert "Argued game" not in client.get("/?player=Dee&status=finished").get_data(as_text=True)
    refused = client.get("/?from=someday")
    assert refused.status_code == 422 and "The filter from must be a date" in refused.get_data(
        as_text=True
    )


def test_list_costs_the_same_for_one_and_thirty_sessions(api, client, count_queries):
    costs = []
    for extra in (1, 29):
        for i in range(extra):
            sid = api.create(players=["Ann", "Ben", f"S{len(costs)}-{i}"])["id"]
            api.record(
                sid,
                {
                    **SEED_TURN,
                    "positions": ["Ann", "Ben", f"S{len(costs)}-{i}", "Ben", f"S{len(costs)}-{i}"],
                    "votes": {"Ben": 1, f"S{len(costs)}-{i}": 2},
                },
            )
        for path in ("/", "/api/sessions?per_page=50"):
            with count_queries() as counter:
                assert client.get(path).status_code == 200
            costs.append((path, counter.count))
    assert costs[0] == costs[2] and costs[1] == costs[3]


def test_summary_migration_backfills_sessions_recorded_before_it(tmp_path):
    app = migrated_sqlite_app(tmp_path / "b.sqlite")
    client = app.test_client()
    sid = client.post(
        "/api/sessions", json={"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    ).get_json()["id"]
    client.post(f"/api/sessions/{sid}/rounds", json=SEED_TURN)
    with app.app_context():
        downgrade(revision="472e4780e488")
        upgrade()
        row = db.session.execute(
            sa.text("SELECT round_count, totals FROM game_session WHERE id = :id"), {"id": sid}
        ).one()
        db.engine.dispose()
    assert row[0] == 1
    assert json.loads(row[1])["Ben"] == 4
