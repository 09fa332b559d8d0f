"""Corrections of long sessions: what the replay stores, what it skips, and who waits for it.

A correction plays again only the rounds whose input or state before changed; every other later
round keeps its stored outcome. These tests hold that to a full replay through the rules, check
that a replay of the stored inputs gives back the stored rows byte for byte, and that another
table's write waits for a long correction instead of failing.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Text, cast, event, select

from refapp import extensions
from refapp.extensions import db
from refapp.games import get_game
from refapp.games.game import replay, running_totals
from refapp.models import GameSession, Round
from refapp.services import corrections, hot_rows, later_rounds, replays, running_shifts
from refapp.services.sessions import chart_points, table_of
from refapp.stored_json import stored

from .conftest import TEST_DATABASE_URL, turn

FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")
GOLDEN = Path(__file__).parent / "golden"
#: a read of the rounds' inputs (the table's name quoted or not, as the database needs)
READS_INPUT = re.compile(r'"?round"?\.input\b')


def hand(boss: str, friend: str, against: int = 3, dealer: str | None = None) -> dict[str, Any]:
    """Return a Mighty hand: from the dealer (else the boss) on, the boss bids 13 in spades and
    everyone else passes."""
    start = FIVE.index(dealer or boss)
    order = [*FIVE[start:], *FIVE[:start]]
    bidding = [
        {"player": name, "bid": 13, "trump": "S"}
        if name == boss
        else {"player": name, "pass": True}
        for name in order
    ]
    entered: dict[str, Any] = {
        "bidding": bidding,
        "contract": {"boss": boss, "bid": 13, "trump": "S"},
        "friend": {"card": "JK", "player": friend},
        "opposition_points": against,
    }
    if dealer is not None:
        entered["dealer"] = dealer
    return entered


def stored_rows(app, sid: int) -> list[tuple[int, str, str, str]]:
    """Return a session's rounds as stored: number and the JSON text of input, result, state."""
    with app.app_context():
        query = (
            select(
                Round.number,
                cast(Round.input, Text),
                cast(Round.result, Text),
                cast(Round.state, Text),
            )
            .where(Round.session_id == sid)
            .order_by(Round.number)
        )
        return [tuple(row) for row in db.session.execute(query)]


def full_replay(app, sid: int) -> list[tuple[int, str, str, str]]:
    """Return every round of a session played again through the rules from its first, as the
    database would store it (``stored_json.stored``)."""
    with app.app_context():
        session = db.session.get(GameSession, sid)
        game = get_game(session.game)
        inputs = db.session.scalars(
            select(Round.input).where(Round.session_id == sid).order_by(Round.number)
        ).all()
        outcomes = replay(game, table_of(session), dict(session.initial_state), inputs)
        return [
            (number, stored(o.input), stored(o.result), stored(o.state))
            for number, o in enumerate(outcomes, 1)
        ]


@contextmanager
def captured(app) -> Iterator[list[str]]:
    """Collect the SQL statements the app sends meanwhile."""
    statements: list[str] = []

    def listen(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", listen)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", listen)


def recorded(api, game: str, players, rules: dict, inputs: list[dict], **extra) -> int:
    """Create a session and record every input; return its id."""
    sid = api.create(players=players, game=game, rules=rules, **extra)["id"]
    for number, entered in enumerate(inputs, 1):
        response = api.record(sid, entered)
        assert response.status_code == 201, (number, response.get_json())
    return sid


