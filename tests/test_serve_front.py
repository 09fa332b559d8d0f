"""refapp's waitress front on loopback: limits from the headers, the password first, deadlines.

Each test starts waitress as ``make run`` does (refapp.serving.front,
refapp.serving.serve.settings) in a child process on a free 127.0.0.1 port and speaks raw HTTP
to it, as a phone or a hostile client would.
"""

from __future__ import annotations

import http.client
import json
import os
import resource
import select
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from refapp import MAX_BODY, bodies
from refapp.services.archive import imports

#: run alone (make test, make test-fast), not beside a second test process: phones are timed beside
#  crowds sized to what both cores hold
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "dalmuti"
#: the child: the app on a temporary SQLite file behind refapp's front, logging as make run
#: does. Its options: "front" and "pace" (constants of refapp.serving.front and
#: refapp.serving.pace to replace), "config" (the app's), the rest refapp.serving.serve.settings'
CHILD = """
import json, logging, sys
from refapp import create_app
from refapp.serving import front, serve
from refapp.serving import pace as front_pace
from refapp.extensions import db
logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
url, options = sys.argv[1], json.loads(sys.argv[2])
for name, value in options.pop("front", {}).items():
    setattr(front, name, value)
for name, value in options.pop("pace", {}).items():
    setattr(front_pace, name, value)
config = {"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url, **options.pop("config", {})}
app = create_app(config)
with app.app_context():
    db.create_all()
server = front.create_server(app, host="127.0.0.1", port=0, **serve.settings(**options))
print(server.effective_port, flush=True)
server.run()
"""
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


@contextmanager
def served(tmp_path: Path, **options):
    """Run refapp behind its front in a child process; yield its port; stop it afterwards."""
    with served_process(tmp_path, **options) as (port, _child):
        yield port


@contextmanager
def served_process(tmp_path: Path, **options):
    """Run refapp behind its front in a child process; yield (port, process); stop it after.

    Its log is tmp_path / "front.log", its temporary files go to tmp_path / "spool".
    """
    url = f"sqlite:///{tmp_path / 'front.sqlite'}"
    spool = tmp_path / "spool"
    spool.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(spool)}
    env.pop("REFAPP_PASSWORD", None)
    log = tmp_path / "front.log"
    with log.open("w") as errors:
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, url, json.dumps(options)],
            stdout=subprocess.PIPE,
            stderr=errors,
            env=env,
            cwd=ROOT,
            text=True,
        )
    try:
        line = child.stdout.readline()
        assert line.strip().isdigit(), f"the server did not start: {log.read_text()[-2000:]}"
        yield int(line), child
    finally:
        child.kill()
        child.wait(timeout=10)
        child.stdout.close()


