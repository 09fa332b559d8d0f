"""The club server (``make serve-club``, gunicorn) alone and behind nginx (docs/nginx-refapp.conf).

gunicorn's threads read a request's headers themselves, so a few clients trickling bytes hold
every thread; nginx in front holds them instead and hands gunicorn whole requests, imports too.
Large answers (a session's export) take a place in each process's small pool, so a crowd asking
for them leaves threads for the phones. Behind nginx the join link carries the phone's Host,
port included. nginx is /usr/sbin/nginx (or $REFAPP_NGINX); without it these tests are skipped,
unless REFAPP_REQUIRE_NGINX=1 (CI), which makes its absence a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

import pytest

from refapp import MAX_BODY
from refapp.extensions import db
from refapp.services.archive import imports
from refapp.serving import stream

from .conftest import Api, make_test_app, turn
from .test_bounded_reads import long_session
from .test_serve_front import (
    PASSWORD,
    PLAYERS,
    api_error,
    asked,
    connect,
    create_session,
    head,
    poll,
    raise_open_files,
    read_answer,
    timed,
    trickling,
)
from .test_serve_stream import IN_STEP, Follower, read_until

#: run alone (make test, make test-fast), not beside a second test process: phones are timed
#  through nginx and gunicorn beside crowds sized to what both cores hold
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "docs" / "nginx-refapp.conf"
NGINX = os.environ.get("REFAPP_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
REQUIRED = os.environ.get("REFAPP_REQUIRE_NGINX") == "1"
#: gunicorn as ``make serve-club`` starts it (test_the_makefile_serves_the_club_so checks this)
GUNICORN = ["--workers=4", "--worker-class=gthread", "--threads=4", "--keep-alive=5"]
#: nginx's own settings around the documented file: paths of its own in a temporary folder
MAIN = """
{user}
pid {prefix}/nginx.pid;
worker_processes 1;
worker_rlimit_nofile 8192;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{site}
}}
"""


def free_port() -> int:
    """Return a port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_config(listen: str, upstream: str, prefix: str) -> str:
    """Return a whole nginx.conf around docs/nginx-refapp.conf, listening and passing as told."""
    site = CONF.read_text()
    assert "listen 80;" in site and "server 127.0.0.1:8000;" in site
    site = site.replace("listen 80;", f"listen {listen};")
    site = site.replace("server 127.0.0.1:8000;", f"server {upstream};")
    user = "user root;" if os.geteuid() == 0 else ""  # its workers must reach the temp folder
    return MAIN.format(user=user, prefix=prefix, site=site)


