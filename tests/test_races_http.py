"""Races over real HTTP against gunicorn with several worker processes: no 500, no lost write.

A gunicorn (3 processes of 4 threads, as ``make serve-club`` runs it) serves an app on a
temporary SQLite file built by the migrations, or on the TEST_DATABASE_URL database; threads
released together play phones at one table. Every loop is bounded in count and time, and only
127.0.0.1 is spoken to.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from flask_migrate import upgrade

from refapp.extensions import db

from .conftest import make_test_app, migrated_sqlite_app, turn

#: the last test counts the sessions the races before it made in the module's one database: a
#: second test process beside the races (-n 2) made that count fall short in 2 runs of 4
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")
#: the app gunicorn serves: its own instance folder and secret, the database from the env
WSGI = """
import os
from refapp import create_app
app = create_app({"SECRET_KEY": "race", "SQLALCHEMY_DATABASE_URI": os.environ["RACE_DATABASE"]})
app.instance_path = os.environ["RACE_INSTANCE"]
"""
#: how long one request may take before the test fails (s); the busy timeout is 30 s
TIMEOUT = 40
TRIES = 20
#: how long the slow write keeps SQLite's lock (s): past the old 5 s busy timeout, which turned
#: every write waiting behind it into a 500
HOLD = 6.0


def free_port() -> int:
    """Return a free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http(method: str, url: str, body: Any = None, headers: dict | None = None):
    """Send one request; return (status, JSON body or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw) if raw else None
        except ValueError:
            return error.code, {"raw": raw[:200].decode(errors="replace")}


@pytest.fixture(scope="module")
def database(tmp_path_factory, migrated) -> str:
    """Return the URL of a database built by the migrations (a fresh SQLite file, or PostgreSQL)."""
    if migrated:
        return migrated
    url = f"sqlite:///{tmp_path_factory.mktemp('race') / 'race.sqlite'}"
    app = make_test_app(url)
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return url


@pytest.fixture(scope="module")
def server(tmp_path_factory, database) -> Iterator[str]:
    """Run gunicorn (3 processes x 4 threads) on a free loopback port; yield its base URL."""
    folder = tmp_path_factory.mktemp("gunicorn")
    (folder / "race_wsgi.py").write_text(WSGI)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RACE_DATABASE": database}
    env["RACE_INSTANCE"] = str(folder)
    env.pop("REFAPP_PASSWORD", None)
    env.pop("DATABASE_URL", None)
    log = folder / "gunicorn.log"
    command = [
        str(GUNICORN), "--workers=3", "--worker-class=gthread", "--threads=4",
        f"--bind=127.0.0.1:{port}", f"--chdir={folder}", "race_wsgi:app",
    ]  # fmt: skip
    with log.open("w") as errors:
        child = subprocess.Popen(command, stdout=errors, stderr=errors, env=env, cwd=folder)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if http("GET", f"{base}/api/sessions")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail(f"gunicorn did not start: {log.read_text()[-2000:]}")
        yield base
    finally:
        child.terminate()
        child.wait(timeout=20)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released at one moment; return their results in order."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait(timeout=10)
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * TIMEOUT)
    return results


def create(base: str, players: list[str]):
    """Start a Dixit session that never ends; return (status, body)."""
    body = {"game": "dixit", "players": players, "rules": {"target_score": 10**6}}
    return http("POST", f"{base}/api/sessions?rounds=none", body)


def tag(prefix: str) -> str:
    """Return a name part unique to this run (the PostgreSQL database outlives a run)."""
    return f"{prefix}{time.monotonic_ns() % 10**9}"


def test_three_phones_seating_the_same_new_players_all_start(server):
    for attempt in range(TRIES):
        fresh = tag(f"N{attempt}")
        tables = [[f"{fresh}a", f"{fresh}b", f"Old{n}", f"Other{n}"] for n in range(3)]
        answers = together([partial(create, server, t) for t in tables])
        assert [status for status, _ in answers] == [201, 201, 201], answers
        for name in (f"{fresh}a", f"{fresh}b"):
            status, profile = http("GET", f"{server}/api/players/{name}")
            assert (status, profile["sessions_played"]) == (200, 3), (name, profile)


def round_trips(base: str, session_id: int) -> None:
    """Assert a session's export imports again (its names agree everywhere)."""
    status, exported = http("GET", f"{base}/api/sessions/{session_id}/export")
    assert status == 200, exported
    status, body = http("POST", f"{base}/api/sessions/import?rounds=none", exported)
    assert status == 201, (session_id, body)


def test_a_rename_racing_new_sessions_leaves_every_session_exportable(server):
    for attempt in range(8):
        old = tag(f"R{attempt}")
        seated = [old, f"{old}b", f"{old}c", f"{old}d"]
        status, first = create(server, seated)
        assert status == 201, first
        assert (
            http("POST", f"{server}/api/sessions/{first['id']}/rounds", turn(old, seated))[0] == 201
        )
        calls = [partial(create, server, seated) for _ in range(3)]
        calls.append(
            partial(http, "POST", f"{server}/api/players/{old}/rename", {"name": f"{old}x"})
        )
        answers = together(calls)
        assert [status for status, _ in answers] == [201, 201, 201, 200], answers
        for session_id in [first["id"], *(body["id"] for _, body in answers[:3])]:
            round_trips(server, session_id)
            status, session = http("GET", f"{server}/api/sessions/{session_id}?rounds=none")
            renamed = old not in session["players"]
            entries = http("GET", f"{server}/api/sessions/{session_id}/audit")[1]["entries"]
            assert renamed == any(e["action"] == "rename_player" for e in entries), session


