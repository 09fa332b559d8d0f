"""A session's event stream on ``make run``'s server (two worker processes): pushed, not polled.

Streams are opened with plain sockets against ``python -m refapp.serving.serve --workers=2``;
rounds are recorded through the API (in either process); every stream is told the new version
within half a second, held by the event loop (200 open streams leave the worker threads free),
kept past the keep-alive with heartbeats, and refused for a session that does not exist.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from refapp.serving import pace, stream

from .conftest import turn
from .test_serve_front import asked, connect, head, read_answer, timed

#: timed bars beside other processes would be flaky; the server is started and stopped
pytestmark = [
    pytest.mark.serial,
    pytest.mark.waits,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes need fork"),
]

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
#: the bar: a change reaches every phone's stream within this (seconds)
IN_STEP = 0.5
VERSION = re.compile(rb'"version": ?(\d+)')


class Served(NamedTuple):
    """The running server: its port."""

    port: int


def free_port() -> int:
    """Return a port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    """Run ``make run``'s server (two worker processes) on a fresh database."""
    folder = tmp_path_factory.mktemp("stream")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'run.sqlite'}"}
    env.pop("REFAPP_PASSWORD", None)
    make = "from refapp import create_app\nfrom refapp.extensions import db\n"
    make += "app = create_app()\nwith app.app_context():\n    db.create_all()\n"
    subprocess.run([sys.executable, "-c", make], env=env, cwd=ROOT, check=True)
    command = [sys.executable, "-m", "refapp.serving.serve", f"--port={port}", "--workers=2"]
    with (folder / "server.log").open("w") as log:
        server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield Served(port)
    finally:
        server.terminate()
        server.wait(timeout=15)


