"""A club night against a live refapp server: tables recording rounds, phones polling them.

Usage: python bench/club_night.py [--port PORT] [--push]

It starts the server itself on 127.0.0.1 at PORT (by default a port free at the time; each
setup in turn on the same one), plays the night and stops it; nothing leaves this machine, and
every step is bounded in time. 20 tables (Dixit, 4 players, no target so they never end) each
record a round every 30 s (``?rounds=none``, ``If-Match``), and 40 phones (2 a table) each poll
their table every 2 s, as the session page does, with ``GET /api/sessions/<id>?rounds=none``
and ``If-None-Match`` (304 unless the table moved on; then the phone also fetches the page's new
``<main>``, and a poll counts both).

For each setup it prints the median and 95th percentile latency of a poll and of a record at
the real pace, then compresses time by 2, 4, 8, ... (every rate times that factor) until the
95th percentile passes 1 s, a request fails, or the server serves less than 90% of what is
asked; the throughput there is the setup's ceiling. Latencies count from when the phone or
table meant to send, so a request that waited for the one before it shows that wait too.

Setups: waitress as ``make run`` serves it (``python -m refapp.serving.serve`` and its worker
processes) and gunicorn with several worker processes (as ``make serve-club``), on SQLite (a
temporary file) and, when BENCH_DATABASE_URL names a PostgreSQL database, on it too - that
database is EMPTIED and rebuilt by the migrations. The load generator runs on the same
machine and takes its share of the cores: ceilings here are lower bounds. A setup's headroom
is the last pace it held; beside it, the server's own CPU per table-minute at the busiest pace
it held and the headroom that implies for a dedicated 2-core machine (its CPU alone: the
stepped headroom also pays for the load generator and any neighbour on this machine).

With ``--push`` the phones hold their table's event stream instead of polling (club_push.py:
``GET /api/sessions/<id>/events``, as live.js follows a page served by ``make run``) and fetch
the new ``<main>`` when it tells a version they have not shown; the tables record as before.
It prints the change-to-phone latency (from a record's answer to the event on each phone's
stream) and the time until the phone shows it (its new ``<main>`` fetched), at each pace, and
the same headroom figures. Only ``make run``'s server holds streams (gunicorn answers 204), so
``--push`` plays the waitress setup alone.

Environment: BENCH_DATABASE_URL; BENCH_WORKERS (gunicorn workers, default 4); BENCH_THREADS
(waitress threads per process, default ``refapp.serving.serve.THREADS``); BENCH_LONG=1 for
longer steps (60 s at the real pace, 20 s a step, instead of 12 s and 4 s); BENCH_SERVERS
(default "waitress,gunicorn"; "gunicorn-sync" adds gunicorn's default synchronous workers).
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from club_push import Arrivals, Followers
from read_session import SEATS, turn

from refapp.serving.serve import RUN_WORKERS

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
TABLES = 20
PHONES = 40
RECORD_EVERY = 30.0  # seconds between a table's rounds, at the real pace
POLL_EVERY = 2.0  # seconds between a phone's polls (live.js polls every 2 s)
PREFILL = 10  # rounds each table has played before the measured night starts
TOO_SLOW = 1.0  # a 95th percentile past this (seconds) is saturation
MAX_FACTOR = 256
REQUEST_TIMEOUT = 10.0
LONG = os.environ.get("BENCH_LONG", "") not in ("", "0")
BASE_SECONDS = 60.0 if LONG else 12.0
STEP_SECONDS = 20.0 if LONG else 4.0
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
#: the bench's server is its database's one host (on PostgreSQL a start says so or shares a
#: secret: refapp/hosting.py)
ONE_HOST = {"REFAPP_SINGLE_HOST": "1"}
#: gunicorn's options beside -w and -b: "gunicorn" as `make serve-club` runs it (keep the two
#: alike), "gunicorn-sync" its default one-request-at-a-time workers, for comparison
GUNICORN = {
    "gunicorn": ["--worker-class", "gthread", "--threads", "4", "--keep-alive", "5"],
    "gunicorn-sync": [],
}
#: the port every server is started on (``--port``); None: a port free at the time
PORT: int | None = None
#: the phones hold event streams instead of polling (``--push``)
PUSH = False


def free_port() -> int:
    """Return a TCP port free on the loopback address right now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def percentile(values: list[float], share: float) -> float:
    """Return the nearest-rank percentile (share in 0..1) of values; NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(share * len(ordered)))) - 1]


# -- the database ----------------------------------------------------------------------------------


def sqlalchemy_url(raw: str) -> str:
    """Return the URL as refapp's engine takes it (postgresql:// via psycopg 3)."""
    from refapp import database_url

    return database_url(raw, tempfile.gettempdir())


