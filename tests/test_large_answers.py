"""Large answers take a place in the process's small pool (services/archive/large_answers.py).

The export, the CSV and the printable sheet each stream a session's whole history; at most
``SLOTS`` are made at once, one more waits briefly, the rest are ``503 busy`` at once; a place
is given back when its stream ends, fails or is closed, also when the client went away. Streams
opened in one thread (the test client) are closed last first: Flask stacks request contexts.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from refapp.extensions import db
from refapp.services.archive import exports, large_answers

from .conftest import Api, make_test_app
from .test_bounded_reads import long_session
from .test_serve_front import connect, create_session, head, poll, served

#: run alone (make test, make test-fast), not beside a second test process: the pool's waits are
#  timed to tenths of a second, and polls behind a crowd of stalled readers to under 1 s
pytestmark = pytest.mark.serial

#: the brief wait in these tests (seconds): long enough to measure, short enough to run fast
WAIT = 0.4


@pytest.fixture
def pool(app, monkeypatch) -> large_answers.Pool:
    """Give the app a fresh pool of the shipped size, waiting WAIT seconds."""
    fresh = large_answers.Pool()
    app.extensions[large_answers.EXTENSION] = fresh
    monkeypatch.setattr(large_answers, "WAIT", WAIT)
    return fresh


@pytest.fixture
def sid(api) -> int:
    """Return a session with a few rounds."""
    session_id = api.create()["id"]
    for teller in ("Ann", "Ben", "Cy"):
        others = [name for name in ("Ann", "Ben", "Cy", "Dee") if name != teller]
        body = {"storyteller": teller, "positions": [teller, *others]}
        body["votes"] = dict.fromkeys(others, 1)
        assert api.record(session_id, body).status_code == 201
    return session_id


def endless(_session) -> Iterator[str]:
    """An export that never ends by itself: only closing it ends it."""
    yield '{"rounds": ['
    while True:
        yield "0," * 32 * 1024


def export(client, sid: int):
    """Ask for a session's export, its stream left open after the first chunk."""
    return client.get(f"/api/sessions/{sid}/export", buffered=False)


def test_the_pool_makes_two_at_once():
    assert large_answers.SLOTS == 2 and large_answers.WAITERS == 1
    assert 1 <= large_answers.WAIT <= 2


def test_past_the_pool_an_export_waits_briefly_then_is_503_busy(client, sid, pool):
    held = [export(client, sid) for _ in range(pool.slots)]
    assert [response.status_code for response in held] == [200, 200]
    assert pool.taken == 2
    start = time.monotonic()
    refused = export(client, sid)
    took = time.monotonic() - start
    assert refused.status_code == 503
    assert refused.get_json()["error"]["code"] == "busy"
    assert refused.headers["Retry-After"] == str(large_answers.RETRY_AFTER)
    assert WAIT <= took < WAIT + 0.5
    for response in reversed(held):
        response.close()
    assert pool.taken == 0


def test_a_closed_stream_gives_its_place_back(client, sid, pool):
    first, second = export(client, sid), export(client, sid)
    second.close()
    second.close()  # a second close gives nothing back twice
    assert pool.taken == 1
    third = export(client, sid)
    assert third.status_code == 200 and pool.taken == 2
    third.close()
    first.close()
    assert pool.taken == 0


def test_a_stream_read_to_its_end_gives_its_place_back(client, sid, pool):
    response = export(client, sid)
    text = b"".join(response.response).decode()
    assert json.loads(text)["id"] == sid and len(json.loads(text)["rounds"]) == 3
    assert pool.taken == 0
    response.close()
    assert pool.taken == 0