def test_a_merge_racing_a_new_session_moves_no_seat_unseen(server):
    for attempt in range(8):
        name = tag(f"M{attempt}")
        into = f"{name}z"
        others = [f"{name}b", f"{name}c"]
        assert create(server, [name, *others])[0] == 201
        assert create(server, [into, f"{name}e", f"{name}f"])[0] == 201
        answers = together(
            [
                partial(create, server, [name, *others, f"{name}g"]),
                partial(http, "POST", f"{server}/api/players/{name}/rename", {"name": into}),
            ]
        )
        (made, new), (merged, _) = answers
        assert (made, merged) == (201, 200), answers
        session = http("GET", f"{server}/api/sessions/{new['id']}?rounds=none")[1]
        entries = http("GET", f"{server}/api/sessions/{new['id']}/audit")[1]["entries"]
        actions = [entry["action"] for entry in entries]
        if into in session["players"]:  # created first, then merged: the merge shows
            assert "rename_player" in actions, (session, actions)
            assert session["version"] == 2, session
        else:  # created after the merge: a new player of the old name
            assert session["players"][0] == name
            assert actions == ["create_session"]
        round_trips(server, new["id"])


def corrected(players: list[str], attempt: int) -> dict[str, Any]:
    """Return a correction of rounds 2 and 3 (told by players 1 and 2), its votes moved by
    ``attempt`` so that each one changes the rounds."""
    rounds = {}
    for number in (2, 3):
        teller = players[number - 1]
        others = [name for name in players if name != teller]
        wrong = others[attempt % len(others)]  # this finder voted for another's card after all
        votes = {name: 1 for name in others} | {wrong: 3 if wrong == others[0] else 2}
        rounds[str(number)] = {**turn(teller, players), "votes": votes}
    return {"rounds": rounds}


def test_a_rename_racing_a_multi_round_correction_is_never_a_500(server):
    """The correction is worked out before its lock; a rename committing meanwhile makes it
    worked out again under the lock (or refused: it names the old name), never a 500."""
    base = tag("K")
    players = [f"{base}{seat}" for seat in "abcd"]
    status, made = create(server, players)
    assert status == 201, made
    sid = made["id"]
    for number in range(12):
        teller = players[number % 4]
        assert http("POST", f"{server}/api/sessions/{sid}/rounds?rounds=none",
                    turn(teller, players))[0] == 201  # fmt: skip
    outcomes = []
    for attempt in range(TRIES):
        new = f"{base}a{attempt}"  # the teller of round 1: named in the state before round 2
        answers = together(
            [
                partial(
                    http,
                    "PUT",
                    f"{server}/api/sessions/{sid}/rounds?rounds=none",
                    corrected(players, attempt),
                ),
                partial(http, "POST", f"{server}/api/players/{players[0]}/rename", {"name": new}),
            ]
        )
        (fixed, answer), (renamed, _) = answers
        assert renamed == 200, answers
        assert fixed in (200, 422), answers
        if fixed == 422:  # the rename came first: the correction names a player gone
            assert answer["error"]["code"] == "unknown_player", answer
        outcomes.append(fixed)
        players[0] = new
    status, session = http("GET", f"{server}/api/sessions/{sid}?rounds=all")
    assert status == 200 and session["players"] == players, session
    entries = http("GET", f"{server}/api/sessions/{sid}/audit")[1]["entries"]
    actions = [entry["action"] for entry in entries]
    assert actions.count("rename_player") == TRIES
    assert actions.count("replace_round") == 2 * outcomes.count(200)
    round_trips(server, sid)


def test_writes_wait_for_a_slow_write_holding_the_lock(server, database):
    if not database.startswith("sqlite:///"):
        pytest.skip("SQLite's one write lock; PostgreSQL locks rows (test_races_busy)")
    sessions = []
    for n in range(4):
        status, body = create(server, [f"{tag('S')}{n}{seat}" for seat in "abcd"])
        assert status == 201, body
        sessions.append((body["id"], body["players"]))
    holder = sqlite3.connect(
        database.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False
    )
    holder.execute("BEGIN IMMEDIATE")  # a write that keeps the lock HOLD s (a long correction)
    release = threading.Timer(HOLD, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        started = time.monotonic()
        calls = [
            lambda sid=sid, players=players: http(
                "POST", f"{server}/api/sessions/{sid}/rounds?rounds=none", turn(players[0], players)
            )
            for sid, players in sessions
        ]
        calls += [lambda: create(server, [tag("W"), "Ann", "Ben"]) for _ in range(4)]
        answers = together(calls)
        waited = time.monotonic() - started
    finally:
        release.join(timeout=10)
        holder.close()
    assert [status for status, _ in answers] == [201] * 8, answers
    assert waited >= HOLD - 0.5, waited  # they waited for the lock rather than failing fast


def test_after_the_races_the_whole_database_backs_up_and_restores(server, database, tmp_path):
    """Every session the races left (renamed, merged, imported) comes back from a backup."""
    source = make_test_app(database)
    path = tmp_path / "raced.json"
    result = source.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    target = migrated_sqlite_app(tmp_path / "restored.sqlite")
    result = target.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    listed = http("GET", f"{server}/api/sessions?per_page=100")[1]
    assert listed["total"] > 40  # the races above made that many sessions
    reader = target.test_client()
    for page in range(1, listed["pages"] + 1):
        for row in http("GET", f"{server}/api/sessions?per_page=100&page={page}")[1]["sessions"]:
            original = http("GET", f"{server}/api/sessions/{row['id']}?rounds=none")[1]
            restored = reader.get(f"/api/sessions/{row['id']}?rounds=none").get_json()
            for key in ("players", "totals", "rounds_total", "finished"):
                assert restored[key] == original[key], (row["id"], key)
    with source.app_context():
        db.engine.dispose()
    with target.app_context():
        db.engine.dispose()
