"""Crowds against refapp's front: slow readers, stalled bodies, idle connections, address groups.

Each test starts waitress as ``make run`` does (tests/test_serve_front.py's ``served_process``)
with its figures lowered to fit a test, runs a crowd at it from several 127.0.0.x addresses and
asserts that a phone at another address is answered meanwhile: its poll within 1 s, its write
(a round recorded through the API) within 2 s.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import sqlite3
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

from refapp.serving import pace as front_pace
from refapp.serving.pace import Progress, address_group

from .conftest import turn
from .test_serve_front import (
    PLAYERS,
    api_error,
    closed,
    create_session,
    head,
    poll,
    raise_open_files,
    read_answer,
    served_process,
    timed,
)

#: run alone (make test, make test-fast), not beside a second test process: each crowd is sized to
#  what both cores hold while phones are timed beside it
pytestmark = pytest.mark.serial

#: the phone's own address, apart from every crowd's
PHONE = "127.0.0.2"
#: the bars a phone is held to while a crowd runs
POLL_SECONDS, WRITE_SECONDS = 1.0, 2.0


def record(port: int, session_id: int, number: int, source: str = PHONE) -> tuple[int, float]:
    """Record Dixit round ``number`` as a phone does; return (status, seconds), 0 on timeout."""
    body = turn(PLAYERS[number % len(PLAYERS)], PLAYERS)
    return timed(port, "POST", f"/api/sessions/{session_id}/rounds?rounds=none", source, body)


def phone_is_answered(port: int, session_id: int, etag: str, number: int) -> None:
    """Assert a phone's poll is answered within 1 s and its write within 2 s."""
    status, took = poll(port, session_id, etag, source=PHONE)
    assert status in (200, 304) and took < POLL_SECONDS, (status, took)
    status, took = record(port, session_id, number)
    assert status == 201 and took < WRITE_SECONDS, (status, took)


def spooled_files(pid: int, spool: Path) -> int:
    """Return how many removed temporary files under spool the process still holds open."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with suppress(OSError):
            target = os.readlink(fd)
            count += target.startswith(str(spool)) and target.endswith("(deleted)")
    return count


def swell_export(tmp_path: Path, session_id: int, entries: int, size: int) -> int:
    """Give a session audit entries of size bytes each (straight into SQLite); return the total."""
    note = json.dumps({"note": "x" * size})
    with sqlite3.connect(tmp_path / "front.sqlite") as database:
        database.executemany(
            "INSERT INTO audit_entry (session_id, at, action, round_number, before, after) "
            "SELECT session_id, at, action, round_number, NULL, ? FROM audit_entry "
            "WHERE session_id = ? LIMIT 1",
            [(note, session_id)] * entries,
        )
    return entries * len(note)


def stalled_reader(port: int, path: str, source: str) -> socket.socket:
    """Ask for path from source with a small receive buffer, and read nothing."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(head("GET", path))
    return sock


def drain(sock: socket.socket, within: float = 1) -> tuple[bytes, bool]:
    """Read what a connection holds; return (its first bytes, whether the server closed it)."""
    sock.settimeout(within)
    first = b""
    try:
        while chunk := sock.recv(1 << 16):
            first = first or chunk
    except TimeoutError:
        return first, False
    except ConnectionResetError:
        pass
    return first, True


