"""Stored figures: every write keeps them equal to the figures of every stored round."""

from __future__ import annotations

from sqlalchemy import insert, select, update

from refapp.extensions import db
from refapp.models import GameSession, Player, PlayerFigures, Round, SessionPlayer
from refapp.services.players import SESSIONS_LISTED
from refapp.services.rounds import record_round

from .conftest import turn
from .figures_support import check, stored_rows
from .test_players import dalmuti_table, dixit_table, mighty_table, player, rename, session
from .test_stats import told

#: turn 1 of the Dixit table corrected: Ben and Cy vote Dee's card, Dee Ben's: nobody finds Ann's
NOBODY_FINDS = told("Ann", "Dee Ann Ben Cy", "Ben=1 Cy=1 Dee=3")


def test_figures_follow_record_correct_undo_finish_rename_and_merge(app, api, client):
    assert check(app, client) == {}
    dixit = dixit_table(api, finish=False)
    shown = check(app, client)
    assert shown["Ann"]["dixit"]["points"] == 13 and shown["Ann"]["dixit"]["storyteller_turns"] == 2
    assert shown["Ann"]["dixit"]["sessions_won"] == 0
    assert client.post(f"/api/sessions/{dixit}/finish").status_code == 200
    shown = check(app, client)
    assert shown["Ann"]["dixit"]["sessions_won"] == 1 and shown["Dee"]["dixit"]["sessions_won"] == 0

    # a correction of a finished session's first turn moves every later total and the winner
    corrected = client.put(f"/api/sessions/{dixit}/rounds/1", json=NOBODY_FINDS)
    assert corrected.status_code == 200, corrected.get_json()
    assert corrected.get_json()["winners"] == ["Dee"]
    shown = check(app, client)
    assert shown["Ann"]["dixit"]["sessions_won"] == 0 and shown["Dee"]["dixit"]["sessions_won"] == 1
    assert shown["Ann"]["dixit"]["some_found"] == 0  # turn 1 was Ann's one "some found" turn

    mighty_table(api)
    dalmuti_table(api)
    running = session(api, "dixit", ("Ann", "Ben", "Cy", "Eve"), [], finish=False)
    for teller in ("Ann", "Ben", "Cy"):
        assert api.record(running, turn(teller, ("Ann", "Ben", "Cy", "Eve"))).status_code == 201
    shown = check(app, client)
    assert shown["Eve"]["dixit"]["rounds_played"] == 3
    assert shown["Eve"]["mighty"]["points"] == 60 and shown["Eve"]["mighty"]["runs"] == 1
    assert client.delete(f"/api/sessions/{running}/rounds/3").status_code == 200
    shown = check(app, client)
    assert (
        shown["Eve"]["dixit"]["rounds_played"] == 2 and shown["Cy"]["dixit"]["rounds_played"] == 7
    )
    # a correction of two rounds at once, of a running session
    both = {
        "1": turn("Cy", ("Ann", "Ben", "Cy", "Eve")),
        "2": turn("Eve", ("Ann", "Ben", "Cy", "Eve")),
    }
    assert client.put(f"/api/sessions/{running}/rounds", json={"rounds": both}).status_code == 200
    shown = check(app, client)
    assert (
        shown["Eve"]["dixit"]["storyteller_turns"] == 1
        and shown["Ann"]["dixit"]["storyteller_turns"] == 2
    )

    before = check(app, client)["Ben"]
    assert rename(client, "Ben", "Bo").status_code == 200
    shown = check(app, client)
    assert "Ben" not in shown and shown["Bo"] == before

    other = session(
        api,
        "dixit",
        ("Fay", "Gus", "Hal", "Ivy"),
        [turn("Fay", ("Fay", "Gus", "Hal", "Ivy"))],
        finish=True,
    )
    assert other
    ann = check(app, client)["Ann"]["dixit"]
    assert rename(client, "Fay", "Ann").status_code == 200  # a merge
    shown = check(app, client)
    assert "Fay" not in shown
    assert shown["Ann"]["dixit"]["sessions_played"] == ann["sessions_played"] + 1
    assert shown["Ann"]["dixit"]["storyteller_turns"] == ann["storyteller_turns"] + 1
    with app.app_context():
        assert db.session.query(PlayerFigures).count() == len(
            [(name, game) for name, games in shown.items() for game in games]
        )