def ask(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """Send one API request; return its status and JSON body."""
    status, _took, payload = answered(port, method, path, body)
    return status, payload


def answered(
    port: int, method: str, path: str, body: dict | None = None
) -> tuple[int, float, dict]:
    """Send one API request; return its status, when it was answered and its JSON body."""
    sock = connect(port, source="127.0.0.9")
    try:
        data = b"" if body is None else json.dumps(body).encode()
        lines = ["Content-Type: application/json"] if body is not None else []
        sock.sendall(head(method, path, *lines, f"Content-Length: {len(data)}") + data)
        status, _headers, raw = read_answer(sock)
        return status, time.monotonic(), json.loads(raw or b"{}")
    finally:
        sock.close()


def new_session(port: int) -> int:
    """Create a Dixit session; return its id."""
    status, created = ask(port, "POST", "/api/sessions", {"game": "dixit", "players": PLAYERS})
    assert status == 201, created
    return int(created["id"])


class Follower:
    """One phone's open stream, read as it comes."""

    def __init__(self, port: int, session_id: int, source: str = "127.0.0.1") -> None:
        self.sock = connect(port, source=source)
        self.sock.sendall(head("GET", f"/api/sessions/{session_id}/events"))
        self.raw = b""
        self.told: dict[int, float] = {}

    def take(self) -> bool:
        """Read what arrived (the socket is readable); False once the server closed it."""
        chunk = self.sock.recv(65536)
        now = time.monotonic()
        self.raw += chunk
        for found in VERSION.finditer(self.raw):
            self.told.setdefault(int(found.group(1)), now)
        return bool(chunk)

    def close(self) -> None:
        """Close the stream."""
        self.sock.close()


def read_until(followers: list[Follower], done, seconds: float) -> None:
    """Read every stream until ``done(follower)`` holds for all, or seconds pass."""
    chooser = selectors.DefaultSelector()
    for follower in followers:
        follower.sock.setblocking(False)
        chooser.register(follower.sock, selectors.EVENT_READ, follower)
    deadline = time.monotonic() + seconds
    try:
        while not all(done(f) for f in followers) and time.monotonic() < deadline:
            for key, _ in chooser.select(timeout=0.05):
                if not key.data.take():
                    chooser.unregister(key.fileobj)
    finally:
        chooser.close()


def record(port: int, session_id: int, storyteller: str) -> tuple[int, float]:
    """Record a Dixit turn; return its version and when it was answered."""
    path = f"/api/sessions/{session_id}/rounds?rounds=none"
    status, at, payload = answered(port, "POST", path, turn(storyteller, PLAYERS))
    assert status == 201, payload
    return int(payload["session"]["version"]), at


def test_every_stream_is_told_each_round_within_half_a_second(served):
    """20 phones follow one session (their connections spread over both processes), another
    session's phone too; three rounds recorded: each reaches every phone of its session within
    IN_STEP of its answer, and nothing reaches the other session's phone."""
    table, other = new_session(served.port), new_session(served.port)
    phones = [Follower(served.port, table) for _ in range(20)]
    stranger = Follower(served.port, other)
    try:
        read_until([*phones, stranger], lambda f: 1 in f.told, 5)
        assert all(set(f.told) == {1} for f in [*phones, stranger])
        assert all(f.raw.startswith(b"HTTP/1.1 200 OK\r\n") for f in phones)
        assert all(b"text/event-stream" in f.raw and b"retry: 2000" in f.raw for f in phones)
        lags = []
        for storyteller in ["Ann", "Ben", "Cy"]:
            version, at = record(served.port, table, storyteller)
            read_until(phones, lambda f, v=version: v in f.told, 3)
            lags += [f.told[version] - at for f in phones if version in f.told]
        assert len(lags) == 3 * len(phones)
        assert max(lags) <= IN_STEP, sorted(lags)[-5:]
        read_until([stranger], lambda f: len(f.told) > 1, 0.3)
        assert set(stranger.told) == {1}
    finally:
        for follower in [*phones, stranger]:
            follower.close()


def test_a_stream_of_no_session_is_refused(served):
    """A missing session's stream is the API's 404; an id past the column's range too."""
    for missing in [999_999, 10**12]:
        status, headers, body = asked(served.port, head("GET", f"/api/sessions/{missing}/events"))
        assert status == 404 and headers["content-type"] == "application/json"
        assert json.loads(body)["error"]["code"] == "not_found"


def test_200_open_streams_hold_no_worker_thread(served):
    """200 streams (more than the 16 worker threads of both processes) stay open; a round and a
    poll are still answered at once, and every stream is told the round within IN_STEP."""
    table = new_session(served.port)
    phones = [Follower(served.port, table, f"127.0.7.{n % 50 + 1}") for n in range(200)]
    try:
        read_until(phones, lambda f: 1 in f.told, 10)
        assert sum(1 in f.told for f in phones) == 200
        status, took = timed(served.port, "GET", f"/api/sessions/{table}?rounds=none", "127.0.0.8")
        assert status == 200 and took < 1
        sent = time.monotonic()
        version, at = record(served.port, table, "Dee")
        assert at - sent < 1  # a worker thread took the round at once
        read_until(phones, lambda f: version in f.told, 3)
        lags = [f.told[version] - at for f in phones if version in f.told]
        assert len(lags) == 200 and max(lags) <= IN_STEP, sorted(lags)[-5:]
    finally:
        for follower in phones:
            follower.close()


def test_a_quiet_stream_stays_open_past_the_keep_alive_and_hears_heartbeats(served):
    """A stream with nothing to tell is not closed as idle (pace.KEEP_ALIVE) nor as silent: it
    gets a comment line each stream.HEARTBEAT seconds, and is still told the next round."""
    assert pace.KEEP_ALIVE < stream.HEARTBEAT < 30
    table = new_session(served.port)
    phone = Follower(served.port, table)
    try:
        read_until([phone], lambda f: f.raw.count(b": still here") >= 1, stream.HEARTBEAT + 3)
        assert b": still here" in phone.raw
        told_in_step(served.port, table, phone, "Ann")
    finally:
        phone.close()


def test_a_phone_that_leaves_is_forgotten(served):
    """Streams closed by their phones are let go; the next one is served as the first."""
    table = new_session(served.port)
    for _ in range(3):
        phones = [Follower(served.port, table) for _ in range(10)]
        read_until(phones, lambda f: len(f.told) >= 1, 5)
        for follower in phones:
            follower.close()
    phone = Follower(served.port, table)
    try:
        told_in_step(served.port, table, phone, "Ben")
    finally:
        phone.close()


def told_in_step(port: int, table: int, phone: Follower, storyteller: str) -> None:
    """Record a round and assert the phone's stream tells it within IN_STEP of its answer."""
    version, at = record(port, table, storyteller)
    read_until([phone], lambda f: version in f.told, 3)
    assert phone.told[version] - at <= IN_STEP


def test_elsewhere_the_stream_is_204_and_the_page_polls(client):
    """Under another server (the test client, gunicorn) the route answers 204 (an EventSource
    stops; the page polls) and the session page names no stream."""
    created = client.post("/api/sessions", json={"game": "dixit", "players": PLAYERS}).get_json()
    answer = client.get(f"/api/sessions/{created['id']}/events")
    assert answer.status_code == 204 and answer.data == b""
    assert client.get("/api/sessions/999999/events").status_code == 404
    page = client.get(f"/sessions/{created['id']}").get_data(as_text=True)
    assert "data-poll=" in page and "data-stream=" not in page


class FakeChannel:
    """A connection as the watcher sees it: what it was told, and whether it was closed."""

    def __init__(self) -> None:
        self.stream: stream.Stream | None = None
        self.told: list[bytes] = []
        self.dropped = False

    def push(self, data: bytes) -> None:
        """Keep what the stream was told."""
        self.told.append(data)

    def pull(self, thunk) -> None:
        """Run it at once (the event loop's part)."""
        thunk()

    def drop(self) -> None:
        """Note the close."""
        self.dropped = True


def test_the_watcher_asks_once_for_all_sessions_and_tells_only_the_moved(monkeypatch):
    """One query a round names every watched session once; a stream is told its session's new
    version (chunked), a quiet one a heartbeat after HEARTBEAT, a gone session's stream closed;
    nothing is asked while nothing is watched."""
    asked: list[list[int]] = []
    versions = {1: 5, 2: 7, 3: 1}

    def query(ids: list[int]) -> dict[int, int]:
        asked.append(ids)
        return {i: versions[i] for i in ids if i in versions}

    watcher = stream.Watcher(query)
    watcher.round()
    assert asked == []
    a, b, c, gone = FakeChannel(), FakeChannel(), FakeChannel(), FakeChannel()
    for channel, session_id, version in [(a, 1, 5), (b, 1, 5), (c, 2, 7), (gone, 3, 1)]:
        watcher.held[channel] = stream.Stream(session_id, version, chunked=True)
    del versions[3]
    versions[1] = 6
    watcher.round()
    assert asked == [[1, 2, 3]]
    event = stream.version_event(6)
    assert a.told == b.told == [b"%X\r\n%s\r\n" % (len(event), event)]
    assert c.told == [] and gone.dropped
    now = time.monotonic()
    monkeypatch.setattr(stream.time, "monotonic", lambda: now + stream.HEARTBEAT + 1)
    watcher.held.pop(gone)
    watcher.round()
    assert c.told and stream.HEARTBEAT_LINE in c.told[-1] and len(a.told) == 2


def test_a_stream_its_client_does_not_take_is_closed(tmp_path):
    """A stream whose unsent bytes pass stream.BACKLOG is closed (its memory let go)."""
    from waitress.adjustments import Adjustments

    from refapp.serving.crowd import RefereeChannel

    class Server:
        """What a connection asks of its server here."""

        active_channels: dict = {}
        watcher = None

    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    ours.setblocking(False)
    channel = RefereeChannel(Server(), ours, ("127.0.0.1", 1), Adjustments(), map={})
    channel.stream = stream.Stream(1, 1, chunked=False)
    try:
        for _ in range(2000):  # the client reads nothing
            if not channel.connected:
                break
            channel.push(b"x" * 512)
        assert not channel.connected
        assert channel.total_outbufs_len == 0
    finally:
        theirs.close()
        ours.close()


def test_a_process_holds_streams_in_at_most_half_its_connections(tmp_path):
    """With room for 8 connections a process holds 4 streams; the fifth is answered 204 (the
    page polls) and the server still answers the others."""
    import threading

    from refapp.extensions import db
    from refapp.serving import front

    from .conftest import make_test_app

    app = make_test_app(f"sqlite:///{tmp_path / 'few.sqlite'}")
    with app.app_context():
        db.create_all()
    server = front.create_server(app, host="127.0.0.1", port=0, threads=2, connection_limit=8)
    threading.Thread(target=server.run, daemon=True).start()
    port = int(server.effective_port)
    phones: list[Follower] = []
    try:
        table = new_session(port)
        phones = [Follower(port, table) for _ in range(4)]
        read_until(phones, lambda f: 1 in f.told, 5)
        assert all(f.raw.startswith(b"HTTP/1.1 200 OK") for f in phones)
        sock = connect(port)
        try:
            sock.sendall(head("GET", f"/api/sessions/{table}/events"))
            status, _headers, body = read_answer(sock)
        finally:
            sock.close()
        assert status == 204 and body == b""
        assert ask(port, "GET", f"/api/sessions/{table}?rounds=none")[0] == 200
    finally:
        for follower in phones:
            follower.close()
        server.close()
        with app.app_context():
            db.engine.dispose()
