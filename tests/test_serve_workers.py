"""``make run`` serves from two worker processes on one port, and stops them all together."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes need fork")


def free_port() -> int:
    """Return a port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ask(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """Send one request and return (status, JSON body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = None if body is None else json.dumps(body)
        headers = {} if body is None else {"Content-Type": "application/json"}
        connection.request(method, path, payload, headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        connection.close()


def workers_of(pid: int) -> list[int]:
    """Return the ids of a process's children (Linux's /proc)."""
    found = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(text) for text in found.read_text().split()] if found.exists() else []


def test_two_workers_serve_one_port_and_stop_together(tmp_path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite'}"}
    make = "from refapp import create_app\nfrom refapp.extensions import db\n"
    make += "app = create_app()\nwith app.app_context():\n    db.create_all()\n"
    subprocess.run([sys.executable, "-c", make], env=env, cwd=ROOT, check=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "refapp.serving.serve", f"--port={port}", "--workers=2"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert "(2 processes)" in server.stdout.readline()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                status, created = ask(
                    port, "POST", "/api/sessions", {"game": "dixit", "players": ["A", "B", "C"]}
                )
                break
            except OSError:
                time.sleep(0.1)
        assert status == 201
        children = workers_of(server.pid)
        if Path("/proc").exists():
            assert len(children) == 2
        # both processes answer the same stored session, whichever takes the connection
        for _ in range(10):
            status, read = ask(port, "GET", f"/api/sessions/{created['id']}")
            assert status == 200 and read["players"] == ["A", "B", "C"]
    finally:
        server.send_signal(signal.SIGTERM)
        stopped = server.wait(timeout=20)
        if server.stdout is not None:
            server.stdout.close()
    assert stopped == 0
    for child in children:
        with pytest.raises(ProcessLookupError):
            os.kill(child, 0)
