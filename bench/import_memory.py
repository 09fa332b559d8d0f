"""Peak memory of the largest import the limit allows, alone and three at once, with phones polling.

Usage: python bench/import_memory.py [ROUNDS]   (default: values.MAX_ROUNDS, the largest session)

Writes the largest valid export the import limit allows (bench/largest_import.py: corrected
Mighty hands played trick by trick), starts ``python -m refapp.serve`` (waitress, as ``make
run``) on a temporary SQLite file, and while a phone polls a session every 0.5 s (``?rounds=none``
with ``If-None-Match``, as live.js does every 2 s) sends the import once, then three at once.
Printed: the body's size, each import's status and time, the server's peak resident memory
(sampled every 20 ms from /proc; Linux) above its resting size and in all, and the polls
answered during the import with their slowest answer; then the same while the largest session
is exported, once and three times at once. Everything stays on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import sys
import tempfile
import threading
import time
from pathlib import Path

from club_night import HOST, Client, empty_and_migrate, live_server
from largest_import import write_largest

POLL_EVERY = 0.5
SAMPLE_EVERY = 0.02
IMPORT_TIMEOUT = 600.0


def resident_kib(pid: int) -> int:
    """Return a process's resident memory in KiB (0 when it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Watch:
    """Samples the server's memory and polls a session until stopped."""

    def __init__(self, pid: int, port: int, session_id: int) -> None:
        self.pid, self.port, self.session_id = pid, port, session_id
        self.peak = 0
        self.polls: list[float] = []
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
                    self.polls.append(time.monotonic() - began)
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
            status += " " + answer[:200].decode("utf-8", "replace")
    except (OSError, http.client.HTTPException) as error:
        status = f"failed: {error}"
    finally:
        connection.close()
    results.append(f"{status} in {time.monotonic() - began:.1f} s")


def at_once(live: tuple[int, int, int], what: str, request, target, count: int) -> str:
    """Run count requests at once (``request(port, target, results)``); return what the server
    held meanwhile and what the phone polling ``live``'s session saw."""
    port, pid, session_id = live
    rest = resident_kib(pid)
    results: list[str] = []
    senders = [threading.Thread(target=request, args=(port, target, results)) for _ in range(count)]
    with Watch(pid, port, session_id) as watch:
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
    slowest = max(watch.polls, default=float("nan"))
    return (
        f"{what}, {count} at once: {'; '.join(results)}\n"
        f"  peak resident {watch.peak / 1024:.0f} MiB (resting {rest / 1024:.0f} MiB, "
        f"+{(watch.peak - rest) / 1024:.0f} MiB); polls answered {len(watch.polls)}, "
        f"failed {watch.failed}, slowest {slowest * 1000:.0f} ms"
    )


def main(argv: list[str]) -> None:
    """Write the largest import, serve refapp, send it alone and three at once."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        body = folder / "largest.json"
        print(write_largest(body, int(argv[0]) if argv else None), flush=True)
        url = f"sqlite:///{folder / 'bench.sqlite'}"
        empty_and_migrate(url)
        with live_server("waitress", url, folder) as live:
            phone = Client(live.port)
            status, _, answer = phone.send(
                "POST", "/api/sessions", {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
            )
            phone.close()
            if status != 201:
                sys.exit(f"could not create the polled session: {status} {answer[:200]!r}")
            session_id = int(answer.split(b'"id":', 1)[1].split(b",", 1)[0])
            live_server_ids = (live.port, live.pid, session_id)
            for count in (1, 3):
                print(at_once(live_server_ids, "import", send_import, body, count), flush=True)
            # the session imported first (ids follow the polled session's)
            for count in (1, 3):
                line = at_once(live_server_ids, "export", fetch_export, session_id + 1, count)
                print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
