"""Server-sent events held by waitress's event loop: a session's version pushed to its phones.

``GET /api/sessions/<id>/events`` is answered by the app once (refapp/api/events.py): its
headers and the first ``version`` event. Served behind refapp's front, the view asks the task
(``HOLD`` in its environment) to keep the connection: ``StreamTask`` then leaves the answer
open (no last chunk, no close) and the channel (crowd.RefereeChannel) stops reading requests
on it and hands it to the process's ``Watcher``. No worker thread waits on a stream: the
watcher is one thread that, every TICK seconds while any stream is open, sends ONE query for
the versions of every watched session and, for each stream whose session moved, queues an
event that the event loop writes (waitress's trigger runs it there, as waitress's worker
threads hand their output over). A version written by the other worker process is seen the
same way, through the database. A comment every HEARTBEAT seconds keeps a quiet stream below
waitress's silence timeout (serve.CHANNEL_TIMEOUT) and tells proxies it is alive.

Memory: a stream is one connection, so the connection limits (serve.CONNECTION_LIMIT,
serve.PER_ADDRESS) bound them; past MAX_STREAMS in a process the app answers 204 (the page
polls) and a stream whose client leaves more than BACKLOG bytes unsent is closed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask
from waitress.task import WSGITask

log = logging.getLogger("refapp.stream")

#: the environment key of the callable that keeps an answer open as a stream (only behind
#: refapp's front): ``hold(session_id, version)`` returns True when the stream is kept
HOLD = "refapp.stream.hold"
#: the app's setting saying streams are held (set by front.create_server): the pages follow
#: their session by its stream (base.html's data-stream) rather than by polling
STREAMS_KEY = "STREAM_EVENTS"
#: seconds between two version queries while streams are open (a change reaches the phones
#: within this, plus the write)
TICK = 0.2
#: seconds of quiet after which a stream gets a comment line (waitress closes a connection
#: silent for 30 s; nginx's proxy_read_timeout on the events location is longer)
HEARTBEAT = 15.0
#: bytes a stream's client may leave unsent before the stream is closed (a few hundred events:
#: a phone that stopped reading is let go, its memory with it)
BACKLOG = 16 * 1024
#: streams one process holds at once (half its connection limit when that is lower); past it
#: the app answers 204 and the page polls
MAX_STREAMS = 1000
#: the reconnection delay an EventSource is told (milliseconds), sent with the first event
RETRY_MS = 2000
#: sessions named in one version query (below every database's limit of parameters)
QUERY_IDS = 500
#: a comment line: nothing for the page, bytes on the wire for the timeouts
HEARTBEAT_LINE = b": still here\n\n"


def version_event(version: int) -> bytes:
    """Return one ``version`` event as the stream sends it."""
    return b'event: version\ndata: {"version": %d}\n\n' % version


def first_events(version: int) -> bytes:
    """Return what a stream starts with: the reconnection delay and the current version."""
    return b"retry: %d\n\n" % RETRY_MS + version_event(version)


@dataclass(eq=False)
class Stream:
    """One held stream: its session, the version it last told, how it frames what follows."""

    session_id: int
    version: int
    #: the answer is chunked (HTTP/1.1); an HTTP/1.0 one ends with the connection
    chunked: bool
    #: when the stream last got an event or heartbeat (time.monotonic())
    told_at: float = field(default_factory=time.monotonic)

    def framed(self, data: bytes) -> bytes:
        """Return data as the answer's next piece (a chunk when the answer is chunked)."""
        return b"%X\r\n%s\r\n" % (len(data), data) if self.chunked else data


class Streaming(Protocol):
    """A connection holding a stream (crowd.RefereeChannel)."""

    stream: Stream | None

    def push(self, data: bytes) -> None:
        """Write data to the client (on the event loop)."""

    def pull(self, thunk: Callable[[], None]) -> None:
        """Run thunk on the connection's event loop."""

    def drop(self) -> None:
        """Close the connection (on the event loop)."""


Versions = Callable[[list[int]], dict[int, int]]


