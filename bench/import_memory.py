"""Peak memory of each game's largest import, alone and three at once, with a phone polling.

Usage: python bench/import_memory.py [ROUNDS [GAME ...]] [--exports] [--workers=N] [--plain]
[--repeat=N]
(default: values.MAX_ROUNDS rounds of each game: the largest sessions; --exports also times
the largest session's export, once and three times at once; --workers: the server's processes,
1 by default so that the polls surely share the importing process, as ``make run``'s 2 share it
only by chance; --plain: the session of ROUNDS rounds as played, without the corrections that
fill the largest one's trail - a small import, a few MB for a few thousand rounds; --repeat:
then sends it N times more one after another, printing the server's resident size after each -
what an import keeps grows with each one, while what a server thread keeps once it has served an
import stops growing when every thread has)

For each game writes the largest valid export its import limit allows (bench/largest_import.py),
starts ``python -m refapp.serving.serve`` (waitress, as ``make run``) on a temporary SQLite file,
and while a phone polls a session every 0.1 s (``?rounds=none`` with ``If-None-Match``, as live.js
does every 2 s: mostly 304s) sends the import once, then three at once (one runs; the others are
``503 busy`` after a brief wait). Printed: the body's size, each import's status and time, the
server's peak resident memory (its processes' together, sampled every 20 ms from /proc; Linux) above
its resting size, as a multiple of the body and against the bar (at most max(50 MB, 4x the
body)), what it still holds 2 s after, and the polls
answered meanwhile with their median, 95th percentile and slowest answer. A poll slower than SLOW is
counted and listed (its ms, and when after the requests began), starred when the machine itself
stalled meanwhile: a canary process that only sleeps 5 ms at a time notes when it woke late (other
work on the shared cores, not the server). Everything stays on 127.0.0.1."""

from __future__ import annotations

import contextlib
import http.client
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import club_night
from club_night import HOST, Client, empty_and_migrate, live_server
from largest_import import GAMES, largest_export, write_largest

from refapp import create_app

POLL_EVERY = 0.1
#: seconds the server is left alone after an import before what it holds is read
SETTLE = 2.0
SAMPLE_EVERY = 0.02
IMPORT_TIMEOUT = 600.0
#: a poll slower than this (seconds) is counted as slow
SLOW = 0.1
#: the bar: an import's peak at most max(FLOOR_MB, TIMES x its body) above the resting size
FLOOR_MB = 50
TIMES = 4
#: the canary: sleeps 5 ms at a time and prints when (monotonic) and how late it woke past 30 ms
CANARY = (
    "import time, sys\n"
    "last = time.monotonic()\n"
    "while True:\n"
    "    time.sleep(0.005)\n"
    "    now = time.monotonic()\n"
    "    if now - last > 0.035:\n"
    "        print(f'{last} {now}', flush=True)\n"
    "    last = now\n"
)


def own_kib(pid: int) -> int:
    """Return a process's resident memory in KiB (0 when it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def resident_kib(pid: int) -> int:
    """Return the resident memory in KiB of a process and all its children together (a forked
    server's workers, an import's child process)."""
    children: list[str] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):  # a child started by any of its threads
        with contextlib.suppress(OSError):
            children += (task / "children").read_text().split()
    return own_kib(pid) + sum(resident_kib(int(child)) for child in children)


class Canary:
    """A process that only sleeps, noting when the machine let it wake late."""

    def __init__(self) -> None:
        self.stalls: list[tuple[float, float]] = []
        self.process = subprocess.Popen(
            [sys.executable, "-c", CANARY], stdout=subprocess.PIPE, text=True
        )
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        """Keep each late wake-up as (slept from, woke at), in monotonic seconds."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            began, woke = line.split()
            self.stalls.append((float(began), float(woke)))

    def stalled(self, began: float, ended: float) -> bool:
        """Return True when the machine stalled the canary during [began, ended]."""
        return any(start < ended and woke > began for start, woke in self.stalls)

    def __enter__(self) -> Canary:
        return self

    def __exit__(self, *_exc) -> None:
        """Stop the canary, whatever happened meanwhile."""
        self.process.terminate()
        self.process.wait()