def golden_sessions() -> list[Any]:
    """Return the golden cases whose rounds are all recorded (no refusal, no dry run)."""
    found = []
    for path in sorted(GOLDEN.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            steps = case.get("rounds", [])
            clean = steps and not any("error" in s or s.get("dry_run") for s in steps)
            if clean and "session_error" not in case:
                found.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return found


@pytest.mark.parametrize("case", golden_sessions())
def test_a_replay_of_the_stored_inputs_gives_the_stored_rows_byte_for_byte(case, api, app):
    sid = api.create(
        players=case["players"],
        game=case["game"],
        rules=case.get("rules", {}),
        **case.get("session", {}),
    )["id"]
    for step in case["rounds"]:
        assert api.record(sid, step["input"]).status_code == 201
    stored, again = stored_rows(app, sid), full_replay(app, sid)
    assert [(n, result, state) for n, _, result, state in stored] == [
        (n, result, state) for n, _, result, state in again
    ]
    # an input read again may list its keys in another order (a hand's derived points come
    # before its tricks): the same value, and a replay never rewrites an equal one
    assert [json.loads(row[1]) for row in stored] == [json.loads(row[1]) for row in again]


def test_the_golden_files_give_sessions_of_every_game():
    games = {case.values[0]["game"] for case in golden_sessions()}
    assert games == {"dalmuti", "dixit", "mighty"}


def test_a_correction_plays_again_only_until_the_state_is_the_stored_one(api, app, monkeypatch):
    # The boss deals after a win and the friend after a loss; no later hand names its dealer.
    rules = {"next_dealer": "boss_if_won_else_friend"}
    inputs = [hand("Ann", "Ben", dealer="Eve")]
    inputs += [hand(FIVE[n % 5], FIVE[(n + 1) % 5]) for n in range(1, 8)]
    sid = recorded(api, "mighty", FIVE, rules, inputs)
    before = stored_rows(app, sid)
    game = get_game("mighty")
    played: list[int] = []
    real_play = type(game).play

    def counted(self, table, state, raw, **kwargs):
        played.append(state["rounds"] + 1)
        return real_play(self, table, state, raw, **kwargs)

    monkeypatch.setattr(type(game), "play", counted)
    lost = hand("Ann", "Ben", against=8, dealer="Eve")  # 12 points of 13: Ben deals round 2
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=lost)
    assert response.status_code == 200, response.get_json()
    monkeypatch.undo()
    # Round 2 was dealt by Ben, not Ann, so it is played again; its state after (Ann won: she
    # deals) is the stored one, so rounds 3 to 8 keep theirs.
    assert played == [1, 2]
    after = stored_rows(app, sid)
    assert after == full_replay(app, sid)
    assert json.loads(after[0][2])["outcome"] == "opposition_win"
    assert json.loads(after[1][3])["next_dealer"] == json.loads(before[1][3])["next_dealer"]
    assert (
        json.loads(after[0][3])["next_dealer"] == "Ben" != json.loads(before[0][3])["next_dealer"]
    )
    assert after[2:] == before[2:]
    totals = api.session(sid)["totals"]
    stored_deltas = [json.loads(row[2])["deltas"] for row in after]
    assert totals == {name: sum(d[name] for d in stored_deltas) for name in FIVE}
    assert totals != {
        name: sum(json.loads(row[2])["deltas"][name] for row in before) for name in FIVE
    }


def test_a_correction_that_moves_every_later_dealer_stores_a_full_replay(api, app):
    # Clockwise from the dealer: no later hand names its dealer, so round 1's dealer moves all.
    rules = {"next_dealer": "clockwise"}
    inputs = [hand("Ann", "Ben", dealer="Eve")]
    inputs += [hand(FIVE[n % 5], FIVE[(n + 1) % 5]) for n in range(1, 6)]
    sid = recorded(api, "mighty", FIVE, rules, inputs)
    before = stored_rows(app, sid)
    moved = hand("Ann", "Ben", dealer="Dee")
    assert api.client.put(f"/api/sessions/{sid}/rounds/1", json=moved).status_code == 200
    after = stored_rows(app, sid)
    assert after == full_replay(app, sid)
    dealers = [json.loads(row[3])["next_dealer"] for row in after]
    assert dealers == ["Eve", "Ann", "Ben", "Cy", "Dee", "Eve"]
    assert all(old[3] != new[3] for old, new in zip(before, after, strict=True))


