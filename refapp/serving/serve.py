"""Serve refapp with waitress, with limits fit for a table's shared Wi-Fi (``make run``).

    python -m refapp.serving.serve --host 0.0.0.0 --port 8000 [--threads 8] [--workers 2]

waitress reads every request whole on its one event loop before a worker thread sees it, so a
slow sender holds only a connection slot, never a thread; a slow reader of a large answer holds
the thread writing it, until refapp's front closes it (pace.WRITE_*). The front
(refapp/serving/front.py) refuses a body past its route's limit from the headers, asks the app
for the password before it reads an import's large body, answers 408 to a request that trickles
in too slowly, caps the bodies kept in temporary files, and closes idle connections; the limits
below keep slow or idle clients from taking every slot. A session's event stream is held by the
event loop, not a thread, and written by one watcher thread per process (stream.py).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import socket
import sys
from types import FrameType
from typing import TYPE_CHECKING, TypedDict, Unpack

from .. import bodies
from . import front, pace

if TYPE_CHECKING:  # the app is built in main, after the command line is read
    from flask import Flask

#: worker threads running the app. The work is Python under one GIL and SQLite takes one
#: writer at a time, so more threads add no speed; 8 keep polls flowing while a few threads
#: wait on a database lock. On SQLite each keeps a connection for its round writes and takes
#: another for a page; the pool opens one rather than making a thread wait
#: (``refapp.unbounded_sqlite_pool``).
THREADS = 8
#: open connections at once. A phone's browser keeps several keep-alive connections, a club
#: night has dozens of phones, and a client trickling a request holds a slot until its deadline
#: (front.HEADER_SECONDS), then may come back: a high limit (with poll() rather than select(),
#: which cannot watch file descriptors past 1024) leaves room for phones even then. Each slot is
#: one file descriptor, two more while a large body or answer is spooled to a temporary file.
#: Past about 2000 busy connections the one event loop itself slows (docs/deployment.md).
CONNECTION_LIMIT = 2000
#: connections one client address may hold at once: one hostile laptop on the Wi-Fi cannot take
#: every slot, while a whole table behind one router (6 per phone's browser) fits. Behind a
#: reverse proxy every connection comes from the proxy: serve with --connections-per-address 0.
PER_ADDRESS = 200
#: seconds a connection may stay silent (no byte either way) before waitress closes it: a phone
#: polling every few seconds never comes near it. An idle one goes sooner (pace.KEEP_ALIVE,
#: blank lines not counted), one arriving or answered too slowly by the front's deadlines.
CHANNEL_TIMEOUT = 30
#: seconds between checks of silent and idle connections, of requests past their deadline
#: (front.HEADER_SECONDS) and of answers not taken in time: each is acted on within this of it
CLEANUP_INTERVAL = 1
#: waitress's own body limit, a last guard behind the front's per-route one (bodies.body_limit,
#: checked from the headers): the largest legal body (a session import) plus this margin.
BODY_MARGIN = 1024 * 1024
#: bytes of a request body kept in memory before the rest goes to a temporary file: bodies are
#: a few KiB, and 2000 connections each sending 256 KiB would otherwise hold 512 MB of memory
BODY_IN_MEMORY = 64 * 1024
#: large bodies a process keeps in temporary files at once (pace.Spool, reserved from each
#: Content-Length): one import being replayed (the app takes one at a time, services/archive/
#: turns.py) and the next one arriving. Past it a body is refused from its headers, 503 busy, so
#: hostile clients fill at most this many of the largest bodies of disk per process
SPOOL_BODIES = 2
#: file descriptors a connection may hold at once (its socket, a spooled body and answer)
FILES_PER_CONNECTION = 3
#: file descriptors kept for everything that is not a connection (database, logs, modules)
SPARE_FILES = 128

#: how many processes ``make run`` serves with (``--workers``; on Unix): Python runs one thread
#: at a time, so a second process on a second core doubles what a club night can ask
#: (bench/club_night.py). Each keeps its own password throttle, as gunicorn's workers do.
RUN_WORKERS = 2

log = logging.getLogger("refapp.serve")


def largest_body() -> int:
    """Return the largest request body refapp accepts anywhere (a session import's)."""
    return bodies.body_limit(*bodies.IMPORT_ROUTE)


def max_request_body_size() -> int:
    """Return waitress's body limit: above every legal body (waitress refuses >= the limit)."""
    return largest_body() + BODY_MARGIN


def spool_limit() -> int:
    """Return the bytes of bodies one process keeps in temporary files at once."""
    return SPOOL_BODIES * max_request_body_size()


def raise_file_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files towards ``wanted``; return the limit."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        return soft
    return target


class Settings(TypedDict, total=False):
    """How refapp is served: waitress's adjustments refapp sets, and the front's own two."""

    threads: int
    connection_limit: int
    channel_timeout: int
    cleanup_interval: int
    max_request_body_size: int
    inbuf_overflow: int
    asyncore_use_poll: bool
    ident: str
    per_address: int
    spool_limit: int


def settings(**overrides: Unpack[Settings]) -> Settings:
    """Return how refapp is served: waitress's adjustments, per_address and spool_limit (the
    front's), overrides winning."""
    chosen: Settings = {
        "threads": THREADS,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        "max_request_body_size": max_request_body_size(),
        "inbuf_overflow": BODY_IN_MEMORY,
        "asyncore_use_poll": True,
        "ident": "refapp",
        "per_address": PER_ADDRESS,
        "spool_limit": spool_limit(),
    }
    chosen.update(overrides)
    return chosen


def fit_connections(chosen: Settings) -> Settings:
    """Lower the connection limit to what this process may open, raising that first."""
    limit = chosen["connection_limit"]
    files = raise_file_limit(FILES_PER_CONNECTION * limit + SPARE_FILES)
    fitting = max(1, (files - SPARE_FILES) // FILES_PER_CONNECTION)
    if fitting < limit:
        log.warning(
            "only %d open files allowed (ulimit -n): serving at most %d connections, not %d",
            files,
            fitting,
            limit,
        )
        chosen = {**chosen, "connection_limit": fitting}
    return chosen


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve refapp until interrupted."""
    parser = argparse.ArgumentParser(
        prog="python -m refapp.serving.serve", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help=f"processes sharing the port (Unix; make run: {RUN_WORKERS})",
    )
    parser.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT)
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=PER_ADDRESS,
        help="connections one client address may hold (0: no limit, as behind a reverse proxy)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    from .. import served_app

    app = served_app()
    # the session page's join code: a request to localhost is shown the LAN address only when
    # the server listens beyond this computer (refapp/web/join.py)
    app.config["SERVED_HOST"] = args.host
    chosen = fit_connections(
        settings(
            threads=args.threads,
            connection_limit=args.connection_limit,
            per_address=args.connections_per_address,
        )
    )
    log.info(
        "%d threads, %d connections (%d per address), %d s silence, %d s idle allowed, "
        "%d MiB of bodies in temporary files",
        chosen["threads"],
        chosen["connection_limit"],
        chosen["per_address"],
        chosen["channel_timeout"],
        pace.KEEP_ALIVE,
        chosen["spool_limit"] // (1024 * 1024),
    )
    if args.workers > 1 and hasattr(os, "fork"):
        serve_forked(app, listening(args.host, args.port), args.workers, chosen)
        return
    server = front.create_server(app, host=args.host, port=args.port, **chosen)
    server.print_listen("refapp on http://{}:{}/")
    server.run()


def listening(host: str, port: int) -> socket.socket:
    """Return a listening socket on host:port, which every worker process then accepts from."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.create_server((host, port), family=family, backlog=1024)
    sock.setblocking(False)
    return sock


def serve_forked(app: Flask, sock: socket.socket, workers: int, chosen: Settings) -> None:
    """Serve from ``workers`` processes forked from this one, which waits and stops them all.

    The app is built (and frozen) before the fork, so the processes share its memory until they
    write to it; each opens its own database connections. SIGTERM or Ctrl-C stops every worker;
    a worker that dies stops the others, so the server never runs short without saying so.
    """
    from ..extensions import db

    host, port = sock.getsockname()[:2]
    print(f"refapp on http://{host}:{port}/ ({workers} processes)", flush=True)
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # a worker: its own connections, the default signals, serve until stopped
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            with app.app_context():
                db.engine.dispose(close=False)
            front.create_server(app, sockets=[sock], **chosen).run()
            os._exit(0)
        children.append(pid)
    sock.close()

    def stop(signum: int, _frame: FrameType | None) -> None:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    alive = set(children)
    while alive:
        try:
            pid, _status = os.wait()
        except ChildProcessError:
            break
        alive.discard(pid)
        stop(signal.SIGTERM, None)  # one worker gone: stop the rest


if __name__ == "__main__":
    main(sys.argv[1:])