class Watch:
    """Samples the server's memory and polls a session until stopped."""

    def __init__(self, pid: int, port: int, session_id: int) -> None:
        self.pid, self.port, self.session_id = pid, port, session_id
        self.peak = 0
        self.polls: list[float] = []
        #: (began, seconds) of each poll slower than SLOW
        self.slow: list[tuple[float, float]] = []
        self.failed = 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.sample), threading.Thread(target=self.poll)]

    def __enter__(self) -> Watch:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def sample(self) -> None:
        """Keep the highest resident size seen."""
        while not self.stop.is_set():
            self.peak = max(self.peak, resident_kib(self.pid))
            time.sleep(SAMPLE_EVERY)

    def poll(self) -> None:
        """Poll the session as a phone does, timing each answer."""
        client, etag = Client(self.port), ""
        while not self.stop.is_set():
            began = time.monotonic()
            try:
                status, headers, _ = client.send(
                    "GET",
                    f"/api/sessions/{self.session_id}?rounds=none",
                    headers={"If-None-Match": etag} if etag else None,
                )
                etag = headers.get("ETag", etag)
                if status in (200, 304):
                    took = time.monotonic() - began
                    self.polls.append(took)
                    if took > SLOW:
                        self.slow.append((began, took))
                else:
                    self.failed += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
                client = Client(self.port)
            time.sleep(max(0.0, POLL_EVERY - (time.monotonic() - began)))
        client.close()


def fetch_export(port: int, session_id: int, results: list[str]) -> None:
    """Read a session's export as a phone or a script would, a chunk at a time; note it."""
    began = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=IMPORT_TIMEOUT)
    size = 0
    try:
        connection.request("GET", f"/api/sessions/{session_id}/export")
        response = connection.getresponse()
        while chunk := response.read(1024 * 1024):
            size += len(chunk)
        status = f"{response.status}, {size / 2**20:.0f} MiB"
    except (OSError, http.client.HTTPException) as error:
        status = f"failed: {error}"
    finally:
        connection.close()
    results.append(f"{status} in {time.monotonic() - began:.1f} s")


def send_import(port: int, body: Path, results: list[str]) -> None:
    """Send the export as an import, streaming it from the file; note status and seconds."""
    began = time.monotonic()
    connection = http.client.HTTPConnection(HOST, port, timeout=IMPORT_TIMEOUT)
    try:
        with body.open("rb") as handle:
            connection.request(
                "POST",
                "/api/sessions/import?rounds=none",
                body=handle,
                headers={
                    "Content-Type": "application/json",
                    "Content-Length": str(body.stat().st_size),
                },
            )
            response = connection.getresponse()
            answer = response.read()
        status = str(response.status)
        if response.status != 201:
            status += " " + answer[:200].decode("utf-8", "replace").strip()
    except (OSError, http.client.HTTPException) as error:
        status = f"failed: {error}"
    finally:
        connection.close()
    results.append(f"{status} in {time.monotonic() - began:.1f} s")


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of values lie (nearest rank; NaN when none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def at_once(
    live: tuple[int, int, int], what: str, request, target, count: int, canary: Canary
) -> str:
    """Run count requests at once (``request(port, target, results)``); return what the server
    held meanwhile and after, and what the phone polling ``live``'s session saw."""
    port, pid, session_id = live
    rest = resident_kib(pid)
    results: list[str] = []
    senders = [threading.Thread(target=request, args=(port, target, results)) for _ in range(count)]
    start = time.monotonic()
    with Watch(pid, port, session_id) as watch:
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
    time.sleep(SETTLE)
    after = resident_kib(pid)
    size = target.stat().st_size / 1024 if isinstance(target, Path) else 0
    ratio = f" = {(watch.peak - rest) / size:.2f} x the body" if size else ""
    if size:
        most = max(FLOOR_MB * 1000**2 / 1024, TIMES * size)  # KiB
        ratio += (
            f"; at most max({FLOOR_MB} MB, {TIMES}x body) = {most / 1024:.0f} MiB: "
            f"{'yes' if watch.peak - rest <= most else 'NO'}"
        )
    polls = [poll * 1000 for poll in watch.polls]
    time.sleep(0.1)  # the canary's last lines
    starved = [poll for poll in watch.slow if canary.stalled(poll[0], poll[0] + poll[1])]
    slow = ", ".join(
        f"{took * 1000:.0f}{'*' if (began, took) in starved else ''} at {began - start:.1f} s"
        for began, took in sorted(watch.slow, key=lambda poll: -poll[1])[:8]
    )
    return (
        f"{what}, {count} at once: {'; '.join(sorted(results))}\n"
        f"  peak resident {watch.peak / 1024:.0f} MiB (resting {rest / 1024:.0f} MiB, "
        f"+{(watch.peak - rest) / 1024:.0f} MiB{ratio}); {SETTLE:.0f} s after: "
        f"{after / 1024:.0f} MiB (+{(after - rest) / 1024:.0f} MiB kept)\n"
        f"  polls answered {len(polls)}, failed {watch.failed}: p50 "
        f"{percentile(polls, 0.5):.0f} ms, p95 {percentile(polls, 0.95):.0f} ms, max "
        f"{max(polls, default=float('nan')):.0f} ms; over {SLOW * 1000:.0f} ms: {len(watch.slow)}"
        f" ({len(starved)} while the machine stalled{': ' + slow if slow else ''})"
    )


def write_plain(out: Path, count: int | None, slug: str) -> str:
    """Write a game's session of count rounds as played (no corrections) to out; return a line
    saying its size."""
    with create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    ).app_context():
        body = largest_export(count or 300, None, slug)
    with out.open("w", encoding="utf-8") as handle:
        json.dump(body, handle, ensure_ascii=False, separators=(",", ":"))
    size = out.stat().st_size
    return (
        f"plain {slug} import: {len(body['rounds'])} rounds, {size:,} bytes ({size / 1e6:.1f} MB)"
    )