def test_the_rebuild_command_counts_what_the_writes_kept(app, api, client):
    dixit_table(api)
    mighty_table(api)
    dalmuti_table(api)
    with app.app_context():
        kept = stored_rows()
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
        damaged = db.session.get(PlayerFigures, (ann, "dixit"))
        damaged.tally = {**damaged.tally, "points": 999}
        db.session.execute(update(SessionPlayer).values(tally=None, won=False))
        db.session.commit()
        db.session.remove()
    assert player(client, "Ann")["games"]["dixit"]["points"] == 999
    result = app.test_cli_runner().invoke(args=["rebuild-figures"])
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Counted 3 session(s) with 15 round(s) and 14 seat(s): 14 player figures row(s) written.\n"
    )
    with app.app_context():
        assert stored_rows() == kept
    check(app, client)


#: a Dixit table that never reaches its target
LONG = {"target_score": 10**6}
FAR = ("Wes", "Xia", "Yul", "Zed")


def long_session(app, api, rounds: int) -> int:
    """Record four turns at the far table through the API, then copy them into ``rounds`` rows."""
    sid = api.create(players=list(FAR), rules=LONG)["id"]
    for teller in FAR:
        assert api.record(sid, turn(teller, FAR)).status_code == 201
    with app.app_context():
        played = db.session.execute(
            select(Round.input, Round.result, Round.state).where(Round.session_id == sid)
        ).all()
        copies = [
            {
                "session_id": sid,
                "number": number,
                "input": played[(number - 1) % 4].input,
                "result": played[(number - 1) % 4].result,
                "state": played[(number - 1) % 4].state,
            }
            for number in range(5, rounds + 1)
        ]
        for start in range(0, len(copies), 2000):
            db.session.execute(insert(Round), copies[start : start + 2000])
        db.session.execute(
            update(GameSession).where(GameSession.id == sid).values(round_count=rounds)
        )
        db.session.commit()
        db.session.remove()
    return sid


def test_a_player_of_ten_thousand_rounds_reads_the_rows_of_a_player_of_ten(
    app, api, client, count_queries
):
    near = api.create(rules=LONG)["id"]
    for number in range(9):
        assert api.record(near, turn(("Ann", "Ben", "Cy", "Dee")[number % 4])).status_code == 201
    far = long_session(app, api, 9_999)
    result = app.test_cli_runner().invoke(args=["rebuild-figures"])
    assert result.exit_code == 0, result.output
    assert "with 10008 round(s) and 8 seat(s)" in result.output
    # recording a round, stored figures and all, costs the same at round 10 as at round 10,000
    # (the service's write; the API's answer then carries the session's rounds)
    with app.app_context():
        with count_queries() as short:
            record_round(near, turn("Ben"))
        with count_queries() as long:
            record_round(far, turn("Zed", FAR))
        db.session.remove()
    assert (long.rows, long.count) == (short.rows, short.count)

    zed = player(client, "Zed")
    assert zed["games"]["dixit"]["rounds_played"] == 10_000
    assert zed["games"]["dixit"]["storyteller_turns"] == 2_500
    assert zed["sessions"][0]["rounds"] == 10_000
    assert player(client, "Ann")["games"]["dixit"]["rounds_played"] == 10
    for path in ("/api/players/{}", "/players/{}"):
        with count_queries() as ten:
            assert client.get(path.format("Ann")).status_code == 200
        with count_queries() as many:
            assert client.get(path.format("Zed")).status_code == 200
        assert (many.rows, many.count) == (ten.rows, ten.count)
        # the player, a figures row, one session's four seats, the tag; the page's story adds
        # the records Ann holds (a row each) and what the statistics read (docs/API.md)
        assert ten.rows <= (10 if path.startswith("/api") else 16), (path, ten.rows)
    with count_queries() as roster:
        assert client.get("/api/players").status_code == 200
    # the sessions gone idle (none), the sessions owing figures (none), the players, a figures
    # row each
    assert (roster.count, roster.rows) == (4, 8 + 8)
    check(app, client)


def test_the_profile_lists_the_newest_sessions_and_counts_the_rest(app, api, client, count_queries):
    ids = [api.create(rules=LONG)["id"] for _ in range(SESSIONS_LISTED + 3)]
    ann = player(client, "Ann")
    assert ann["sessions_played"] == SESSIONS_LISTED + 3
    assert [row["id"] for row in ann["sessions"]] == ids[::-1][:SESSIONS_LISTED]
    assert ann["sessions_listed_at_most"] == SESSIONS_LISTED
    assert ann["sessions_not_listed"] == 3
    page = client.get("/players/Ann").get_data(as_text=True)
    assert "3 older sessions are not listed here" in page
    assert "/?player=Ann" in page