def test_readers_that_stop_reading_are_closed_and_free_their_threads(tmp_path):
    """Stalled readers of a streamed export past waitress's high watermark (lowered here: the
    same blocking write) hold a worker thread each until the write deadline closes them, with
    one log line each; meanwhile and afterwards a phone is answered, and an export succeeds."""
    grace, window = 1, 2
    options = {
        "threads": 6,
        "outbuf_high_watermark": 256 * 1024,
        "pace": {"WRITE_GRACE": grace, "WRITE_WINDOW": window, "KEEP_ALIVE": 2},
    }
    with served_process(tmp_path, **options) as (port, _child):
        session_id, etag = create_session(port)
        size = swell_export(tmp_path, session_id, entries=30, size=200_000)
        path = f"/api/sessions/{session_id}/export"
        readers = [stalled_reader(port, path, f"127.0.0.{20 + index}") for index in range(4)]
        start = time.monotonic()
        try:
            time.sleep(0.5)  # the exports are written, and wait on their readers
            phone_is_answered(port, session_id, etag, 0)
            # the deadline, a check (each second) and a margin; reading earlier would be progress
            time.sleep(max(0.0, start + grace + window + 2.5 - time.monotonic()))
            answers = [drain(sock) for sock in readers]
        finally:
            for sock in readers:
                sock.close()
        served = [ended for first, ended in answers if first.startswith(b"HTTP/1.1 200")]
        # the app's pool of large answers may refuse some (503 busy): every one begun is closed
        assert served and all(served), answers
        text = (tmp_path / "front.log").read_text()
        closings = [line for line in text.splitlines() if line.startswith("refapp.front: closed")]
        assert len(closings) == len(served), text[-3000:]
        assert all("closed 127.0.0.2" in line and path in line for line in closings), closings
        # each task ended: waitress's worker met ClientDisconnected, its thread free again
        assert text.count(f"Client disconnected while serving {path}") == len(served)
        phone_is_answered(port, session_id, etag, 1)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            assert response.status == 200
            assert len(response.read()) > size
        finally:
            connection.close()