def empty_and_migrate(raw_url: str) -> None:
    """Drop every table in the database, then build it by the migrations (flask db upgrade)."""
    from sqlalchemy import MetaData, create_engine

    engine = create_engine(sqlalchemy_url(raw_url))
    try:
        existing = MetaData()
        existing.reflect(engine)
        existing.drop_all(engine)
    finally:
        engine.dispose()
    env = {**os.environ, "DATABASE_URL": raw_url, "FLASK_APP": "refapp", **ONE_HOST}
    done = subprocess.run(
        [sys.executable, "-m", "flask", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"flask db upgrade failed:\n{done.stderr[-3000:]}")


# -- the server ------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """Return the CPU time used by a process and its children (gunicorn's workers) so far.

    Linux only (/proc); elsewhere NaN.
    """
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    try:
        stats = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stats.append((int(entry.name), (entry / "stat").read_text()))
                except OSError:
                    continue
    except OSError:
        return float("nan")
    for number, text in stats:
        fields = text.rsplit(")", 1)[1].split()  # after the command, which may hold spaces
        if number == pid or int(fields[1]) == pid:  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return total


def machine_busy() -> float:
    """Return the CPU seconds this machine's cores have spent busy so far (Linux; else NaN)."""
    try:
        fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass
class Live:
    """A running server: where it listens and its process."""

    port: int
    pid: int


@contextmanager
def live_server(kind: str, raw_url: str, folder: Path) -> Iterator[Live]:
    """Start refapp (waitress or gunicorn) on PORT (else a free loopback port); yield it; stop
    it."""
    port = PORT or free_port()
    if kind == "waitress":
        command = [
            sys.executable,
            "-m",
            "refapp.serving.serve",
            "--host",
            HOST,
            "--port",
            str(port),
        ]
        command += [f"--workers={RUN_WORKERS}"]  # as make run
        if os.environ.get("BENCH_THREADS"):
            command += [f"--threads={os.environ['BENCH_THREADS']}"]
    else:
        command = [sys.executable, "-m", "gunicorn", "-w", str(WORKERS), *GUNICORN[kind]]
        command += ["-b", f"{HOST}:{port}", "refapp:served_app()"]
    env = {**os.environ, "DATABASE_URL": raw_url, **ONE_HOST}
    env.pop("REFAPP_PASSWORD", None)
    log = folder / f"{kind}.log"
    with log.open("w") as output:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    try:
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"{kind} stopped at once:\n{log.read_text()[-3000:]}")
            probe = Client(port)
            try:
                status, _, _ = probe.send("GET", "/api/sessions?per_page=1")
                if status == 200:
                    break
            except (OSError, http.client.HTTPException):
                pass
            finally:
                probe.close()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{kind} did not answer in 30 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield Live(port, server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


class Client:
    """One device's HTTP/1.1 connection, kept alive while the server keeps it."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        #: the connection has answered a request and is kept alive (the server may close it
        #: once idle: make run after 10 s, pace.KEEP_ALIVE)
        self.kept = False

    def send(
        self, method: str, path: str, body: dict | None = None, headers: dict | None = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """Send one request; return status, headers and body (reconnecting next time if told).

        A kept-alive connection the server closed while it was idle (a table records every
        30 s at the real pace) is opened again and the request sent once more, as a browser
        does: the server closes only a connection with no request in progress.
        """
        try:
            return self.send_once(method, path, body, headers)
        except (BrokenPipeError, ConnectionResetError):  # RemoteDisconnected is one too
            if not self.kept:
                raise
            self.kept = False
            return self.send_once(method, path, body, headers)

    def send_once(
        self, method: str, path: str, body: dict | None, headers: dict | None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """Send one request on the connection as it is."""
        payload = None if body is None else json.dumps(body).encode()
        wanted = {**(headers or {})}
        if payload is not None:
            wanted["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=payload, headers=wanted)
            response = self.connection.getresponse()
            data = response.read()
        except BaseException:
            self.connection.close()
            raise
        self.kept = not response.will_close
        if response.will_close:
            self.connection.close()
        return response.status, response.headers, data

    def close(self) -> None:
        self.connection.close()


# -- the night -------------------------------------------------------------------------------------


@dataclass
class Table:
    """A table's session as its recording phone knows it."""

    id: int
    etag: str
    rounds: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Phone:
    """A phone at a table: the version of the session it last saw."""

    table: Table
    etag: str


@dataclass
class Tally:
    """What one step saw."""

    polls: list[float] = field(default_factory=list)
    records: list[float] = field(default_factory=list)
    unchanged: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    asked: int = 0
    seconds: float = 0.0
    server_cpu: float = 0.0  # cores the server used, on average
    own_cpu: float = 0.0  # cores this load generator used
    machine_cpu: float = 0.0  # cores busy on the whole machine (PostgreSQL, anything else)
    arrivals: Arrivals | None = None  # with --push: what the phones' streams told them
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1


def open_tables(port: int) -> tuple[list[Table], list[Phone]]:
    """Create the night's sessions, play PREFILL rounds at each and seat the phones."""
    client = Client(port)
    tables = []
    try:
        for number in range(TABLES):
            status, headers, data = client.send(
                "POST",
                "/api/sessions?rounds=none",
                {
                    "game": "dixit",
                    "players": list(SEATS),
                    "rules": {"target_score": None, "end_after_rounds": 10**6},
                    "name": f"Table {number + 1}",
                },
            )
            if status != 201:
                raise RuntimeError(f"creating a session answered {status}: {data[:300]!r}")
            table = Table(json.loads(data)["id"], headers["ETag"])
            for _ in range(PREFILL):
                status, headers, data = client.send(
                    "POST", f"/api/sessions/{table.id}/rounds?rounds=none", turn(table.rounds)
                )
                if status != 201:
                    raise RuntimeError(f"recording answered {status}: {data[:300]!r}")
                table.rounds += 1
                table.etag = headers["ETag"]
            tables.append(table)
    finally:
        client.close()
    # each phone opened its table's page: it knows the version it saw
    phones = [Phone(tables[n % len(tables)], tables[n % len(tables)].etag) for n in range(PHONES)]
    return tables, phones


def paced(tally: Tally, start: float, offset: float, every: float, end: float, call) -> None:
    """Call call() at start + offset + k * every until end; time each from when it was due."""
    due = start + offset
    while due < end:
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        with tally.lock:
            tally.asked += 1
        try:
            kind, ok = call()
        except (OSError, http.client.HTTPException) as error:
            tally.error(type(error).__name__)
        else:
            took = time.monotonic() - due
            if ok:
                with tally.lock:
                    (tally.polls if kind == "poll" else tally.records).append(took)
        due += every
        if due < time.monotonic() - every:  # fallen a whole beat behind: skip the missed beats
            due = time.monotonic()


def recorder(table: Table, client: Client, tally: Tally):
    """Return a table's paced call: record its next round (If-Match its version)."""

    def call():
        with table.lock:
            status, headers, _ = client.send(
                "POST",
                f"/api/sessions/{table.id}/rounds?rounds=none",
                turn(table.rounds),
                {"If-Match": table.etag},
            )
            if status == 201:
                table.rounds += 1
                table.etag = headers["ETag"]
                if tally.arrivals is not None:
                    with tally.arrivals.lock:
                        version = int(table.etag.strip('"'))
                        tally.arrivals.answered[(table.id, version)] = time.monotonic()
                return "record", True
        tally.error(f"record {status}")
        return "record", False

    return call


def poller(phone: Phone, client: Client, tally: Tally):
    """Return a phone's paced call: poll its table, fetch the page's <main> on a change."""

    def call():
        status, answer, _ = client.send(
            "GET",
            f"/api/sessions/{phone.table.id}?rounds=none",
            headers={"If-None-Match": phone.etag},
        )
        if status == 304:
            with tally.lock:
                tally.unchanged += 1
            return "poll", True
        if status == 200:
            phone.etag = answer.get("ETag")
            # the page then fetches its new <main> (live.js), as a phone at the table does
            status, _, _ = client.send(
                "GET", f"/sessions/{phone.table.id}", headers={"X-Refapp-Live": "1"}
            )
            if status == 200:
                return "poll", True
        tally.error(f"poll {status}")
        return "poll", False

    return call


def run_step(
    live: Live, tables: list[Table], phones: list[Phone], factor: float, seconds: float
) -> Tally:
    """Play the night at factor times the real pace for seconds; return what it saw."""
    port = live.port
    tally = Tally()
    record_every, poll_every = RECORD_EVERY / factor, POLL_EVERY / factor
    start = time.monotonic() + 0.2
    end = start + seconds
    threads = []

    clients = []
    jitter = random.Random(7)
    for index, table in enumerate(tables):
        client = Client(port)
        clients.append(client)
        offset = record_every * (index + jitter.random()) / len(tables)
        call = recorder(table, client, tally)
        threads.append((tally, start, offset, record_every, end, call))
    followers = None
    if PUSH:
        tally.arrivals = Arrivals()
        followers = hold_streams(port, phones, tally.arrivals, clients)
    else:
        for index, phone in enumerate(phones):
            client = Client(port)
            clients.append(client)
            offset = poll_every * (index + jitter.random()) / len(phones)
            threads.append((tally, start, offset, poll_every, end, poller(phone, client, tally)))
    running = [threading.Thread(target=paced, args=args, daemon=True) for args in threads]
    server_before, own_before = cpu_seconds(live.pid), time.process_time()
    machine_before, wall = machine_busy(), time.monotonic()
    for thread in running:
        thread.start()
    for thread in running:
        thread.join(timeout=seconds + 2 * REQUEST_TIMEOUT + 5)
    wall = time.monotonic() - wall
    tally.server_cpu = (cpu_seconds(live.pid) - server_before) / wall
    tally.own_cpu = (time.process_time() - own_before) / wall
    tally.machine_cpu = (machine_busy() - machine_before) / wall
    if followers is not None:
        time.sleep(1.0)  # the last rounds' events reach the phones (not counted in the CPU)
    if followers is not None and tally.arrivals is not None:
        followers.close()
        for what, count in tally.arrivals.errors.items():
            tally.errors[what] = tally.errors.get(what, 0) + count
    for client in clients:
        client.close()
    tally.seconds = seconds
    return tally


def hold_streams(port: int, phones: list[Phone], arrivals: Arrivals, clients: list) -> Followers:
    """Open each phone's event stream and start following them (--push); each phone fetches
    its page on a connection of its own, added to clients."""
    pages = {id(phone): Client(port) for phone in phones}
    clients += pages.values()

    def page(phone: Phone) -> bool:
        """Fetch the phone's page's new <main>, as live.js does on a version event."""
        path, live = f"/sessions/{phone.table.id}", {"X-Refapp-Live": "1"}
        status, _, _ = pages[id(phone)].send("GET", path, headers=live)
        return status == 200

    followers = Followers(HOST, port, phones, arrivals, page)
    followers.start()
    return followers


def to_phone(arrivals: Arrivals) -> str:
    """Return the change-to-phone latencies of a step, for the summary."""
    (told, _), (shown, _) = arrivals.latencies(arrivals.told), arrivals.latencies(arrivals.shown)
    return (
        f"; at the real pace a change reached the {PHONES} phones' streams in "
        f"{1000 * percentile(told, 0.5):.0f} ms p50, {1000 * percentile(told, 0.95):.0f} ms p95 "
        f"({len(told)} arrivals), shown (new <main> fetched) in "
        f"{1000 * percentile(shown, 0.5):.0f} ms p50, {1000 * percentile(shown, 0.95):.0f} ms p95"
    )


def overrun(tally: Tally, p95s: list[float], served: float, offered: float) -> bool:
    """Return True when a step saturated the server: an error, a p95 past TOO_SLOW, or under 90 %
    of the offered requests served."""
    return bool(tally.errors) or any(p > TOO_SLOW for p in p95s) or served < 0.9 * offered


def errors_named(tally: Tally) -> str:
    """Return a step line's tail naming each kind of error and its count (nothing without)."""
    if not tally.errors:
        return ""
    return "  " + ", ".join(f"{what}: {n}" for what, n in sorted(tally.errors.items()))


def describe_push(factor: float, tally: Tally, arrivals: Arrivals) -> tuple[str, bool, float]:
    """Return a --push step's line, whether it is saturated, and the requests served a second
    (records and the phones' page fetches)."""
    records = factor * TABLES / RECORD_EVERY
    offered = records * (1 + PHONES / TABLES)  # each round: its record, each phone's <main>
    served = (len(tally.records) + len(arrivals.fetched)) / tally.seconds
    (told, missing), (shown, _) = (
        arrivals.latencies(arrivals.told),
        arrivals.latencies(arrivals.shown),
    )
    expected = len(told) + missing  # each round recorded, each phone at its table
    p95s = [percentile(told, 0.95), percentile(shown, 0.95), percentile(tally.records, 0.95)]
    errors = sum(tally.errors.values())
    saturated = overrun(tally, p95s, served, offered) or missing > 0
    line = (
        f"  x{factor:<4g} {offered:7.1f} {served:7.1f} "
        f"{1000 * percentile(told, 0.5):8.1f} {1000 * p95s[0]:8.1f} "
        f"{1000 * percentile(shown, 0.5):8.1f} {1000 * p95s[1]:8.1f} "
        f"{1000 * percentile(tally.records, 0.5):8.1f} {1000 * p95s[2]:8.1f} "
        f"{len(told):5d}/{expected:<5d} {errors:6d} {tally.server_cpu:6.2f} {tally.own_cpu:6.2f} "
        f"{tally.machine_cpu:7.2f}"
    )
    return line + errors_named(tally), saturated, served


def describe(factor: float, tally: Tally) -> tuple[str, bool, float]:
    """Return the step's line, whether it is saturated, and the requests served a second."""
    if tally.arrivals is not None:
        return describe_push(factor, tally, tally.arrivals)
    offered = factor * (TABLES / RECORD_EVERY + PHONES / POLL_EVERY)
    served = (len(tally.polls) + len(tally.records)) / tally.seconds
    p95s = [percentile(tally.polls, 0.95), percentile(tally.records, 0.95)]
    errors = sum(tally.errors.values())
    saturated = overrun(tally, p95s, served, offered)
    unchanged = tally.unchanged / len(tally.polls) if tally.polls else 0
    line = (
        f"  x{factor:<4g} {offered:7.1f} {served:7.1f} "
        f"{1000 * percentile(tally.polls, 0.5):8.1f} {1000 * p95s[0]:8.1f} "
        f"{1000 * percentile(tally.records, 0.5):8.1f} {1000 * p95s[1]:8.1f} "
        f"{100 * unchanged:5.0f}% {errors:6d} {tally.server_cpu:6.2f} {tally.own_cpu:6.2f} "
        f"{tally.machine_cpu:7.2f}"
    )
    return line + errors_named(tally), saturated, served


def club_night(kind: str, label: str, raw_url: str, folder: Path) -> str:
    """Play a night on one setup, print every step, and return a summary line."""
    empty_and_migrate(raw_url)
    from refapp.serving.serve import THREADS

    if kind == "waitress":
        what = f"make run: {RUN_WORKERS} processes, {THREADS} threads each"
    else:
        what = " ".join([f"{WORKERS} workers", *GUNICORN[kind]])
    print(f"\n{kind} ({what}) on {label}")
    with live_server(kind, raw_url, folder) as live:
        tables, phones = open_tables(live.port)
        if PUSH:
            print(
                f"  {'pace':5s} {'asked/s':>7s} {'served/s':>7s} {'tell p50':>8s} "
                f"{'tell p95':>8s} {'show p50':>8s} {'show p95':>8s} {'rec p50':>8s} "
                f"{'rec p95':>8s} {'told/expected':>11s} {'errors':>6s} {'server':>6s} "
                f"{'loader':>6s} {'machine':>7s}"
            )
        else:
            print(
                f"  {'pace':5s} {'asked/s':>7s} {'served/s':>7s} {'poll p50':>8s} "
                f"{'poll p95':>8s} {'rec p50':>8s} {'rec p95':>8s} {'304':>6s} {'errors':>6s} "
                f"{'server':>6s} {'loader':>6s} {'machine':>7s}"
            )

        fine: list[tuple[float, float]] = []  # each fine step's pace and server cores
        real_pace: list[str] = []  # with --push: the change-to-phone latency at the real pace
        held: list[float] = []  # with --push: every change-to-phone latency of the fine steps

        def step(factor: float, seconds: float) -> tuple[bool, float]:
            tally = run_step(live, tables, phones, factor, seconds)
            if tally.arrivals is not None and factor == 1:
                real_pace.append(to_phone(tally.arrivals))
            line, saturated, served = describe(factor, tally)
            print(line, flush=True)
            if not saturated:
                fine.append((factor, tally.server_cpu))
                if tally.arrivals is not None:
                    held.extend(tally.arrivals.latencies(tally.arrivals.told)[0])
                    real_pace[1:] = [
                        f"; at every pace held {1000 * percentile(held, 0.5):.0f} ms p50, "
                        f"{1000 * percentile(held, 0.95):.0f} ms p95 ({len(held)} arrivals)"
                    ]
            return saturated, served

        saturated, served = step(1, BASE_SECONDS)
        if saturated:
            return f"{kind:13s} {label:10s} saturated already at the real pace ({served:.0f}/s)"
        factor, healthy = 2, (1, served)
        while factor <= MAX_FACTOR:
            saturated, served = step(factor, STEP_SECONDS)
            if saturated:
                worst = (factor, served)
                if factor >= 4:  # one step between the last fine pace and this one
                    middle = 3 * factor // 4
                    saturated, served = step(middle, STEP_SECONDS)
                    if saturated:
                        worst = (middle, served)
                    else:
                        healthy = (middle, served)
                return (
                    f"{kind:13s} {label:10s} headroom x{healthy[0]} (fine, {healthy[1]:.0f} "
                    f"requests/s); saturated at x{worst[0]} ({worst[1]:.0f} requests/s served)"
                    + cpu_headroom(fine)
                    + "".join(real_pace)
                )
            healthy = (factor, served)
            factor *= 2
        return (
            f"{kind:13s} {label:10s} headroom at least x{MAX_FACTOR} (still fine, "
            f"{healthy[1]:.0f} requests/s)" + cpu_headroom(fine) + "".join(real_pace)
        )


#: the cores of the dedicated machine the server's own CPU is set against
DEDICATED_CORES = 2


def cpu_headroom(fine: list[tuple[float, float]]) -> str:
    """Return the server's own CPU per table-minute at the busiest fine step, and the headroom
    it implies for a machine of DEDICATED_CORES cores serving refapp alone (the stepped headroom
    also counts the load generator and the neighbours sharing this machine)."""
    measured = [(factor, cores) for factor, cores in fine if cores > 0 and not math.isnan(cores)]
    if not measured:
        return "; server CPU not measured (no /proc)"
    factor, cores = measured[-1]
    per_pace = cores / factor  # the server's cores at the real pace
    per_table_minute = per_pace * 60 / TABLES
    return (
        f"; server CPU {1000 * per_table_minute:.0f} ms a table-minute (at x{factor:g}): "
        f"a dedicated {DEDICATED_CORES}-core machine holds x{DEDICATED_CORES / per_pace:.0f} by CPU"
    )


def parse_port(argv: list[str]) -> int | None:
    """Return the port ``--port N`` (or ``--port=N``) names, None when argv names none; set
    PUSH when argv holds ``--push``."""
    global PUSH
    parser = argparse.ArgumentParser(description="A club night against a live refapp server.")
    parser.add_argument("--port", type=int, help="the loopback port to serve on (default: free)")
    parser.add_argument(
        "--push", action="store_true", help="phones hold event streams instead of polling"
    )
    args = parser.parse_args(argv)
    port: int | None = args.port
    if port is not None and not 0 < port < 65536:
        parser.error(f"--port {port}: not a TCP port")
    PUSH = bool(args.push)
    return port


def main(argv: list[str]) -> None:
    """Play the night on every setup asked for and print the ceilings at the end."""
    global PORT
    PORT = parse_port(argv)
    servers = [
        name.strip()
        for name in os.environ.get("BENCH_SERVERS", "waitress,gunicorn").split(",")
        if name.strip() and (name.strip() == "waitress" or not PUSH)
    ]
    unknown = [name for name in servers if name != "waitress" and name not in GUNICORN]
    if unknown:
        sys.exit(f"BENCH_SERVERS: unknown {', '.join(unknown)} (waitress, {', '.join(GUNICORN)})")
    following = (
        "holding their table's event stream (tell: a record's answer to the event of that "
        "version or a later one on each phone's stream; show: to its new <main> fetched; "
        "told/expected: rounds x phones at their table)"
        if PUSH
        else f"polling every {POLL_EVERY:g} s"
    )
    print(
        f"club night: {TABLES} tables recording every {RECORD_EVERY:g} s, {PHONES} phones "
        f"{following}; {BASE_SECONDS:g} s at the real pace, then "
        f"{STEP_SECONDS:g} s a step with time compressed x2, x4, ... until the 95th percentile "
        f"passes {TOO_SLOW:g} s or a request fails.\nTimes in ms. server, loader, machine: CPU "
        f"cores used by the server's processes (not PostgreSQL's), by this load generator and by "
        f"the whole machine ({os.cpu_count()} cores; other work on it shows there)"
    )
    summary, began = [], time.monotonic()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        databases = [("SQLite", f"sqlite:///{folder / 'club.sqlite'}")]
        if os.environ.get("BENCH_DATABASE_URL"):
            databases.append(("PostgreSQL", os.environ["BENCH_DATABASE_URL"]))
        for label, url in databases:
            for kind in servers:
                if label == "SQLite":
                    for leftover in folder.glob("club.sqlite*"):
                        leftover.unlink()
                summary.append(club_night(kind, label, url, folder))
    print(
        f"\nceilings (the load generator shares this machine's cores; "
        f"{time.monotonic() - began:.0f} s in all):"
    )
    for line in summary:
        print(f"  {line}")


if __name__ == "__main__":
    main(sys.argv[1:])
