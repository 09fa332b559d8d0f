"""Every write to a session runs alone: each pair of writes raced over HTTP leaves it whole.

A real server (waitress, several threads) serves the test app; two threads released together
send two writes to one session. Afterwards the session must replay from its stored inputs to its
stored results, states and totals, its rounds must be numbered 1..n, its audit trail must hold
exactly one entry per write that succeeded, and its version must have grown once per write.
Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

import pytest
from sqlalchemy import select
from waitress.server import create_server

from refapp import services
from refapp.extensions import db
from refapp.games import get_game
from refapp.models import AuditEntry, GameSession, Round

from .browser_support import run_until_closed
from .conftest import turn

WRITES = ("record", "correct", "undo", "finish", "rename")
TRIES = 3
#: how many audit entries a write that succeeded adds
AUDITED = {"record": 1, "correct": 1, "undo": 1, "finish": 1, "rename": 1}


@pytest.fixture
def slow_audit(monkeypatch):
    """Widen every write's window between what it read and its commit (each write audits)."""
    from refapp.services import writes

    def audit_slowly(*args, **kwargs):
        time.sleep(0.03)
        return services_audit(*args, **kwargs)

    services_audit = writes.audit
    monkeypatch.setattr(writes, "audit", audit_slowly)


@pytest.fixture
def served(app, slow_audit):
    """Serve the app over HTTP on a free loopback port; yield its base URL."""
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=run_until_closed, args=(server,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    thread.join(timeout=10)


def http(method: str, url: str, body: dict | None = None, headers: dict | None = None):
    """Send one request; return (status, JSON body or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else None


def seated(tag: str) -> list[str]:
    """Return four player names unique to one try (a rename touches every session of a name)."""
    return [f"{name}{tag}" for name in ("Ann", "Ben", "Cy", "Dee")]


def write(kind: str, base: str, sid: int, players: list[str]):
    """Send one kind of write to session sid as a phone would."""
    url = f"{base}/api/sessions/{sid}"
    ann, ben, _cy, dee = players
    if kind == "record":  # round 3: Cy tells after Ann and Ben
        return http("POST", f"{url}/rounds", turn(players[2], players))
    if kind == "correct":  # round 1 told by Dee instead: round 2 (Ben) then breaks the rotation
        return http("PUT", f"{url}/rounds/1", turn(dee, players))
    if kind == "undo":
        return http("DELETE", f"{url}/rounds/2")
    if kind == "finish":
        return http("POST", f"{url}/finish")
    return http("POST", f"{base}/api/players/{ben}/rename", {"name": f"{ben}x{ann}"})


def check_whole(app, sid: int) -> GameSession:
    """Assert the stored session replays to its own rounds, totals and state; return it."""
    with app.app_context():
        session = db.session.get(GameSession, sid)
        rounds = db.session.scalars(
            select(Round).where(Round.session_id == sid).order_by(Round.number)
        ).all()
        assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
        game = get_game(session.game)
        table = services.table_of(session)
        state, totals = dict(session.initial_state), dict.fromkeys(session.players, 0)
        for played in rounds:
            outcome = game.play(table, state, played.input)
            assert outcome.result["deltas"] == played.result["deltas"], played.number
            assert outcome.state == played.state, played.number
            state = outcome.state
            for name, delta in outcome.result["deltas"].items():
                totals[name] += delta
        assert session.totals == totals
        assert session.round_count == len(rounds)
        actions = Counter(
            db.session.scalars(select(AuditEntry.action).where(AuditEntry.session_id == sid))
        )
        assert actions["record_round"] - actions["delete_round"] == len(rounds)
        db.session.expunge(session)
        return session


def race_pair(base: str, sid: int, players: list[str], first: str, second: str):
    """Send two writes released at the same moment; return their (kind, status, body)."""
    start = threading.Barrier(2)
    answers: list[tuple[str, int, dict | None]] = []
    lock = threading.Lock()

    def phone(kind: str) -> None:
        start.wait()
        status, body = write(kind, base, sid, players)
        with lock:
            answers.append((kind, status, body))

    threads = [threading.Thread(target=phone, args=(kind,)) for kind in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


@pytest.mark.parametrize(
    ("first", "second"), list(itertools.combinations_with_replacement(WRITES, 2))
)
def test_racing_writes_leave_the_session_whole(app, served, first, second):
    for attempt in range(TRIES):
        players = seated(f"{first[:2]}{second[:2]}{attempt}")
        status, created = http(
            "POST",
            f"{served}/api/sessions",
            {"game": "dixit", "players": players, "rules": {"target_score": 10**6}},
        )
        assert status == 201, created
        sid = created["id"]
        for storyteller in players[:2]:
            status, body = http(
                "POST", f"{served}/api/sessions/{sid}/rounds", turn(storyteller, players)
            )
            assert status == 201, body
        version = 3
        answers = race_pair(served, sid, players, first, second)
        for kind, status, body in answers:
            assert status in (200, 201, 404, 409, 422), (kind, status, body)
            if status >= 400:
                assert body["error"]["code"] in (
                    "not_found", "session_finished", "lost_race", "not_last_round",
                    "wrong_storyteller", "player_conflict", "unknown_player",
                ), (kind, body)  # fmt: skip
        succeeded = [kind for kind, status, _ in answers if status < 300]
        session = check_whole(app, sid)
        assert session.version == version + len(succeeded), answers
        with app.app_context():
            entries = db.session.scalars(
                select(AuditEntry.action).where(AuditEntry.session_id == sid)
            ).all()
        assert len(entries) == 3 + sum(AUDITED[kind] for kind in succeeded), (answers, entries)
        if (first, second) == ("undo", "undo"):
            assert sorted(status for _, status, _ in answers) == [200, 404], answers
        if "rename" in (first, second):
            names = session.players
            assert all(name in names for name in session.totals), (names, session.totals)


def test_two_undos_of_one_round_store_one(app, served, api):
    sid = api.create(rules={"target_score": 10**6})["id"]
    for storyteller in ("Ann", "Ben"):
        assert api.record(sid, turn(storyteller)).status_code == 201
    answers = race_pair(served, sid, ["Ann", "Ben", "Cy", "Dee"], "undo", "undo")
    assert sorted(status for _, status, _ in answers) == [200, 404]
    assert [e["action"] for e in api.audit(sid)].count("delete_round") == 1
    assert api.session(sid)["rounds_total"] == 1
