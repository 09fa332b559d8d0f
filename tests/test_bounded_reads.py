"""Reads cost a bounded number of rows whatever the session's length; stored answers stay true."""

from __future__ import annotations

import json
import re

from sqlalchemy import insert, select

from refapp.extensions import db
from refapp.models import GameSession, Round
from refapp.services import running_shifts, stored_rounds
from refapp.services.sessions import CHART_POINTS, round_dict, round_rows

from .conftest import turn
from .stored_oracle import running_series

SEATS = ("Ann", "Ben", "Cy", "Dee")


def long_session(app, api, rounds: int) -> int:
    """Return a Dixit session of ``rounds`` turns: four recorded, the rest copied in bulk."""
    sid = api.create(rules={"target_score": 10**6})["id"]
    for number in range(4):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    with app.app_context():
        played = db.session.scalars(
            select(Round).where(Round.session_id == sid).order_by(Round.number)
        ).all()
        session = db.session.get(GameSession, sid)
        totals = dict(session.totals)
        rows = []
        for number in range(5, rounds + 1):
            model = played[(number - 1) % 4]
            totals = stored_rounds.running_after(totals, model.result["deltas"])
            rows.append(
                {
                    "session_id": sid,
                    "number": number,
                    "input": model.input,
                    "result": model.result,
                    "state": played[-1].state,
                    "recorded_at": model.recorded_at,
                    "answer": stored_rounds.answer_text(
                        number, model.input, model.result, model.recorded_at, None
                    ),
                    "running": totals,
                }
            )
        if rows:
            db.session.execute(insert(Round), rows)
        session.round_count = rounds
        session.totals = totals
        session.version += 1
        db.session.commit()
    return sid


def rows_read(client, count_queries, path: str) -> int:
    """Return the rows a GET of path reads (asserting it answers 200)."""
    with count_queries() as counter:
        assert client.get(path).status_code == 200
    return counter.rows