def wait_for(port: int, seconds: float = 20) -> None:
    """Wait until something listens on the port."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port}")


class Club(NamedTuple):
    """The running club server: gunicorn's port, nginx's in front, and their database."""

    gunicorn: int
    nginx: int
    database: str


def front_folder(tmp_path_factory, name: str) -> tuple[Path, dict[str, str], int, int]:
    """Make a folder with an app's tables (SQLite) and nginx's file in front of its port; return
    the folder, the app's environment, its port and nginx's (nginx missing: skip, or fail in CI)."""
    if not os.path.exists(NGINX):
        message = f"the club tests need nginx at {NGINX} (apt-get install nginx-light)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    folder = tmp_path_factory.mktemp(name)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFAPP_PASSWORD": PASSWORD}
    env["DATABASE_URL"] = f"sqlite:///{folder / f'{name}.sqlite'}"
    make_tables = "from refapp import create_app\nfrom refapp.extensions import db\n"
    make_tables += "app = create_app()\nwith app.app_context():\n    db.create_all()\n"
    subprocess.run([sys.executable, "-c", make_tables], env=env, cwd=ROOT, check=True)
    app_port, nginx_port = free_port(), free_port()
    (folder / "nginx.conf").write_text(
        nginx_config(f"127.0.0.1:{nginx_port}", f"127.0.0.1:{app_port}", str(folder))
    )
    return folder, env, app_port, nginx_port


@contextmanager
def fronted(
    folder: Path, app: list[str], env: dict[str, str], app_port: int, nginx_port: int
) -> Iterator[None]:
    """Run an app server and nginx in front of it (``front_folder``'s) until the block ends."""
    nginx = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    nginx += ["-e", str(folder / "error.log"), "-g", "daemon off;"]
    children = []
    with (folder / "app.log").open("w") as log:
        children.append(subprocess.Popen(app, env=env, cwd=ROOT, stdout=log, stderr=log))
    with (folder / "nginx.log").open("w") as log:
        children.append(subprocess.Popen(nginx, stderr=log))
    try:
        wait_for(app_port)
        wait_for(nginx_port)
        yield
    finally:
        for child in children:
            child.terminate()
        for child in children:
            child.wait(timeout=15)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """Run gunicorn as make serve-club does, and nginx in front; yield a ``Club``."""
    folder, env, gunicorn_port, nginx_port = front_folder(tmp_path_factory, "club")
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    app = [gunicorn, *GUNICORN, f"--bind=127.0.0.1:{gunicorn_port}", "refapp:served_app()"]
    with fronted(folder, app, env, gunicorn_port, nginx_port):
        yield Club(gunicorn_port, nginx_port, env["DATABASE_URL"])


def test_the_makefile_serves_the_club_so():
    """make serve-club starts gunicorn with the settings these tests measure."""
    makefile = (ROOT / "Makefile").read_text()
    target = makefile[makefile.index("\nserve-club:") :]
    for flag in GUNICORN[1:]:
        assert flag in target, flag
    assert "--workers=$(WORKERS)" in target and re.search(r"WORKERS \?= 4\b", makefile)


def test_the_documented_limits_fit_refapps():
    """nginx takes every body the app takes (the import's), and refuses far larger ones."""
    site = CONF.read_text()
    sizes = dict(re.findall(r"client_max_body_size (\d+)([km]);", site)[:1])
    assert sizes == {"256": "k"} and MAX_BODY == 256 * 1024
    import_limit = int(re.findall(r"client_max_body_size (\d+)m;", site)[0]) * 1024 * 1024
    assert imports.IMPORT_MAX_BYTES <= import_limit < 300_000_000


def test_behind_nginx_a_phone_is_answered_beside_1000_trickling_connections(club):
    """Through nginx, 1,000 trickling connections leave a phone's poll under 2 s."""
    if raise_open_files(1200) < 1200:
        pytest.skip("this machine allows too few open files (ulimit -n) for 1,000 connections")
    nginx_port = club.nginx
    session_id, etag = create_session(nginx_port)
    stop = threading.Event()
    crowd = trickling(nginx_port, 1000, stop)
    try:
        time.sleep(1.5)
        timings = [poll(nginx_port, session_id, etag, source="127.0.0.2") for _ in range(5)]
    finally:
        stop.set()
        for sock in crowd:
            sock.close()
    assert all(status == 304 and took < 2 for status, took in timings), timings


def test_behind_nginx_refusals_are_the_apis(club):
    """Through nginx: a body past 256 KiB is a JSON 413, an import past 276 MiB too, from the
    headers; an import needs the password (nginx receives it whole, the app's guard refuses it
    from its headers)."""
    nginx_port = club.nginx
    sock = connect(nginx_port)
    try:
        sock.sendall(head("POST", "/api/sessions", f"Content-Length: {MAX_BODY + 1}"))
        status, headers, body = read_answer(sock)
    finally:
        sock.close()
    assert status == 413
    assert headers["content-type"] == "application/json"
    assert api_error(body)["code"] == "too_large"
    sock = connect(nginx_port)
    try:
        sock.sendall(
            head(
                "POST",
                "/api/sessions/import",
                "Content-Type: application/json",
                "Content-Length: 300000000",
            )
        )
        status, headers, body = read_answer(sock)
    finally:
        sock.close()
    assert status == 413 and api_error(body)["code"] == "too_large"
    export = json.dumps({"format": "refapp-session", "version": 1}).encode()
    sock = connect(nginx_port)
    try:
        start = time.monotonic()
        sock.sendall(
            head(
                "POST",
                "/api/sessions/import",
                "Content-Type: application/json",
                f"Content-Length: {len(export)}",
            )
            + export
        )
        status, headers, body = read_answer(sock)
        took = time.monotonic() - start
    finally:
        sock.close()
    assert status == 401, body
    assert api_error(body)["code"] == "sign_in_required"
    assert took < 3


#: the phones' bars while a crowd presses on the server: a poll within 1 s, a write within 2 s
POLL_BAR, WRITE_BAR = 1.0, 2.0
#: imports trickling in through nginx, each from an address of its own (the red team's 150,
#: scaled to what a 2-core CI machine holds beside gunicorn, nginx and the phones)
IMPORTERS = 60
#: export readers that read nothing (the red team's 40)
READERS = 40
#: rounds of the session they ask for: an export of about 3.5 MB, a few tenths of a second each
EXPORT_ROUNDS = 6000
#: Hosts that are not a host: the app (or nginx before it) answers them 400
BAD_HOSTS = ["a b", 'x"><x-inj1>', "evil.example:99999", "user:pw@evil.example", "пример.рф"]


def record(port: int, session_id: int, storyteller: str) -> tuple[int, float]:
    """Record a Dixit turn as a phone does; return (status, seconds), 0 on a timeout."""
    path = f"/api/sessions/{session_id}/rounds"
    body = turn(storyteller, PLAYERS)
    return timed(port, "POST", path, "127.0.0.4", body, **{"X-Table-Password": PASSWORD})


def phones(port: int, session_id: int, etag: str, count: int = 8) -> tuple[list, list]:
    """Run ``count`` phones at once for about 4 s, each polling every half second, the first
    also writing a round each time (the storytellers in turn); return the polls' and writes'
    (status, seconds)."""
    polls: list[tuple[int, float]] = []
    writes: list[tuple[int, float]] = []

    def phone(index: int) -> None:
        """Poll (and, the first, write) as one phone at the table does."""
        for step in range(8):
            polls.append(poll(port, session_id, etag, source=f"127.0.4.{10 + index}"))
            if index == 0:
                writes.append(record(port, session_id, PLAYERS[step % len(PLAYERS)]))
            time.sleep(0.5)

    table = [threading.Thread(target=phone, args=(index,)) for index in range(count)]
    for thread in table:
        thread.start()
    for thread in table:
        thread.join()
    return polls, writes


def assert_answered(polls: list, writes: list) -> None:
    """Every poll came within POLL_BAR, every write was stored within WRITE_BAR."""
    assert all(status in (200, 304) and took <= POLL_BAR for status, took in polls), polls
    assert all(status == 201 and took <= WRITE_BAR for status, took in writes), writes


def drip(crowd: list[socket.socket], stop: threading.Event, every: float) -> None:
    """Send each connection one more body byte every ``every`` seconds, until stopped."""

    def send() -> None:
        """One more space of JSON (white space) to each, then wait."""
        while not stop.wait(every):
            for sock in crowd:
                with suppress(OSError):
                    sock.send(b" ")

    threading.Thread(target=send, daemon=True).start()


def import_head(length: int) -> bytes:
    """Return an import's head with the password and its declared length, and its first byte."""
    lines = ["Content-Type: application/json", f"X-Table-Password: {PASSWORD}"]
    return head("POST", "/api/sessions/import", *lines, f"Content-Length: {length}") + b"{"


def test_behind_nginx_trickled_imports_leave_phones_answered(club):
    """60 imports of 1 MB (under the import turn's 4 MiB) trickle in through nginx, a byte every
    2 s (inside its 10 s body timeout), each from its own address; nginx receives them, so the
    phones' polls and writes through nginx are answered within their bars."""
    session_id, etag = create_session(club.nginx)
    stop = threading.Event()
    crowd: list[socket.socket] = []
    try:
        for index in range(IMPORTERS):
            sock = connect(club.nginx, source=f"127.0.1.{10 + index}")
            sock.sendall(import_head(1_000_000))
            sock.setblocking(False)
            crowd.append(sock)
        drip(crowd, stop, 2)
        time.sleep(1.5)
        polls, writes = phones(club.nginx, session_id, etag)
    finally:
        stop.set()
        for sock in crowd:
            sock.close()
    assert_answered(polls, writes)


def test_behind_nginx_an_address_sends_two_imports_at_once(club):
    """A third import from one address while two are arriving is 503 busy at once (nginx)."""
    stop = threading.Event()
    crowd = [connect(club.nginx, source="127.0.2.1") for _ in range(2)]
    try:
        for sock in crowd:
            sock.sendall(import_head(1_000_000))
        drip(crowd, stop, 2)
        time.sleep(0.3)
        third = connect(club.nginx, source="127.0.2.1")
        try:
            start = time.monotonic()
            third.sendall(import_head(1_000_000))
            status, headers, body = read_answer(third)
            took = time.monotonic() - start
        finally:
            third.close()
    finally:
        stop.set()
        for sock in crowd:
            sock.close()
    assert status == 503 and api_error(body)["code"] == "busy", body
    assert headers["retry-after"] == "5" and took < 1


@pytest.fixture(scope="module")
def long_export(club) -> int:
    """Return the id of a session of EXPORT_ROUNDS rounds in the club's database."""
    app = make_test_app(club.database)
    try:
        return long_session(app, Api(app.test_client()), EXPORT_ROUNDS)
    finally:
        with app.app_context():
            db.engine.dispose()


def status_of(sock: socket.socket) -> tuple[int, str | None]:
    """Return the status an answer on this socket starts with (0: none within 5 s), and for a
    refusal its API error code."""
    sock.settimeout(5)
    try:
        status, _headers, body = read_answer(sock)  # a streamed export: its head alone
    except (OSError, AssertionError):
        return 0, None
    return status, api_error(body)["code"] if status >= 400 else None


def test_behind_nginx_stalled_export_readers_leave_phones_answered(club, long_export):
    """40 clients ask a long session's export through nginx and read nothing: each process
    makes at most its pool's few at once and refuses the rest busy, so the phones' polls and
    writes through nginx are answered within their bars."""
    session_id, etag = create_session(club.nginx)
    crowd: list[socket.socket] = []
    try:
        for index in range(READERS):
            sock = connect(club.nginx, source=f"127.0.3.{10 + index}")
            sock.sendall(head("GET", f"/api/sessions/{long_export}/export"))
            crowd.append(sock)
        time.sleep(0.3)
        polls, writes = phones(club.nginx, session_id, etag)
        answered = [status_of(sock) for sock in crowd]
    finally:
        for sock in crowd:
            sock.close()
    assert_answered(polls, writes)
    assert answered.count((200, None)) >= 2 and answered.count((503, "busy")) >= 1, answered
    assert set(answered) <= {(200, None), (503, "busy")}, answered


def page_through(port: int, path: str, host: str) -> tuple[int, str]:
    """GET a page with the given Host (sent as UTF-8 bytes); return its status and text."""
    sock = connect(port)
    try:
        request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        sock.sendall(request.encode())
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    finally:
        sock.close()
    status = int(raw.split(b" ", 2)[1])
    return status, raw.partition(b"\r\n\r\n")[2].decode(errors="replace")


def test_behind_nginx_the_join_link_keeps_the_phones_port(club):
    """A phone at http://192.168.1.10:6123/ through nginx gets a join link and QR code of that
    address, port included; a Host that is not a host is answered 400."""
    session_id, _ = create_session(club.nginx)
    status, page = page_through(club.nginx, f"/sessions/{session_id}", "192.168.1.10:6123")
    assert status == 200
    assert f"http://192.168.1.10:6123/sessions/{session_id}<" in page
    assert 'class="qr"' in page
    for host in BAD_HOSTS:
        status, page = page_through(club.nginx, f"/sessions/{session_id}", host)
        assert status == 400, (host, page[:300])
        assert "/sessions/" not in page


# -- event streams behind nginx (docs/API.md, "Following a session") ----------------------------


def stream_location(site: str) -> str:
    """Return the body of the conf's location for sessions' event streams."""
    start = site.index("location ~ ^/api/sessions/[0-9]+/events$ {")
    return site[start : site.index("}", start)]


def test_the_documented_stream_location_passes_events_as_they_come():
    """The events location turns nginx's buffering off and waits longer than the heartbeat."""
    location = stream_location(CONF.read_text())
    assert "proxy_buffering off;" in location and "proxy_pass http://refapp;" in location
    hours = re.search(r"proxy_read_timeout (\d+)h;", location)
    assert hours is not None and int(hours.group(1)) * 3600 > 4 * stream.HEARTBEAT


@pytest.fixture(scope="module")
def pushed(tmp_path_factory):
    """Run make run's server (two processes, no per-address cap: behind a proxy) and nginx in
    front, with the documented file; yield nginx's port."""
    folder, env, server_port, nginx_port = front_folder(tmp_path_factory, "pushed")
    serve = [sys.executable, "-m", "refapp.serving.serve", f"--port={server_port}"]
    serve += ["--workers=2", "--connections-per-address=0"]
    with fronted(folder, serve, env, server_port, nginx_port):
        yield nginx_port


def test_behind_nginx_every_stream_is_told_each_round_within_half_a_second(pushed):
    """Ten phones follow a session through nginx (make run's server behind it): each round
    recorded through nginx reaches every one within half a second of its answer."""
    session_id, _etag = create_session(pushed)
    phones = [Follower(pushed, session_id) for _ in range(10)]
    try:
        read_until(phones, lambda f: 1 in f.told, 5)
        assert all(set(f.told) == {1} for f in phones), [f.raw[:200] for f in phones]
        assert all(b"text/event-stream" in f.raw for f in phones)
        lags = []
        for version, storyteller in enumerate(PLAYERS[:2], start=2):
            status, _took = record(pushed, session_id, storyteller)
            answered = time.monotonic()
            assert status == 201
            read_until(phones, lambda f, v=version: v in f.told, 3)
            lags += [f.told[version] - answered for f in phones if version in f.told]
        assert len(lags) == 2 * len(phones) and max(lags) <= IN_STEP, sorted(lags)[-3:]
    finally:
        for follower in phones:
            follower.close()


def test_behind_nginx_the_club_servers_stream_is_204(club):
    """gunicorn holds no stream: through nginx the route answers 204, and the page polls."""
    session_id, _etag = create_session(club.nginx)
    status, _headers, body = asked(club.nginx, head("GET", f"/api/sessions/{session_id}/events"))
    assert status == 204 and body == b""