def one_after_another(live: club_night.Live, body: Path, count: int) -> None:
    """Send the import count times, one after another; print the resident size after each."""
    for number in range(1, count + 1):
        results: list[str] = []
        send_import(live.port, body, results)
        time.sleep(SETTLE / 2)
        resident = resident_kib(live.pid) / 1024
        print(f"  import {number} of {count} one after another: {results[0]}; resident "
              f"{resident:.0f} MiB", flush=True)  # fmt: skip


def main(argv: list[str]) -> None:
    """For each game: write its largest import, serve refapp, send it alone and three at once."""
    exports = "--exports" in argv
    plain = "--plain" in argv
    workers = [int(arg.split("=", 1)[1]) for arg in argv if arg.startswith("--workers=")]
    club_night.RUN_WORKERS = workers[-1] if workers else 1  # live_server serves with these
    argv = [arg for arg in argv if arg not in ("--exports", "--plain")]
    repeats = [int(arg.split("=", 1)[1]) for arg in argv if arg.startswith("--repeat=")]
    argv = [arg for arg in argv if not arg.startswith(("--workers=", "--repeat="))]
    count = int(argv[0]) if argv else None
    games = argv[1:] or list(GAMES)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        url = f"sqlite:///{folder / 'bench.sqlite'}"
        empty_and_migrate(url)
        with Canary() as canary, live_server("waitress", url, folder) as live:
            phone = Client(live.port)
            status, _, answer = phone.send(
                "POST", "/api/sessions", {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
            )
            phone.close()
            if status != 201:
                sys.exit(f"could not create the polled session: {status} {answer[:200]!r}")
            session_id = int(answer.split(b'"id":', 1)[1].split(b",", 1)[0])
            live_server_ids = (live.port, live.pid, session_id)
            for slug in games:
                body = folder / f"largest-{slug}.json"
                write = write_plain if plain else write_largest
                print(write(body, count, slug), flush=True)
                for many in (1, 3):
                    line = at_once(live_server_ids, "import", send_import, body, many, canary)
                    print(line, flush=True)
                one_after_another(live, body, repeats[-1] if repeats else 0)
                body.unlink()
            if exports:  # the session imported first (ids follow the polled session's)
                for many in (1, 3):
                    line = at_once(
                        live_server_ids, "export", fetch_export, session_id + 1, many, canary
                    )
                    print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
