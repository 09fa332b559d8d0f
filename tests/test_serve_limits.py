"""waitress as ``make run`` starts it (refapp.serving.serve): slow clients, huge bodies, loopback.

Each test starts a real waitress in a child process on a free 127.0.0.1 port (an app on a
temporary SQLite file) and talks to it over sockets, the way a phone or a hostile client would.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from refapp import MAX_BODY
from refapp.services import archive
from refapp.serving import pace as front_pace
from refapp.serving import serve

from .test_serve_front import served as waitress

#: run alone (make test, make test-fast), not beside a second test process: phones are timed (under
#  3 s) beside slow clients sized to what both cores hold
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
SLOW_CLIENTS = 110


@contextmanager
def slow_clients(port: int, count: int = SLOW_CLIENTS, trickle: bool = True):
    """Open count connections that send part of a request line (and, trickling, a byte a second)."""
    sockets = []
    stop = threading.Event()
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET /api/sessions?slow=")
            sockets.append(sock)

        def drip():
            while not stop.wait(0.5):
                for sock in sockets:
                    with suppress(OSError):
                        sock.sendall(b"a")

        dripper = threading.Thread(target=drip, daemon=True)
        if trickle:
            dripper.start()
        yield sockets
    finally:
        stop.set()
        if trickle:
            dripper.join(timeout=5)
        for sock in sockets:
            sock.close()


def timed_get(port: int, timeout: float) -> tuple[int | None, float]:
    """GET /api/sessions as a phone would; return (status or None on timeout, seconds)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    start = time.monotonic()
    try:
        connection.request("GET", "/api/sessions")
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    except TimeoutError:
        return None, time.monotonic() - start
    finally:
        connection.close()


def test_settings_fit_every_legal_body():
    """waitress's body limit lies above the largest legal body (an import) and MAX_BODY."""
    chosen = serve.settings()
    # waitress refuses a Content-Length >= its limit
    assert chosen["max_request_body_size"] > max(archive.IMPORT_MAX_BYTES, MAX_BODY)
    # ... and a 300 MB body must still be refused before waitress spools it to disk
    assert chosen["max_request_body_size"] <= 300_000_000, "the import limit grew past 300 MB"
    assert chosen["connection_limit"] >= 4 * SLOW_CLIENTS
    assert chosen["asyncore_use_poll"]  # select() cannot watch descriptors past 1024
    assert chosen["channel_timeout"] <= 60
    # one import being replayed and the next arriving fit the spool of bodies in temporary files
    assert chosen["spool_limit"] >= 2 * max(archive.IMPORT_MAX_BYTES, MAX_BODY)
    # phones poll every 2-3 s: their connections outlive the keep-alive; idle ones go before
    # waitress's silence timeout
    assert 5 <= front_pace.KEEP_ALIVE < chosen["channel_timeout"]


def test_connection_limit_fits_the_open_files_allowed(monkeypatch):
    """Under a low ``ulimit -n`` that cannot be raised, fewer connections, not a crash."""
    monkeypatch.setattr(serve, "raise_file_limit", lambda wanted: 1024)
    chosen = serve.fit_connections(serve.settings())
    needed = serve.FILES_PER_CONNECTION * chosen["connection_limit"] + serve.SPARE_FILES
    assert 100 < chosen["connection_limit"] < serve.CONNECTION_LIMIT
    assert needed <= 1024
    monkeypatch.setattr(serve, "raise_file_limit", lambda wanted: wanted)
    assert serve.fit_connections(serve.settings())["connection_limit"] == serve.CONNECTION_LIMIT


def test_slow_clients_leave_room_for_phones(tmp_path):
    """110 clients trickling request lines do not keep a phone's GET waiting."""
    with waitress(tmp_path) as port, slow_clients(port) as sockets:
        time.sleep(1)  # let the server accept them all and the drip run
        status, took = timed_get(port, timeout=5)
        assert status == 200
        assert took < 3
        # the slow ones are still connected: it is the room left, not a cull, that helped
        assert len(sockets) == SLOW_CLIENTS


def test_waitress_defaults_lock_phones_out_until_silence_ends(tmp_path):
    """The control: at waitress's default limit of 100 the phone waits, until idle ones go.

    Idle connections (no byte after the partial request line) are closed after
    channel_timeout seconds of silence (checked every cleanup_interval), and the phone is in.
    """
    with (
        waitress(tmp_path, connection_limit=100, channel_timeout=4, cleanup_interval=1) as port,
        slow_clients(port, trickle=False),
    ):
        time.sleep(0.3)
        status, _ = timed_get(port, timeout=1.5)
        assert status is None  # locked out: every slot is held, long before they fall silent
        status, took = timed_get(port, timeout=10)
        assert status == 200, took


def test_huge_body_refused_from_content_length(tmp_path):
    """A 300 MB Content-Length is answered 413 at once, though only two bytes of it came."""
    with waitress(tmp_path) as port:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            start = time.monotonic()
            sock.sendall(
                b"POST /api/sessions/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 300000000\r\n\r\n{}"
            )
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
            took = time.monotonic() - start
        finally:
            sock.close()
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert took < 3


def test_body_over_the_app_limit_is_the_apis_json_413(tmp_path):
    """A body past the app's limit but under waitress's reaches the app: the API's own 413."""
    with waitress(tmp_path) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request(
                "POST",
                "/api/sessions",
                body=b" " * (MAX_BODY + 1),
                headers={"Content-Type": "application/json"},
            )
            response = connection.getresponse()
            body = json.loads(response.read())
        finally:
            connection.close()
        assert response.status == 413
        assert body["error"]["code"] == "too_large"
