"""One large import at a time on a server: a second waits briefly, then it is 503 busy; a small
import never waits; every import, small or large, gives back the memory it freed."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from refapp import heaps
from refapp.extensions import db
from refapp.services.archive import imports, memory, turns

from .test_archive import MINIMAL, rows

#: a child process that holds the import lock file, as another worker's import would
HOLDER = """
import fcntl, sys, time
handle = open(sys.argv[1], "a+b")
fcntl.flock(handle, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def every_import_large(monkeypatch):
    """Make every import a large one (MINIMAL is a few hundred bytes)."""
    monkeypatch.setattr(turns, "LARGE", 0)


def assert_busy(response, app, stored) -> None:
    """Assert an import was refused 503 busy with Retry-After and stored nothing."""
    assert response.status_code == 503, response.get_json()
    assert response.get_json()["error"]["code"] == "busy"
    assert int(response.headers["Retry-After"]) > 0
    assert rows(app) == stored


def test_a_large_import_waits_briefly_while_another_runs_in_this_process(
    client, app, monkeypatch, every_import_large
):
    monkeypatch.setattr(turns, "WAIT", 5.0)
    turns.LOCK.acquire()
    releaser = threading.Timer(0.5, turns.LOCK.release)
    began = time.monotonic()
    releaser.start()
    response = client.post("/api/sessions/import", json=MINIMAL)
    releaser.join()
    assert response.status_code == 201, response.get_json()
    assert time.monotonic() - began >= 0.4  # it waited for the other import's end


def test_a_large_import_past_the_wait_is_busy_and_stores_nothing(
    client, app, monkeypatch, every_import_large
):
    monkeypatch.setattr(turns, "WAIT", 0.3)
    stored = rows(app)
    with turns.LOCK:
        response = client.post("/api/sessions/import", json=MINIMAL)
    assert_busy(response, app, stored)
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201


@pytest.mark.skipif(turns.fcntl is None, reason="no file locks on this system (Windows)")
def test_a_large_import_in_another_worker_process_holds_the_turn(
    client, app, monkeypatch, every_import_large
):
    if on_postgresql(app):
        pytest.skip("on PostgreSQL the turn is the database's advisory lock (the test below)")
    monkeypatch.setattr(turns, "WAIT", 0.5)
    lock = Path(app.instance_path) / "import.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        assert_busy(client.post("/api/sessions/import", json=MINIMAL), app, rows(app))
    finally:
        holder.kill()
        holder.wait(timeout=10)
        holder.stdout.close()
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201


def on_postgresql(app) -> bool:
    """Return True when the tests run on PostgreSQL."""
    with app.app_context():
        return bool(db.engine.dialect.name == "postgresql")


def test_a_large_import_on_another_host_holds_the_turn_on_postgresql(
    client, app, monkeypatch, every_import_large
):
    if not on_postgresql(app):
        pytest.skip("SQLite is one host's file: the lock file is the turn (the test above)")
    monkeypatch.setattr(turns, "WAIT", 0.5)
    taken = f"SELECT pg_try_advisory_lock({turns.IMPORT_LOCK})"
    given = f"SELECT pg_advisory_unlock({turns.IMPORT_LOCK})"
    # another host's import: the advisory lock held on a connection of its own
    with app.app_context():  # the test's own database (each -n worker has one)
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as other:
        assert other.execute(taken).fetchone() == (True,)
        try:
            assert_busy(client.post("/api/sessions/import", json=MINIMAL), app, rows(app))
        finally:
            other.execute(given)
        assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201
        assert other.execute(taken).fetchone() == (True,)  # the import gave the lock back
        other.execute(given)


def test_a_bad_rounds_parameter_is_refused_before_the_body_is_read(client, app):
    stored = rows(app)
    response = client.post("/api/sessions/import?rounds=x", json=MINIMAL)
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "rounds"
    assert rows(app) == stored


def test_a_second_large_import_while_one_runs_is_busy_and_stores_nothing(
    app, monkeypatch, every_import_large
):
    monkeypatch.setattr(turns, "WAIT", 0.2)
    inside, go_on = threading.Event(), threading.Event()
    replay = imports.replay

    def held_replay(body):
        """Replay the first import only once the second has been answered."""
        inside.set()
        assert go_on.wait(10)
        return replay(body)

    monkeypatch.setattr(imports, "replay", held_replay)
    answers = {}

    def first() -> None:
        answers["first"] = app.test_client().post("/api/sessions/import", json=MINIMAL)

    runner = threading.Thread(target=first)
    runner.start()
    assert inside.wait(10)
    second = app.test_client().post("/api/sessions/import", json=MINIMAL)
    assert_busy(second, app, rows(app))  # nothing stored meanwhile: the first is replaying
    go_on.set()
    runner.join(10)
    assert answers["first"].status_code == 201
    stored = rows(app)
    assert (stored["GameSession"], stored["Round"], stored["AuditEntry"]) == (1, 1, 1)


def test_a_small_import_never_waits_for_a_large_one(client, app, monkeypatch):
    monkeypatch.setattr(turns, "WAIT", 5.0)
    with turns.LOCK:  # a large import holds the turn
        began = time.monotonic()
        response = client.post("/api/sessions/import", json=MINIMAL)
        assert time.monotonic() - began < 4
    assert response.status_code == 201, response.get_json()
    assert rows(app)["GameSession"] == 1


def test_a_large_import_gives_its_memory_back(client, monkeypatch, every_import_large):
    given: list[bool] = []
    monkeypatch.setattr(turns, "give_back", lambda: given.append(True))
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201
    assert given == [True]


def test_a_small_import_gives_its_memory_back_too(client, monkeypatch):
    given: list[bool] = []
    monkeypatch.setattr(turns, "give_back", lambda: given.append(True))
    assert not turns.is_large(len(str(MINIMAL)))
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201
    assert given == [True]  # a small import holds several times its body at its peak too


def test_a_refused_small_import_gives_its_memory_back(client, monkeypatch):
    given: list[bool] = []
    monkeypatch.setattr(turns, "give_back", lambda: given.append(True))
    broken = {**MINIMAL, "rounds": "none"}
    assert client.post("/api/sessions/import", json=broken).status_code >= 400
    assert given == [True]


def test_giving_memory_back_never_fails(monkeypatch):
    memory.give_back()
    memory.trimmer.cache_clear()
    monkeypatch.setattr(memory.ctypes.util, "find_library", lambda name: None)
    try:
        assert memory.trimmer() is None
        memory.give_back()  # no C library to trim: the collection alone
    finally:
        memory.trimmer.cache_clear()


def test_a_large_import_lets_polls_take_their_turn_and_puts_things_back(
    client, monkeypatch, every_import_large
):
    seen: list[float] = []
    replay = imports.replay

    def watched(body):
        """Note the switch interval while the import replays."""
        seen.append(sys.getswitchinterval())
        return replay(body)

    monkeypatch.setattr(imports, "replay", watched)
    before = sys.getswitchinterval()
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201
    assert seen == [min(before, turns.SWITCH)]
    assert sys.getswitchinterval() == before


def test_small_imports_take_turns_and_one_past_the_wait_is_busy(client, app, monkeypatch):
    monkeypatch.setattr(turns, "SMALL_WAIT", 0.3)
    stored = rows(app)
    with turns.SMALL:  # another small import is replaying in this process
        began = time.monotonic()
        response = client.post("/api/sessions/import", json=MINIMAL)
        assert time.monotonic() - began >= 0.25  # it waited its turn first
    assert_busy(response, app, stored)
    monkeypatch.setattr(turns, "SMALL_WAIT", 5.0)
    turns.SMALL.acquire()
    releaser = threading.Timer(0.3, turns.SMALL.release)
    releaser.start()
    response = client.post("/api/sessions/import", json=MINIMAL)
    releaser.join()
    assert response.status_code == 201, response.get_json()
    assert not turns.SMALL.locked()  # given back after the import


def test_an_import_reads_its_file_unmapped_and_its_connection_is_mapped_again(
    client, app, monkeypatch
):
    from refapp.extensions import MMAP_BYTES, db

    used: list[object] = []
    during: list[int] = []
    replay = imports.replay

    def watched(body):
        """Note the import's driver connection and its memory map while it replays."""
        raw = db.session.connection().connection.driver_connection
        used.append(raw)
        if isinstance(raw, sqlite3.Connection):
            during.append(raw.execute("PRAGMA mmap_size").fetchone()[0])
        return replay(body)

    monkeypatch.setattr(imports, "replay", watched)
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201
    if not isinstance(used[0], sqlite3.Connection):  # PostgreSQL: nothing is mapped
        assert during == []
        return
    assert during == [0]
    # back in the pool, the same connection reads mapped again
    assert used[0].execute("PRAGMA mmap_size").fetchone()[0] == MMAP_BYTES


def test_a_server_makes_its_threads_share_few_heaps(monkeypatch):
    import refapp

    chosen: list[tuple[int, int]] = []
    heaps.mallopt.cache_clear()
    monkeypatch.setattr(
        heaps, "mallopt", lambda: lambda option, value: chosen.append((option, value)) or 1
    )
    monkeypatch.setattr(refapp, "create_app", lambda: "the app")
    assert refapp.served_app() == "the app"
    assert chosen == [(heaps.M_ARENA_MAX, heaps.ARENAS)]