def test_reads_are_bounded_at_10_and_3000_rounds(app, api, client, count_queries):
    short, long = long_session(app, api, 10), long_session(app, api, 3000)
    # the session's own rows (the session, its 4 seats, the last state: 6) are read once per
    # version, then the version comes with the rounds' stored answers in one query
    for path, warm_10, warm_3000 in (
        ("/api/sessions/{sid}", 10, 100),  # the last 100 rounds by default
        ("/api/sessions/{sid}?rounds=none", 1, 1),
        ("/api/sessions/{sid}?rounds=last:5", 5, 5),
        # shown (30 at most), the chart's sample (every round up to 240), the session's own
        ("/sessions/{sid}", 10 + 10 + 6, 30 + 3000 // 13 + 1 + 6),
    ):
        at_10 = [rows_read(client, count_queries, path.format(sid=short)) for _ in "ab"]
        at_3000 = [rows_read(client, count_queries, path.format(sid=long)) for _ in "ab"]
        assert at_3000[1] == warm_3000 and at_3000[0] <= warm_3000 + 6, (path, at_3000)
        assert at_10[1] == warm_10 and at_10[0] <= warm_10 + 6, (path, at_10)


def test_a_refused_form_reads_what_the_page_reads(app, api, client, count_queries):
    sid = long_session(app, api, 3000)
    with count_queries() as page:
        client.get(f"/sessions/{sid}")
    with count_queries() as refused:
        answer = client.post(f"/sessions/{sid}/rounds", data={"storyteller": "Nobody"})
    assert answer.status_code == 422
    assert refused.rows <= page.rows + 10, (refused.rows, page.rows)


def test_every_round_asked_for_is_still_sent(app, api, client):
    sid = long_session(app, api, 300)
    every = client.get(f"/api/sessions/{sid}?rounds=all").get_json()
    assert [played["number"] for played in every["rounds"]] == list(range(1, 301))
    default = client.get(f"/api/sessions/{sid}").get_json()
    assert [played["number"] for played in default["rounds"]] == list(range(201, 301))
    assert default["rounds_total"] == 300
    assert default["rounds"] == every["rounds"][-100:]


def test_the_chart_draws_a_bounded_sample_ending_on_the_totals(app, api, client):
    sid = long_session(app, api, 3000)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    totals = client.get(f"/api/sessions/{sid}?rounds=none").get_json()["totals"]
    lines = page.split("<polyline")[1:]
    assert len(lines) == 4
    for line in lines:
        points = line.split('points="')[1].split('"')[0].split()
        assert 2 <= len(points) <= CHART_POINTS + 2
    assert page.count("<polyline") == 4 and str(max(totals.values())) in page


def stored_matches(app, sid: int) -> None:
    """Assert every stored round's answer and running totals are what its row says now."""
    with app.app_context():
        played = round_rows(sid)
        stored = db.session.execute(
            select(Round.answer, Round.running)
            .where(Round.session_id == sid)
            .order_by(Round.number)
        ).all()
        players = db.session.get(GameSession, sid).players
        series = running_series(dict.fromkeys(players, 0), [p.result["deltas"] for p in played])
        assert [json.loads(answer) for answer, _ in stored] == [
            json.loads(json.dumps(round_dict(p))) for p in played
        ]
        kept = [(number, running) for number, (_, running) in enumerate(stored, 1)]
        assert [running for _, running in running_shifts.shifted(sid, kept)] == series


def test_stored_answers_follow_every_write(app, api, client):
    sid = api.create(rules={"target_score": 10**6})["id"]
    for number in range(6):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    stored_matches(app, sid)
    fixed = {**turn("Ben"), "votes": {"Ann": 1, "Cy": 1, "Dee": 3}}
    assert client.put(f"/api/sessions/{sid}/rounds/2", json=fixed).status_code == 200
    assert api.session(sid)["rounds"][1]["input"] == fixed
    stored_matches(app, sid)
    assert client.delete(f"/api/sessions/{sid}/rounds/6").status_code == 200
    stored_matches(app, sid)
    assert client.post("/api/players/Ann/rename", json={"name": "Annie"}).status_code == 200
    stored_matches(app, sid)
    after = client.get(f"/api/sessions/{sid}").get_json()
    assert after["players"][0] == "Annie" and "Ann" not in after["totals"]
    assert after["rounds"][0]["result"]["deltas"].keys() == after["totals"].keys()


def test_a_read_after_a_write_shows_the_write(api, client):
    sid = api.create(rules={"target_score": 10**6})["id"]
    first = client.get(f"/api/sessions/{sid}")
    assert api.record(sid, turn("Ann")).status_code == 201
    second = client.get(f"/api/sessions/{sid}")
    assert second.headers["ETag"] != first.headers["ETag"]
    assert second.get_json()["rounds_total"] == 1 and len(second.get_json()["rounds"]) == 1
    assert second.get_json()["totals"] != first.get_json()["totals"]


def test_the_migration_fills_what_writes_store(tmp_path):
    from flask_migrate import downgrade, upgrade

    from .conftest import Api, migrated_sqlite_app

    app = migrated_sqlite_app(tmp_path / "old.sqlite")
    client = app.test_client()
    api = Api(client)
    sid = api.create(rules={"target_score": 10**6})["id"]
    for number in range(5):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    fixed = {**turn("Ben"), "votes": {"Ann": 1, "Cy": 1, "Dee": 3}}  # Dee now votes for Cy's
    assert client.put(f"/api/sessions/{sid}/rounds/2", json=fixed).status_code == 200
    with app.app_context():
        stored = db.session.execute(
            select(Round.answer, Round.running)
            .where(Round.session_id == sid)
            .order_by(Round.number)
        ).all()
        kept = [(n, running) for n, (_, running) in enumerate(stored, 1)]
        stored = [  # as the chart reads them: what corrections moved added
            (answer, running)
            for (answer, _), (_, running) in zip(
                stored, running_shifts.shifted(sid, kept), strict=True
            )
        ]
        downgrade(revision="e1f7c2a9b4d6")  # before rounds kept their answers
        upgrade()
        filled = db.session.execute(
            select(Round.answer, Round.running)
            .where(Round.session_id == sid)
            .order_by(Round.number)
        ).all()
        db.engine.dispose()
    assert len(filled) == 5 and filled == stored
    stored_matches(app, sid)


def test_going_down_past_the_running_shifts_adds_them_to_the_rounds(tmp_path):
    """The downgrade of a3c5e7f9b1d2 writes every shift into the running totals it moves."""
    from flask_migrate import downgrade

    from .conftest import Api, migrated_sqlite_app

    app = migrated_sqlite_app(tmp_path / "shifted.sqlite")
    client = app.test_client()
    api = Api(client)
    never = {"target_score": None, "end_after_rounds": 10**6}
    sid = api.create(rules=never)["id"]
    for number in range(6):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    fixed = {**turn("Ben"), "votes": {"Ann": 1, "Cy": 1, "Dee": 3}}
    assert client.put(f"/api/sessions/{sid}/rounds/2", json=fixed).status_code == 200
    with app.app_context():
        assert running_shifts.held(sid)  # the later rounds' totals moved by a shift
        shown = running_shifts.shifted(sid, stored_running(sid))
        downgrade(revision="d8b4f6a2c1e9")
        assert stored_running(sid) == shown
        db.engine.dispose()


def stored_running(sid: int) -> list[tuple[int, dict[str, int]]]:
    """Return a session's rounds' stored running totals by number (app context)."""
    query = select(Round.number, Round.running).where(Round.session_id == sid)
    return [tuple(row) for row in db.session.execute(query.order_by(Round.number))]


def test_an_import_stores_answers_running_totals_and_figures(app, api, client):
    sid = api.create(rules={"target_score": 10**6})["id"]
    for number in range(5):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    fixed = {**turn("Ben"), "votes": {"Ann": 1, "Cy": 1, "Dee": 3}}
    assert client.put(f"/api/sessions/{sid}/rounds/2", json=fixed).status_code == 200
    before = client.get("/api/players/Dee").get_json()["games"]["dixit"]
    exported = client.get(f"/api/sessions/{sid}/export").get_json()
    copied = client.post("/api/sessions/import", json=exported)
    assert copied.status_code == 201, copied.get_json()
    new = copied.get_json()["id"]
    stored_matches(app, new)
    original, imported = api.session(sid), api.session(new)
    assert imported["rounds"] == original["rounds"] and imported["totals"] == original["totals"]
    after = client.get("/api/players/Dee").get_json()["games"]["dixit"]
    assert after["rounds_played"] == 2 * before["rounds_played"] == 10
    assert after["points"] == 2 * before["points"]


#: the entry's key a full page load makes for its round form: new on every load
ENTRY_KEY = re.compile(r'(name="idempotency_key" type="hidden" value=")[^"]*"')


def page_text(client, path: str) -> str:
    """Return a page's HTML with its round form's fresh entry key blanked."""
    return ENTRY_KEY.sub(r'\1"', client.get(path).get_data(as_text=True))


def test_a_rounds_html_is_kept_per_stored_round_and_language(app, api, client):
    sid = api.create(rules={"target_score": 10**6})["id"]
    for number in range(3):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    first = page_text(client, f"/sessions/{sid}")
    assert 'name="idempotency_key" type="hidden" value=""' in first
    assert page_text(client, f"/sessions/{sid}") == first  # from what was kept
    korean = client.get(f"/sessions/{sid}", headers={"Accept-Language": "ko"}).get_data(
        as_text=True
    )
    assert "2라운드" in korean and "Round 2" not in korean and "Round 2" in first
    kept = app.extensions["refapp_round_parts"]
    assert {language for _sid, language, _answer in kept} == {"en", "ko"}
    fixed = {**turn("Ben"), "votes": {"Ann": 1, "Cy": 1, "Dee": 3}}
    assert client.put(f"/api/sessions/{sid}/rounds/2", json=fixed).status_code == 200
    after = client.get(f"/sessions/{sid}").get_data(as_text=True)
    round_2 = after.split('id="round-2"')[1].split("</li>\n    <li")[0]
    assert "corrected" in round_2 and "corrected" not in first.split('id="round-2"')[1][:600]