class Watcher:
    """One thread per process telling held streams when their session's version moves."""

    def __init__(self, versions: Versions, tick: float = TICK, limit: int = MAX_STREAMS) -> None:
        self.versions = versions
        self.tick = tick
        self.limit = limit
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.held: dict[Streaming, Stream] = {}
        self.thread: threading.Thread | None = None

    def room(self) -> bool:
        """Return True while another stream may be held."""
        return len(self.held) < self.limit

    def watch(self, channel: Streaming, stream: Stream) -> None:
        """Start telling this connection its session's versions (its thread started once)."""
        with self.lock:
            self.held[channel] = stream
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="refapp-stream", daemon=True)
                self.thread.start()
        self.wake.set()

    def forget(self, channel: Streaming) -> None:
        """Stop telling a connection anything (it closed)."""
        with self.lock:
            self.held.pop(channel, None)

    def run(self) -> None:
        """Every tick while streams are open: one query, then the events; wait while none."""
        while True:
            if not self.held:
                self.wake.clear()
                self.wake.wait(60)
                continue
            time.sleep(self.tick)
            try:
                self.round()
            except Exception:  # a busy or missing database: the next tick tries again
                log.warning("the stream watcher's query failed", exc_info=True)

    def round(self) -> None:
        """Ask the watched sessions' versions once and tell each stream what it has not seen."""
        with self.lock:
            held = list(self.held.items())
        if not held:
            return
        versions = self.versions(sorted({stream.session_id for _, stream in held}))
        now = time.monotonic()
        batch: list[tuple[Streaming, bytes | None]] = []
        for channel, stream in held:
            data = self.news(stream, versions.get(stream.session_id), now)
            if data != b"":
                batch.append((channel, data))
        if batch:  # every connection of a process is on its one event loop: one hand-over
            batch[0][0].pull(lambda: deliver(batch))

    def news(self, stream: Stream, version: int | None, now: float) -> bytes | None:
        """Return what a stream is told now (None: close it, empty: nothing)."""
        if version is None:
            return None  # the session is gone: the page's own read says so
        if version != stream.version:
            stream.version, stream.told_at = version, now
            return stream.framed(version_event(version))
        if now - stream.told_at >= HEARTBEAT:
            stream.told_at = now
            return stream.framed(HEARTBEAT_LINE)
        return b""


def deliver(batch: Iterable[tuple[Streaming, bytes | None]]) -> None:
    """Write each event (on the event loop); None closes that stream."""
    for channel, data in batch:
        if data is None:
            channel.drop()
        else:
            channel.push(data)


def database_versions(app: Flask) -> Versions:
    """Return the query of the watched sessions' versions, on the app's database: on one
    connection the watcher keeps (taken from the pool at its first query, given back after a
    failure), its read ended after each query so the next one sees every write since."""
    from ..extensions import db
    from .fast_reads import MARKS

    with app.app_context():
        engine = db.engine
    mark = MARKS.get(engine.dialect.paramstyle, "?")
    kept: list[Any] = []

    def versions(ids: list[int]) -> dict[int, int]:
        """Return {session id: version} of those that exist, in one query per QUERY_IDS."""
        if not kept:
            kept.append(engine.raw_connection())
        connection = kept[0]
        found: dict[int, int] = {}
        try:
            cursor = connection.cursor()
            try:
                for start in range(0, len(ids), QUERY_IDS):
                    part = ids[start : start + QUERY_IDS]
                    marks = ", ".join([mark] * len(part))
                    cursor.execute(
                        f"SELECT id, version FROM game_session WHERE id IN ({marks})", part
                    )
                    found.update((int(row[0]), int(row[1])) for row in cursor.fetchall())
            finally:
                cursor.close()
            connection.rollback()  # no read left open: the next query sees the latest writes
        except Exception:
            kept.clear()
            connection.invalidate()  # a broken connection is not given back to the pool
            raise
        return found

    return versions


class StreamTask(WSGITask):  # type: ignore[misc]  # waitress ships no type hints
    """waitress's task for one request, which may leave its answer open as a stream."""

    #: the stream the app asked to keep (set by ``hold``)
    held: Stream | None = None

    def get_environment(self) -> dict[str, object]:
        """Return waitress's environment with ``HOLD``, when the process has a watcher."""
        environ: dict[str, object] = super().get_environment()
        if getattr(self.channel.server, "watcher", None) is not None:
            environ[HOLD] = self.hold
        return environ

    def hold(self, session_id: int, version: int) -> bool:
        """Keep this answer open as the session's stream; False when it cannot be (no room)."""
        watcher = getattr(self.channel.server, "watcher", None)
        if self.request.command != "GET" or watcher is None or not watcher.room():
            return False
        self.held = Stream(session_id, version, chunked=self.version == "1.1")
        return True

    def finish(self) -> None:
        """End the answer, or, for a stream, leave it open and hand it to the connection."""
        stream = self.held
        if stream is None or not self.status.startswith("200"):
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")
        stream.chunked = self.chunked_response
        self.close_on_finish = False  # the connection stays, the stream on it
        self.channel.stream = stream