def stalled_body(port: int, source: str, declared: int, sent: int) -> socket.socket:
    """Start an import declaring ``declared`` bytes, send ``sent`` of them at once, then stop."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(
        head(
            "POST",
            "/api/sessions/import",
            "Content-Type: application/json",
            f"Content-Length: {declared}",
        )
        + b" " * sent
    )
    return sock


def test_bodies_that_stall_are_cut_and_their_files_go_at_once(tmp_path):
    """Bodies sent fast, then stalled, are cut 408 within the body window (an average would
    allow minutes), their temporary files closed; the spool's cap refuses one more, 503 busy."""
    window, mib = 2, 1024 * 1024
    options = {"spool_limit": 5 * mib, "pace": {"BODY_WINDOW": window}}
    with served_process(tmp_path, **options) as (port, child):
        spool = tmp_path / "spool"
        session_id, etag = create_session(port)
        stalled = [stalled_body(port, f"127.0.0.{30 + n}", 2 * mib, 3 * mib // 2) for n in (0, 1)]
        sent_at = time.monotonic()
        try:
            time.sleep(0.3)
            assert spooled_files(child.pid, spool) == 2  # the bodies wait in temporary files
            refused = stalled_body(port, "127.0.0.32", 2 * mib, 0)
            try:
                status, headers, body = read_answer(refused)
            finally:
                refused.close()
            assert status == 503 and time.monotonic() - sent_at < 1.5, body
            assert api_error(body)["code"] == "busy"
            assert int(headers["retry-after"]) >= 1
            phone_is_answered(port, session_id, etag, 0)
            for sock in stalled:
                status, _, body = read_answer(sock)
                assert status == 408, body
                assert api_error(body)["code"] == "request_timeout"
            took = time.monotonic() - sent_at
            assert window <= took < window + 3, took
            assert spooled_files(child.pid, spool) == 0
        finally:
            for sock in stalled:
                sock.close()
        # the spool's room is back: a body as large is welcome again, and one growing chunked
        # past the room is refused as it grows
        sock = stalled_body(port, "127.0.0.33", 4 * mib, 0)
        try:
            sock.sendall(b"")
            assert not closed(sock, within=0.5)
        finally:
            sock.close()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        try:
            sock.sendall(head("POST", "/api/sessions/import", "Transfer-Encoding: chunked"))
            chunk = b"x" * (256 * 1024)
            for _ in range(40):
                with suppress(OSError):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            status, _, body = read_answer(sock)
            assert status == 503 and api_error(body)["code"] == "busy", body
        finally:
            sock.close()


def test_idle_connections_make_room_for_a_phone(tmp_path):
    """300 connections from 15 addresses sending only blank lines, past the connection limit
    (200 here, 20 an address): a phone elsewhere, and one behind a crowd's address, get in;
    the blank lines keep none of them past the keep-alive."""
    addresses, share, keep_alive = 15, 20, 3
    if raise_open_files(1024) < 1024:
        pytest.skip("this machine allows too few open files (ulimit -n) for 300 connections")
    options = {"connection_limit": 200, "per_address": share, "pace": {"KEEP_ALIVE": keep_alive}}
    stop = threading.Event()
    crowd: list[socket.socket] = []
    with served_process(tmp_path, **options) as (port, _child):
        session_id, etag = create_session(port)
        try:
            for index in range(addresses * share):
                sock = connect_blank(port, f"127.0.0.{40 + index % addresses}")
                crowd.append(sock)

            def blank_lines() -> None:
                """Send every connection a blank request twice a second."""
                while not stop.wait(0.5):
                    for sock in crowd:
                        with suppress(OSError):
                            sock.send(b"\r\n\r\n")

            threading.Thread(target=blank_lines, daemon=True).start()
            opened = time.monotonic()
            time.sleep(0.3)
            for number in range(3):
                phone_is_answered(port, session_id, etag, number)
            status, took = poll(port, session_id, etag, source="127.0.0.40")  # a shared address
            assert status in (200, 304) and took < POLL_SECONDS, (status, took)
            held = sum(not closed(sock, within=0.01) for sock in crowd)
            assert held < 200, held
            time.sleep(max(0.0, opened + keep_alive + 2 - time.monotonic()))
            assert all(closed(sock, within=0.01) for sock in crowd)
        finally:
            stop.set()
            for sock in crowd:
                sock.close()


def connect_blank(port: int, source: str) -> socket.socket:
    """Open a connection that sends one blank request (two empty lines)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    sock.sendall(b"\r\n\r\n")
    sock.setblocking(False)
    return sock


def test_addresses_are_counted_by_client():
    """An IPv6 client counts by its /64; an IPv4 one seen through IPv6 as itself."""
    home = address_group("2001:db8:1:2:3:4:5:6")
    assert home == address_group("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:3::1") != home
    assert address_group("::ffff:192.0.2.7") == address_group("192.0.2.7") == "192.0.2.7"
    assert address_group("192.0.2.8") != "192.0.2.7"
    assert address_group("fe80::1%eth0") == "fe80::/64"
    assert address_group("") == "" and address_group("not an address") == "not an address"


def test_progress_asks_a_step_each_window_whatever_came_before():
    """A fast start buys no stall past the window; a steady slow client stays in time."""
    fast = Progress(0.0, grace=10, rate=8192, window=15, step=65536)
    fast.advance(250 * 1024 * 1024, 1.0)
    assert not fast.late(15.0)
    fast.advance(100, 10.0)  # a trickle is no step
    assert fast.late(16.5)
    steady = Progress(0.0, grace=10, rate=8192, window=15, step=65536)
    for second in range(1, 120):
        steady.advance(16_000, float(second))  # a 128 kbit/s link
        assert not steady.late(second + 0.5)
    slow = Progress(0.0, grace=10, rate=8192, window=15, step=65536)
    for second in range(1, 60):
        slow.advance(6000, float(second))  # a step in each window, under the average
        assert bool(slow.late(second + 0.5)) == (second >= 36)  # 6000 s < 8192 (s - 9.5)
    assert slow.late(59.5)


def test_a_phone_on_a_poor_link_takes_a_30_mb_backup_in_time():
    """At 128 kbit/s (16,000 bytes a second, seen in bursts of 4 s as the kernel wakes the
    writer), with a 12 s pause halfway, a phone takes a 30 MB answer within the write rules."""
    pace = front_pace
    taking = Progress(0.0, pace.WRITE_GRACE, pace.WRITE_RATE, pace.WRITE_WINDOW, pace.WRITE_STEP)
    moment, taken, paused = 0.0, 0, False
    while taken < 30_000_000:
        if not paused and taken > 15_000_000:
            moment, paused = moment + 12, True
        moment += 4
        taking.advance(64_000, moment)
        taken += 64_000
        assert not taking.late(moment + 3.9), (moment, taken)
    stopped = Progress(0.0, pace.WRITE_GRACE, pace.WRITE_RATE, pace.WRITE_WINDOW, pace.WRITE_STEP)
    stopped.advance(4_000_000, 1.0)  # the kernel's buffers filled at once, then nothing
    assert stopped.late(1.0 + pace.WRITE_WINDOW + 0.5)