def test_one_waits_for_a_place_the_next_is_refused_at_once(client, app, sid, pool):
    held = [export(client, sid) for _ in range(pool.slots)]
    waited: dict[str, object] = {}

    def wait_for_a_place() -> None:
        """Ask for an export from another thread (a second client), keeping its answer."""
        other = app.test_client()
        start = time.monotonic()
        response = export(other, sid)
        waited.update(status=response.status_code, took=time.monotonic() - start)
        response.close()

    waiter = threading.Thread(target=wait_for_a_place)
    waiter.start()
    deadline = time.monotonic() + 2
    while pool.waiting == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.waiting == 1
    start = time.monotonic()
    refused = export(app.test_client(), sid)
    assert refused.status_code == 503 and time.monotonic() - start < 0.2
    held[1].close()  # the one waiting takes the place given back
    waiter.join(5)
    assert waited["status"] == 200 and waited["took"] < WAIT, waited
    held[0].close()
    assert pool.taken == 0


def test_the_csv_and_the_printable_sheet_take_places_and_refuse_as_pages(client, sid, pool):
    csv = client.get(f"/sessions/{sid}.csv", buffered=False)
    sheet = client.get(f"/sessions/{sid}/print", buffered=False)
    assert csv.status_code == sheet.status_code == 200 and pool.taken == 2
    for path in (f"/sessions/{sid}.csv", f"/sessions/{sid}/print"):
        refused = client.get(path)
        assert refused.status_code == 503 and refused.mimetype == "text/html"
        assert refused.headers["Retry-After"] == str(large_answers.RETRY_AFTER)
    sheet.close()
    csv.close()
    assert pool.taken == 0


def test_a_refused_or_missing_session_and_a_head_take_no_place(client, sid, pool):
    assert client.get("/api/sessions/999/export").status_code == 404
    assert client.get("/sessions/999.csv").status_code == 404
    assert client.get("/sessions/999/print").status_code == 404
    head = client.head(f"/api/sessions/{sid}/export")
    assert head.status_code == 200 and head.get_data() == b""
    head.close()  # as every WSGI server does once the (empty) answer is sent
    assert pool.taken == 0


def test_a_stream_that_fails_gives_its_place_back(client, sid, pool, monkeypatch):
    def failing(_session) -> Iterator[str]:
        """Start an export, then fail in the middle."""
        yield "{"
        raise RuntimeError("the database went away")

    monkeypatch.setattr(exports, "export_chunks", failing)
    response = export(client, sid)
    with pytest.raises(RuntimeError):
        b"".join(response.response)
    response.close()
    assert pool.taken == 0


def test_a_client_gone_mid_stream_gives_its_place_back(app, sid, pool, monkeypatch):
    """Over a real server: an endless export whose client resets the connection after its first
    bytes; the server's write fails, it closes the answer, and the place is free again."""
    monkeypatch.setattr(exports, "export_chunks", endless)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for _ in range(pool.slots + 1):  # more clients than places: each gives its place back
            sock = socket.create_connection(("127.0.0.1", server.server_port), timeout=5)
            request = f"GET /api/sessions/{sid}/export HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            sock.sendall(request.encode())
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            assert pool.taken == 1
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()  # a reset: the client is gone
            deadline = time.monotonic() + 5
            while pool.taken and time.monotonic() < deadline:
                time.sleep(0.02)
            assert pool.taken == 0
    finally:
        server.shutdown()
        server.server_close()


def test_behind_the_front_stalled_export_readers_leave_polls_answered(tmp_path):
    """``make run``'s server (waitress behind refapp's front, 8 threads): 40 clients ask a long
    session's export and read nothing; at most 3 threads are on exports, so polls stay < 1 s."""
    with served(tmp_path) as port:
        app = make_test_app(f"sqlite:///{tmp_path / 'front.sqlite'}")
        try:
            long_id = long_session(app, Api(app.test_client()), 6000)
        finally:
            with app.app_context():
                db.engine.dispose()
        session_id, etag = create_session(port)
        crowd = []
        try:
            for index in range(40):
                sock = connect(port, source=f"127.0.5.{10 + index}")
                sock.sendall(head("GET", f"/api/sessions/{long_id}/export"))
                crowd.append(sock)
            time.sleep(0.3)
            timings = []
            for _ in range(8):
                timings.append(poll(port, session_id, etag, source="127.0.0.2"))
                time.sleep(0.25)
        finally:
            for sock in crowd:
                sock.close()
    assert all(status == 304 and took < 1 for status, took in timings), timings
