"""One import at a time on a server: a second waits its turn, and past the wait it is 503 busy."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from refapp.services.archive import turns

from .test_archive import MINIMAL, rows

#: a child process that holds the import lock file, as another worker's import would
HOLDER = """
import fcntl, sys, time
handle = open(sys.argv[1], "a+b")
fcntl.flock(handle, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


def assert_busy(response, app, stored) -> None:
    """Assert an import was refused 503 busy with Retry-After and stored nothing."""
    assert response.status_code == 503, response.get_json()
    assert response.get_json()["error"]["code"] == "busy"
    assert int(response.headers["Retry-After"]) > 0
    assert rows(app) == stored


def test_an_import_waits_while_another_runs_in_this_process(client, app, monkeypatch):
    monkeypatch.setattr(turns, "WAIT", 5.0)
    turns.LOCK.acquire()
    releaser = threading.Timer(0.5, turns.LOCK.release)
    began = time.monotonic()
    releaser.start()
    response = client.post("/api/sessions/import", json=MINIMAL)
    releaser.join()
    assert response.status_code == 201, response.get_json()
    assert time.monotonic() - began >= 0.4  # it waited for the other import's end


def test_an_import_past_the_wait_is_busy_and_stores_nothing(client, app, monkeypatch):
    monkeypatch.setattr(turns, "WAIT", 0.3)
    stored = rows(app)
    with turns.LOCK:
        response = client.post("/api/sessions/import", json=MINIMAL)
    assert_busy(response, app, stored)
    assert client.post("/api/sessions/import", json=MINIMAL).status_code == 201


@pytest.mark.skipif(turns.fcntl is None, reason="no file locks on this system (Windows)")
def test_an_import_in_another_worker_process_holds_the_turn(client, app, monkeypatch):
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


def test_a_bad_rounds_parameter_is_refused_before_the_body_is_read(client, app):
    stored = rows(app)
    response = client.post("/api/sessions/import?rounds=x", json=MINIMAL)
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "rounds"
    assert rows(app) == stored