def connect(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """Open a connection to the server from a loopback address."""
    address = ("127.0.0.1", port)
    return socket.create_connection(address, timeout=timeout, source_address=(source, 0))


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one answer (status, headers, body) from a socket; the body by its Content-Length."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(65536)
        assert chunk, f"closed before an answer: {raw!r}"
        raw += chunk
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", 0))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "closed in the middle of an answer"
        body += chunk
    return status, headers, body[:length]


def asked(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one request on a connection of its own and return its answer (``read_answer``)."""
    sock = connect(port)
    try:
        sock.sendall(request)
        return read_answer(sock)
    finally:
        sock.close()


def closed(sock: socket.socket, within: float = 5) -> bool:
    """Return True when the server closes the connection within the given seconds."""
    sock.settimeout(within)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def trickle(sock: socket.socket, byte: bytes, within: float = 8) -> tuple[float, tuple]:
    """Send a byte every 0.3 s until an answer comes; return (seconds taken, the answer)."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        with suppress(OSError):
            sock.sendall(byte)  # a trickle keeps the connection from falling silent
        if select.select([sock], [], [], 0.3)[0]:
            break
    took = time.monotonic() - start
    sock.settimeout(5)
    return took, read_answer(sock)


def api_error(body: bytes) -> dict:
    """Return the API error object of a JSON answer."""
    return json.loads(body)["error"]


def head(method: str, path: str, *extra: str) -> bytes:
    """Return a request's head: its line, Host, the extra header lines."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def create_session(port: int) -> tuple[int, str]:
    """Create a Dixit session over HTTP (from an address of its own); return its id and ETag."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=("127.0.0.3", 0)
    )
    try:
        body = json.dumps({"game": "dixit", "players": PLAYERS})
        headers = {"Content-Type": "application/json", "X-Table-Password": PASSWORD}
        connection.request("POST", "/api/sessions", body=body, headers=headers)
        response = connection.getresponse()
        payload = json.loads(response.read())
        assert response.status == 201, payload
        return payload["id"], response.getheader("ETag")
    finally:
        connection.close()


def timed(
    port: int, method: str, path: str, source: str = "127.0.0.1", body: Any = None, **headers: str
) -> tuple[int, float]:
    """Send one request as a phone does (JSON ``body``, if any); return (status, seconds), 0 on
    a timeout or a refused connection."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=5, source_address=(source, 0)
    )
    if body is not None:
        headers["Content-Type"] = "application/json"
    start = time.monotonic()
    try:
        sent = None if body is None else json.dumps(body)
        connection.request(method, path, body=sent, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    except OSError:
        return 0, time.monotonic() - start
    finally:
        connection.close()


def poll(port: int, session_id: int, etag: str, source: str = "127.0.0.1") -> tuple[int, float]:
    """Poll a session as a phone does (If-None-Match); return (status, seconds), 0 on timeout."""
    path = f"/api/sessions/{session_id}?rounds=none"
    return timed(port, "GET", path, source, **{"If-None-Match": etag})


def test_only_the_import_takes_a_large_body():
    """The one function names every route's limit: MAX_BODY, the import's only for its POST."""
    assert bodies.body_limit("POST", "/api/sessions/import") == imports.IMPORT_MAX_BYTES
    assert imports.IMPORT_MAX_BYTES > MAX_BODY
    for method, path in [
        ("GET", "/api/sessions/import"),
        ("PUT", "/api/sessions/import"),
        ("POST", "/api/sessions/import/"),
        ("POST", "/api/sessions"),
        ("POST", "/api/sessions/1/rounds"),
        ("POST", "/sessions/new"),
    ]:
        assert bodies.body_limit(method, path) == MAX_BODY, (method, path)
    assert bodies.takes_large_body("post", "/api/sessions/import")
    assert not bodies.takes_large_body("POST", "/api/sessions")


def test_the_app_refuses_a_declared_size_past_its_route(app):
    """Under any server the app reads the route's limit from Content-Length before the view."""
    bodies.init_app(app)
    client = app.test_client()
    declared = {"CONTENT_LENGTH": str(MAX_BODY + 1)}
    response = client.post(
        "/api/sessions", data=b"{}", content_type="application/json", environ_overrides=declared
    )
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
    # the import's own route takes more: the body is read (and found not to be an export)
    response = client.post("/api/sessions/import", json={}, environ_overrides=declared)
    assert response.status_code not in (413, 500), response.get_json()


@pytest.mark.parametrize("guard_first", [True, False])
def test_the_apps_answer_to_the_fronts_question_is_its_password_guards(app, guard_first):
    """Asked with headers alone, the app welcomes an import only with the password, in any
    order of its hooks; the welcome writes nothing."""
    app.config["PASSWORD"] = PASSWORD
    bodies.init_app(app)
    if not guard_first:  # the probe's hook before the password guard: still no way past it
        hooks = app.before_request_funcs[None]
        hooks.insert(0, hooks.pop(hooks.index(bodies.welcome_probe)))
    client = app.test_client()
    asked = {bodies.PROBE: False, "CONTENT_LENGTH": "200000000"}
    for given in (None, "guess"):
        headers = {"X-Table-Password": given} if given else {}
        response = client.post("/api/sessions/import", headers=headers, environ_overrides=asked)
        assert response.status_code == 401
        assert response.get_json()["error"]["code"] == "sign_in_required"
    headers = {"X-Table-Password": PASSWORD}
    response = client.post("/api/sessions/import", headers=headers, environ_overrides=asked)
    assert response.status_code == 204
    assert client.get("/api/sessions").get_json()["sessions"] == []


def test_a_body_past_its_route_is_refused_from_the_headers(tmp_path):
    """A write declaring a body past MAX_BODY is answered 413 JSON at once; the import's is not."""
    with served(tmp_path) as port:
        sock = connect(port)
        try:
            start = time.monotonic()
            sock.sendall(
                head("POST", "/api/sessions", "Content-Type: application/json")[:-2]
                + f"Content-Length: {MAX_BODY + 1}\r\n\r\n".encode()
            )
            status, headers, body = read_answer(sock)
            assert time.monotonic() - start < 3
            assert status == 413
            assert headers["content-type"] == "application/json"
            error = api_error(body)
            assert error["code"] == "too_large"
            assert f"{MAX_BODY + 1} bytes" in error["message"]
            assert str(MAX_BODY) in error["message"]
            assert closed(sock)
        finally:
            sock.close()
        # the same size to the import is welcome: waitress asks for the body ("100 Continue")
        sock = connect(port)
        try:
            sock.sendall(
                head(
                    "POST",
                    "/api/sessions/import",
                    "Content-Type: application/json",
                    f"Content-Length: {MAX_BODY + 1}",
                    "Expect: 100-continue",
                )
            )
            assert sock.recv(100).startswith(b"HTTP/1.1 100 Continue")
        finally:
            sock.close()
        # and outside the API the refusal is plain text
        sock = connect(port)
        try:
            sock.sendall(head("POST", "/sessions/new", f"Content-Length: {MAX_BODY + 1}"))
            status, headers, body = read_answer(sock)
            assert status == 413
            assert headers["content-type"].startswith("text/plain")
        finally:
            sock.close()


def test_a_chunked_body_is_refused_once_past_its_route(tmp_path):
    """A chunked body with no length is refused as soon as it grows past MAX_BODY."""
    chunk = b"x" * 16384
    sent = 0
    with served(tmp_path) as port:
        sock = connect(port)
        try:
            sock.sendall(
                head(
                    "POST",
                    "/api/sessions",
                    "Content-Type: application/json",
                    "Transfer-Encoding: chunked",
                )
            )
            while sent < 4 * MAX_BODY and not select.select([sock], [], [], 0.05)[0]:
                with suppress(OSError):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
            status, _, body = read_answer(sock)
            assert status == 413, body
            assert MAX_BODY < sent <= MAX_BODY + 4 * len(chunk)
            error = api_error(body)
            assert error["code"] == "too_large"
            assert f"more than {MAX_BODY} bytes" in error["message"]
        finally:
            sock.close()


def test_the_import_asks_for_the_password_before_its_body(tmp_path):
    """With a table password, an import without it is refused before one body byte is read."""
    with served(tmp_path, config={"PASSWORD": PASSWORD}) as port:
        for extra in ([], ["X-Table-Password: guess"]):
            sock = connect(port)
            try:
                start = time.monotonic()
                sock.sendall(
                    head(
                        "POST",
                        "/api/sessions/import",
                        "Content-Type: application/json",
                        "Content-Length: 200000000",
                        "Expect: 100-continue",
                        *extra,
                    )
                )
                status, _, body = read_answer(sock)
                assert time.monotonic() - start < 3
                assert status == 401, body  # no "100 Continue" first: the body is not wanted
                assert api_error(body)["code"] == "sign_in_required"
                assert closed(sock)
            finally:
                sock.close()
        # the right password lets the body in, and the session comes back whole
        session_id, _ = create_session(port)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", f"/api/sessions/{session_id}/export")
            exported = connection.getresponse().read()
            connection.request(
                "POST",
                "/api/sessions/import",
                body=exported,
                headers={"Content-Type": "application/json", "X-Table-Password": PASSWORD},
            )
            response = connection.getresponse()
            copied = json.loads(response.read())
            assert response.status == 201, copied
            assert copied["id"] != session_id
            assert copied["players"] == PLAYERS
        finally:
            connection.close()


def test_the_throttle_answers_before_the_body(tmp_path):
    """Guessing the password with large imports meets the throttle's 429, no body read."""
    with served(tmp_path, config={"PASSWORD": PASSWORD}) as port:
        answers = []
        for attempt in range(12):
            sock = connect(port)
            try:
                sock.sendall(
                    head(
                        "POST",
                        "/api/sessions/import",
                        "Content-Length: 200000000",
                        f"X-Table-Password: guess-{attempt}",
                    )
                )
                status, headers, body = read_answer(sock)
            finally:
                sock.close()
            answers.append(status)
            if status == 429:
                assert api_error(body)["code"] == "too_many_attempts"
                assert int(headers["retry-after"]) >= 1
                break
        assert answers[0] == 401
        assert answers[-1] == 429, answers


def test_a_request_trickling_its_headers_is_answered_408(tmp_path):
    """A client sending its headers a byte at a time is answered 408 (JSON) and let go."""
    with served(tmp_path, front={"HEADER_SECONDS": 2}) as port:
        sock = connect(port)
        try:
            sock.sendall(b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            took, (status, _, body) = trickle(sock, b"a")
            assert status == 408, body
            assert 1.5 < took < 5, took
            error = api_error(body)
            assert error["code"] == "request_timeout"
            assert "headers" in error["message"]
            assert closed(sock)
        finally:
            sock.close()


def test_a_body_trickling_in_is_answered_408(tmp_path):
    """A body arriving a byte at a time is answered 408 after its grace, and nothing written."""
    with served(tmp_path, front={"BODY_GRACE": 2}) as port:
        sock = connect(port)
        try:
            sock.sendall(
                head("POST", "/api/sessions", "Content-Type: application/json")[:-2]
                + b"Content-Length: 1000\r\n\r\n{"
            )
            took, (status, _, body) = trickle(sock, b" ")
            assert status == 408, body
            assert 1.5 < took < 5, took
            assert api_error(body)["code"] == "request_timeout"
        finally:
            sock.close()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/sessions")
        assert json.loads(connection.getresponse().read())["sessions"] == []
        connection.close()


def test_malformed_requests_are_json_under_the_api_and_text_elsewhere(tmp_path):
    """waitress's own 400 and 431 carry the API's JSON shape under /api, plain text elsewhere."""
    broken = "Not a header line"
    huge = "X-Big: " + "b" * 300_000  # past waitress's 256 KiB of headers
    with served(tmp_path) as port:
        for path, extra, status, code in [
            ("/api/sessions", broken, 400, "bad_request"),
            ("/api/sessions", huge, 431, "headers_too_large"),
            ("/", broken, 400, None),
            ("/", huge, 431, None),
        ]:
            sock = connect(port)
            try:
                with suppress(OSError):  # a huge head may be cut off once it is refused
                    sock.sendall(head("GET", path, extra))
                answer_status, headers, body = read_answer(sock)
            finally:
                sock.close()
            assert answer_status == status, (path, body)
            if code:
                assert headers["content-type"] == "application/json"
                assert api_error(body)["code"] == code
            else:
                assert headers["content-type"].startswith("text/plain")


def test_one_address_cannot_take_every_connection(tmp_path):
    """Past its share of connections an address is turned away; a phone elsewhere is answered."""
    share = 20
    with served(tmp_path, per_address=share) as port:
        session_id, etag = create_session(port)
        crowd = [connect(port) for _ in range(3 * share)]
        try:
            for sock in crowd:
                with suppress(OSError):
                    sock.sendall(b"GET /api/sessions?slow=")
            time.sleep(1)
            turned_away = sum(closed(sock, within=0.05) for sock in crowd)
            assert turned_away == 2 * share
            status, took = poll(port, session_id, etag, source="127.0.0.2")
            assert status == 304
            assert took < 2
        finally:
            for sock in crowd:
                sock.close()


def raise_open_files(wanted: int) -> int:
    """Raise this process's open-file limit towards wanted; return what it allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def trickling(
    port: int, count: int, stop: threading.Event, addresses: int = 10
) -> list[socket.socket]:
    """Open count connections from several addresses that send a request a byte every 0.5 s."""
    crowd = []
    for index in range(count):
        sock = connect(port, source=f"127.0.0.{10 + index % addresses}")
        sock.sendall(b"GET /api/sessions?slow=")
        sock.setblocking(False)
        crowd.append(sock)

    def drip():
        """Send each connection one more byte, twice a second, until stopped."""
        while not stop.wait(0.5):
            for sock in crowd:
                with suppress(OSError):
                    sock.send(b"a")

    threading.Thread(target=drip, daemon=True).start()
    return crowd


def test_a_phone_is_answered_beside_a_thousand_trickling_connections(tmp_path):
    """1,000 connections from ten addresses trickle requests; a phone's poll still takes < 2 s."""
    count, addresses = 1000, 10
    if raise_open_files(count + 200) < count + 200:
        pytest.skip("this machine allows too few open files (ulimit -n) for 1,000 connections")
    stop = threading.Event()
    crowd: list[socket.socket] = []
    with served(tmp_path) as port:
        session_id, etag = create_session(port)
        try:
            crowd = trickling(port, count, stop, addresses)
            time.sleep(1.5)
            timings = [poll(port, session_id, etag, source="127.0.0.2") for _ in range(5)]
        finally:
            stop.set()
            for sock in crowd:
                sock.close()
    assert all(status == 304 for status, _ in timings), timings
    assert max(took for _, took in timings) < 2, timings
