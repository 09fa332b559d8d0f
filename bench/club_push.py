"""The phones of ``club_night.py --push``: each holds its table's event stream instead of polling.

Every phone opens ``GET /api/sessions/<id>/events`` on a connection of its own (as a browser's
EventSource does) and keeps it for the step; one thread reads all the streams. When a stream
tells a version the phone has not shown, the phone fetches the page's new ``<main>`` on its
other (keep-alive) connection, as live.js does. Measured: the change-to-phone latency (from the
record's answer at its table to the event on each phone's stream) and the time until the phone
has fetched the new ``<main>``.
"""

from __future__ import annotations

import http.client
import queue
import re
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field

#: a version event on a stream (its chunk framing around it is skipped)
VERSION = re.compile(rb'data: \{"version": (\d+)\}')
#: bytes of a stream kept between reads (an event split over two reads)
TAIL = 256


@dataclass
class Arrivals:
    """What the phones saw in one step: when each (table, version) reached each phone."""

    #: (table id, version) -> when the record that made it was answered (time.monotonic())
    answered: dict[tuple[int, int], float] = field(default_factory=dict)
    #: (phone, table id, version, when it reached the phone's stream)
    told: list[tuple[int, int, int, float]] = field(default_factory=list)
    #: seconds from a phone's event to its new <main> fetched
    fetched: list[float] = field(default_factory=list)
    #: (phone, table id, version, when the phone had fetched its new <main>)
    shown: list[tuple[int, int, int, float]] = field(default_factory=list)
    #: table id -> the phones seated at it
    seated: dict[int, list[int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        """Count one failure."""
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1

    def latencies(self, which: list[tuple[int, int, int, float]]) -> tuple[list[float], int]:
        """Return, for each round recorded and each phone at its table, the seconds from the
        record's answer to the phone's first event (or page) of that version or a later one
        (writes close together are told as one, the latest); and how many never arrived."""
        with self.lock:
            answered = dict(self.answered)
            seen: dict[tuple[int, int], list[tuple[int, float]]] = {}
            for phone, table, version, at in which:
                seen.setdefault((phone, table), []).append((version, at))
        found, missing = [], 0
        for (table, version), moment in answered.items():
            for phone in self.seated.get(table, []):
                later = [at for told, at in seen.get((phone, table), []) if told >= version]
                if later:
                    found.append(min(later) - moment)
                else:
                    missing += 1
        return found, missing


class Stream:
    """One phone's open event stream."""

    def __init__(self, host: str, port: int, table: int, version: int) -> None:
        self.table, self.version = table, version
        self.sock = socket.create_connection((host, port), timeout=10)
        request = f"GET /api/sessions/{table}/events HTTP/1.1\r\nHost: {host}\r\n"
        request += "Accept: text/event-stream\r\n\r\n"
        self.sock.sendall(request.encode())
        self.sock.setblocking(False)
        self.buffer = b""
        self.started = False

    def read(self) -> list[int] | None:
        """Return the versions that arrived (None: the server closed the stream)."""
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not data:
            return None
        self.buffer += data
        if not self.started:
            if b"\r\n\r\n" not in self.buffer:
                return []
            head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"a stream answered {head[:80]!r}")
            self.started = True
        found = [int(match.group(1)) for match in VERSION.finditer(self.buffer)]
        self.buffer = self.buffer[-TAIL:]
        if found:
            self.buffer = b""
        return found


class Followers:
    """The night's phones holding their tables' streams for one step."""

    def __init__(self, host: str, port: int, phones: list, arrivals: Arrivals, page) -> None:
        """``phones``: club_night's Phone objects; ``page(phone, client)`` fetches its <main>
        and returns True when it was answered 200; ``client(port)`` is made per phone."""
        self.arrivals = arrivals
        self.page = page
        self.stop = threading.Event()
        self.streams: list[tuple[Stream, object, queue.SimpleQueue]] = []
        for phone in phones:
            version = int(phone.etag.strip('"'))
            arrivals.seated.setdefault(phone.table.id, []).append(id(phone))
            self.streams.append(
                (Stream(host, port, phone.table.id, version), phone, queue.SimpleQueue())
            )
        self.threads = [threading.Thread(target=self.read_all, daemon=True)]
        self.threads += [
            threading.Thread(target=self.show, args=(phone, waiting), daemon=True)
            for _stream, phone, waiting in self.streams
        ]

    def start(self) -> None:
        """Start reading the streams, and the phones' page fetches."""
        for thread in self.threads:
            thread.start()

    def close(self) -> None:
        """Stop the phones and close their streams."""
        self.stop.set()
        for _stream, _phone, waiting in self.streams:
            waiting.put(None)
        for thread in self.threads:
            thread.join(timeout=15)
        for stream, _phone, _waiting in self.streams:
            stream.sock.close()

    def read_all(self) -> None:
        """Read every stream as events come; hand each new version to its phone."""
        chooser = selectors.DefaultSelector()
        for entry in self.streams:
            chooser.register(entry[0].sock, selectors.EVENT_READ, entry)
        try:
            while not self.stop.is_set():
                for key, _ in chooser.select(timeout=0.1):
                    stream, phone, waiting = key.data
                    versions = stream.read()
                    now = time.monotonic()
                    if versions is None:
                        chooser.unregister(stream.sock)
                        if not self.stop.is_set():
                            self.arrivals.error("stream closed")
                        continue
                    for version in versions:
                        if version > stream.version:
                            stream.version = version
                            with self.arrivals.lock:
                                self.arrivals.told.append((id(phone), stream.table, version, now))
                            waiting.put((version, now))
        finally:
            chooser.close()

    def show(self, phone, waiting: queue.SimpleQueue) -> None:
        """Fetch the page's new <main> for each version told (the latest of those waiting)."""
        while True:
            item = waiting.get()
            if item is None:
                return
            while not waiting.empty():  # a page fetched now shows every version told so far
                newer = waiting.get()
                if newer is None:
                    return
                item = newer
            version, told_at = item
            try:
                ok = self.page(phone)
            except (OSError, http.client.HTTPException) as error:
                self.arrivals.error(type(error).__name__)
                continue
            now = time.monotonic()
            if ok:
                phone.etag = f'"{version}"'
                with self.arrivals.lock:
                    self.arrivals.fetched.append(now - told_at)
                    self.arrivals.shown.append((id(phone), phone.table.id, version, now))
            else:
                self.arrivals.error("page")