def test_a_correction_that_ends_the_game_earlier_refuses_the_round_after_the_end(api, app):
    # Everyone finds the card each turn (the others +2): nobody reaches 5 before round 3.
    sid = recorded(
        api,
        "dixit",
        ("Ann", "Ben", "Cy", "Dee"),
        {"target_score": 5},
        [turn("Ann"), turn("Ben"), turn("Cy")],
    )
    before = stored_rows(app, sid)
    # Only Ben finds Ann's card, and Cy and Dee vote for his: Ben 3 + 2 = 5 after round 1, so
    # round 2 (its own input and state before unchanged) comes after the game's end.
    ben_wins = {**turn("Ann"), "votes": {"Ben": 1, "Cy": 2, "Dee": 2}}
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=ben_wins)
    error = response.get_json()["error"]
    assert (response.status_code, error["code"], error["round"]) == (409, "session_finished", 2)
    assert stored_rows(app, sid) == before


def test_a_correction_reads_one_light_row_per_later_round_and_plays_few(api, app, count_queries):
    """A later round costs one row of deltas and state; inputs and results are read only for
    the rounds played again (here the first batch), whatever the session's length."""
    seats = ("Ann", "Ben", "Cy", "Dee")
    fixed = {**turn("Ann"), "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
    rows, full_reads = [], []
    for count in (40, 80):
        sid = recorded(
            api, "dixit", seats, {"target_score": 10**6}, [turn(seats[n % 4]) for n in range(count)]
        )
        with captured(app) as statements, count_queries() as counter:
            put = api.client.put(f"/api/sessions/{sid}/rounds/1?rounds=none", json=fixed)
        assert put.status_code == 200
        assert stored_rows(app, sid) == full_replay(app, sid)
        rows.append(counter.rows)
        full_reads.append(
            [s for s in statements if s.startswith("SELECT") and READS_INPUT.search(s)]
        )
    assert rows[1] - rows[0] == 40
    assert [len(reads) for reads in full_reads] == [1, 1]


def test_another_tables_write_waits_for_a_long_correction_and_succeeds(api, app, monkeypatch):
    """SQLite admits one writer: a record at another table waits for the correction's commit
    (within the busy timeout) and is stored after it; neither fails."""
    long_sid = recorded(
        api,
        "dixit",
        ("Ann", "Ben", "Cy", "Dee"),
        {"target_score": 10**6},
        [turn(("Ann", "Ben", "Cy", "Dee")[n % 4]) for n in range(8)],
    )
    other_sid = api.create(rules={"target_score": 10**6})["id"]
    holding, release = threading.Event(), threading.Event()
    real_write = replays.write_rounds

    def slow_write(rows):
        real_write(rows)
        holding.set()  # the correction holds the write lock from here to its commit
        assert release.wait(10)

    monkeypatch.setattr(replays, "write_rounds", slow_write)
    answers: dict[str, Any] = {}

    def correct() -> None:
        fixed = {**turn("Ann"), "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
        client = app.test_client()
        answers["correction"] = client.put(f"/api/sessions/{long_sid}/rounds/1", json=fixed)

    def record() -> None:
        client = app.test_client()
        started = time.monotonic()
        answers["record"] = client.post(f"/api/sessions/{other_sid}/rounds", json=turn("Ann"))
        answers["waited"] = time.monotonic() - started

    correction = threading.Thread(target=correct)
    correction.start()
    assert holding.wait(10)
    other = threading.Thread(target=record)
    other.start()
    # SQLite has one write lock: the record waits for the correction's commit; PostgreSQL locks
    # the corrected session's rows only, so the other table's record does not wait at all
    waits = TEST_DATABASE_URL is None
    try:
        if waits:
            time.sleep(0.5)
        else:
            other.join(10)
        assert other.is_alive() is waits
    finally:
        release.set()
        correction.join(10)
        other.join(10)
    assert answers["correction"].status_code == 200
    assert answers["record"].status_code == 201, answers["record"].get_json()
    assert (answers["waited"] >= 0.5) is waits
    assert len(api.session(other_sid)["rounds"]) == 1
    corrected = api.session(long_sid)
    assert corrected["rounds"][0]["input"]["votes"] == {"Ben": 3, "Cy": 2, "Dee": 2}
    deltas = [played["result"]["deltas"] for played in corrected["rounds"]]
    assert corrected["totals"] == {name: sum(d[name] for d in deltas) for name in deltas[0]}


def test_rows_naming_other_columns_are_written_in_their_own_statement(api, app):
    sid = recorded(api, "dixit", ("Ann", "Ben", "Cy", "Dee"), {}, [turn("Ann"), turn("Ben")])
    with app.app_context():
        ids = db.session.scalars(
            select(Round.id).where(Round.session_id == sid).order_by(Round.number)
        ).all()
        moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
        replays.write_rounds(
            [
                {"row_id": ids[0], "input": '{"a": "\\u00e9"}', "result": "[1]", "state": "{}"},
                {"row_id": ids[1], "corrected_at": moment},
            ]
        )
        db.session.commit()
    rows = stored_rows(app, sid)
    assert rows[0][1:] == ('{"a": "\\u00e9"}', "[1]", "{}")
    assert json.loads(rows[1][2])["storyteller"] == "Ben"
    with app.app_context():
        first, second = db.session.scalars(
            select(Round).where(Round.session_id == sid).order_by(Round.number)
        ).all()
        assert (first.input, first.result, first.state) == ({"a": "é"}, [1], {})
        assert first.corrected_at is None
        assert second.corrected_at.replace(tzinfo=UTC) == moment


def test_a_write_between_the_replay_and_the_lock_has_the_correction_worked_out_again(
    api, app, monkeypatch
):
    """The replay runs before the write lock; a round recorded meanwhile is not lost: the
    correction is replayed again under the lock, from what is stored then."""
    seats = ("Ann", "Ben", "Cy", "Dee")
    sid = recorded(api, "dixit", seats, {"target_score": 10**6}, [turn("Ann"), turn("Ben")])
    real_lock = hot_rows.take  # the correction's lock, below the ORM
    between: list[int] = []
    started: list[bool] = []

    def record_round_3() -> None:
        other = app.test_client().post(f"/api/sessions/{sid}/rounds", json=turn("Cy"))
        between.append(other.status_code)

    def lock_after_another_write(session_id):
        if not started:  # another phone's record, on its own thread and connection
            started.append(True)
            recording = threading.Thread(target=record_round_3)
            recording.start()
            recording.join(10)
        return real_lock(session_id)

    monkeypatch.setattr(hot_rows, "take", lock_after_another_write)
    fixed = {**turn("Ann"), "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed)
    assert between == [201]
    assert response.status_code == 200, response.get_json()
    body = api.session(sid)
    assert [r["input"]["storyteller"] for r in body["rounds"]] == ["Ann", "Ben", "Cy"]
    assert body["rounds"][0]["input"]["votes"] == fixed["votes"]
    deltas = [played["result"]["deltas"] for played in body["rounds"]]
    assert body["totals"] == {name: sum(d[name] for d in deltas) for name in seats}
    assert stored_rows(app, sid) == full_replay(app, sid)


def test_the_replay_keeps_no_other_write_waiting(api, app, monkeypatch):
    """Another table's record made while a long correction replays is stored at once: the
    replay holds no write lock (with it, this record would wait for the busy timeout, then
    fail). Two rounds are long here (``SHORT_REPLAY`` 1)."""
    monkeypatch.setattr(extensions, "BUSY_TIMEOUT_MS", 300)
    monkeypatch.setattr(corrections, "SHORT_REPLAY", 1)
    with app.app_context():
        db.engine.dispose()
    seats = ("Ann", "Ben", "Cy", "Dee")
    sid = recorded(api, "dixit", seats, {"target_score": 10**6}, [turn("Ann"), turn("Ben")])
    other_sid = api.create(rules={"target_score": 10**6})["id"]
    real_replay = replays.replay_changes
    meanwhile: list[int] = []

    def record_elsewhere() -> None:  # a thread of its own: its own connection, as a server's
        other = app.test_client().post(f"/api/sessions/{other_sid}/rounds", json=turn("Ann"))
        meanwhile.append(other.status_code)

    def replay_and_write_elsewhere(*args, **kwargs):
        if not meanwhile:
            elsewhere = threading.Thread(target=record_elsewhere)
            elsewhere.start()
            elsewhere.join(10)
        return real_replay(*args, **kwargs)

    monkeypatch.setattr(replays, "replay_changes", replay_and_write_elsewhere)
    fixed = {**turn("Ann"), "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
    assert api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
    assert meanwhile == [201]
    assert len(api.session(other_sid)["rounds"]) == 1
    assert stored_rows(app, sid) == full_replay(app, sid)


def test_a_short_correction_is_worked_out_once_under_the_lock(api, app, monkeypatch):
    """A correction looking at no more than ``SHORT_REPLAY`` rounds reads its session once,
    taken for the write; a longer one gives the lock back, works the replay out without it and
    takes the session again: the same rounds stored either way."""
    seats = ("Ann", "Ben", "Cy", "Dee")
    fixed = {**turn("Ann"), "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
    stored = []
    for short in (32, 1):
        monkeypatch.setattr(corrections, "SHORT_REPLAY", short)
        sid = recorded(api, "dixit", seats, {}, [turn("Ann"), turn("Ben"), turn("Cy")])
        taken, read = [], []
        monkeypatch.setattr(hot_rows, "take", counting(hot_rows.take, taken))
        monkeypatch.setattr(hot_rows, "read", counting(hot_rows.read, read))
        assert api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
        monkeypatch.undo()
        assert (len(taken), len(read)) == ((1, 0) if short == 32 else (2, 1))
        stored.append([row[1:] for row in stored_rows(app, sid)])
        assert stored_rows(app, sid) == full_replay(app, sid)
    assert stored[0] == stored[1]


def counting(function, calls: list):
    """Return ``function`` noting each call in ``calls``."""

    def counted(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)

    return counted


def test_a_refused_correction_is_replayed_once(api, app, monkeypatch):
    """A correction refused by its replay (before the lock) is refused under the lock as it is,
    without a second replay holding the lock."""
    sid = recorded(api, "dixit", ("Ann", "Ben", "Cy", "Dee"), {}, [turn("Ann"), turn("Ben")])
    before = stored_rows(app, sid)
    real_replay = replays.replay_changes
    calls: list[int] = []

    def counted(*args, **kwargs):
        calls.append(1)
        return real_replay(*args, **kwargs)

    monkeypatch.setattr(replays, "replay_changes", counted)
    response = api.client.put(f"/api/sessions/{sid}/rounds/1", json=turn("Dee"))
    error = response.get_json()["error"]
    assert (response.status_code, error["code"], error["round"]) == (422, "wrong_storyteller", 2)
    assert calls == [1]
    assert stored_rows(app, sid) == before


def moved_totals(item: replays.Replayed) -> bool:
    """Return True when a replayed round's running totals moved."""
    return any(running_shifts.moved_by(item.totals, item.stored_totals).values())


def test_the_replay_tells_which_rounds_running_totals_moved(api, app):
    seats = ("Ann", "Ben", "Cy", "Dee")
    sid = recorded(api, "dixit", seats, {}, [turn(seats[n % 4]) for n in range(4)])
    with app.app_context():
        session = db.session.get(GameSession, sid)
        game, table = get_game("dixit"), table_of(session)
        assert game.end_reads_totals(table)  # a target score: every later round looked at

        def replayed(corrected: dict) -> list[replays.Replayed]:
            later = later_rounds.EveryRound(sid, 2)
            before = running_totals(session.totals, [row.deltas for row in later.rounds], -1)
            query = select(Round.state).where(Round.session_id == sid, Round.number == 1)
            start = db.session.scalar(query)
            return replays.replay_changes(game, table, start, later, corrected, before)

        same = replayed({2: turn("Ben")})
        assert [item.played for item in same] == [True, False, False]
        assert not any(item.changed or moved_totals(item) for item in same)
        rescored = replayed({2: {**turn("Ben"), "votes": {"Ann": 3, "Cy": 2, "Dee": 2}}})
        moved = [(item.changed, moved_totals(item)) for item in rescored]
        assert moved == [(True, True), (False, True), (False, True)]
        assert rescored[-1].totals != session.totals == rescored[-1].stored_totals
        shifts = running_shifts.ranges(
            [(item.number, running_shifts.moved_by(item.totals, item.stored_totals))
             for item in rescored], 4)  # fmt: skip
        assert [(s.first, s.last) for s in shifts] == [(2, 4)]


def test_a_correction_without_a_target_reads_only_the_rounds_it_corrects(api, app):
    """Without a target score the game's end does not read the totals: a correction that
    leaves the state as stored looks at its own rounds alone, and the running totals of the
    rounds between and after move as one shift each."""
    seats = ("Ann", "Ben", "Cy", "Dee")
    never = {"target_score": None, "end_after_rounds": 10**6}
    sid = recorded(api, "dixit", seats, never, [turn(seats[n % 4]) for n in range(8)])
    before = api.session(sid)
    with app.app_context():
        session = db.session.get(GameSession, sid)
        game, table = get_game("dixit"), table_of(session)
        assert not game.end_reads_totals(table)
        db.session.remove()
    second = {**turn("Ben"), "votes": {"Ann": 3, "Cy": 2, "Dee": 2}}
    sixth = {**turn("Ben"), "votes": {"Ann": 1, "Cy": 4, "Dee": 2}}
    answer = api.client.put(
        f"/api/sessions/{sid}/rounds", json={"rounds": {"2": second, "6": sixth}}
    )
    assert answer.status_code == 200, answer.get_json()
    with app.app_context():
        rows = [tuple(s[:2]) for s in running_shifts.held(sid)]
        db.session.remove()
    assert rows == [(2, 5), (6, 8)]
    assert stored_rows(app, sid) == full_replay(app, sid)
    after = api.session(sid)
    assert after["totals"] != before["totals"]
    whole = api.client.get(f"/api/sessions/{sid}?rounds=all").get_json()
    running = running_series(
        dict.fromkeys(seats, 0), [r["result"]["deltas"] for r in whole["rounds"]]
    )
    assert after["totals"] == running[-1]
    with app.app_context():
        assert chart_points(sid, 8) == list(enumerate(running, 1))  # the shifts added
        db.session.remove()


def running_series(start: dict[str, int], deltas: list[dict[str, int]]) -> list[dict[str, int]]:
    """Return the running totals after each round, from ``start``."""
    series = []
    for changes in deltas:
        start = running_totals(start, [changes])
        series.append(start)
    return series


def test_a_corrected_round_after_rounds_read_ahead_is_read(monkeypatch):
    """Rounds 1 and 10 of 20 corrected: round 1 moves the state, so rounds 2-9 are read ahead;
    round 2 leaves its stored state again, and round 10 (whose round before was read ahead,
    itself not) is still read: the replay goes on to it."""
    asked: list[tuple[int, int]] = []

    def fake(session_id: int, first: int, last: int) -> list[later_rounds.StoredRound]:
        asked.append((first, last))
        return [later_rounds.StoredRound(n, n, {}, {"n": n}) for n in range(first, last + 1)]

    monkeypatch.setattr(later_rounds, "read_whole", fake)
    rounds = later_rounds.CorrectedRounds(1, [1, 10], 20)
    first = rounds.first()
    second = rounds.after(first, True)
    assert second is not None and second.number == 2
    tenth = rounds.after(second, False)
    assert tenth is not None and tenth.number == 10
    assert rounds.stored_state_before(tenth) == {"n": 9}
    assert asked == [(1, 1), (2, 9), (10, 10)]
