"""Serve refapp with waitress, with limits fit for a table's shared Wi-Fi (``make run``).

    python -m refapp.serve --host 0.0.0.0 --port 8000 [--threads 8]

waitress reads every request whole on its one event loop before a worker thread sees it, so a
slow client holds only a connection slot, never a thread. The limits below keep slow or idle
clients from taking every slot, and refuse a body larger than any legal one from its
Content-Length alone, before waitress would spool it to a temporary file.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from waitress import serve

#: worker threads running the app. The work is Python under one GIL and SQLite takes one
#: writer at a time, so more threads add no speed; 8 keep polls flowing while a few threads
#: wait on a database lock, and stay within SQLAlchemy's pool (5 + 10 overflow connections).
THREADS = 8
#: open connections at once. A phone's browser keeps several keep-alive connections, a club
#: night has dozens of phones, and a client trickling a request line holds a slot as long as it
#: keeps sending: a high limit (with poll() rather than select(), which cannot watch file
#: descriptors past 1024) leaves hundreds of slots for phones even then. Each slot is one file
#: descriptor, two more while a large body or answer is spooled to a temporary file.
CONNECTION_LIMIT = 1000
#: seconds a connection may stay silent (no request bytes, no answer bytes taken) before it is
#: closed: a phone polling every few seconds never comes near it; a dead or idle one lets its
#: slot go within CHANNEL_TIMEOUT + CLEANUP_INTERVAL seconds.
CHANNEL_TIMEOUT = 30
CLEANUP_INTERVAL = 10
#: waitress's body limit is the largest legal body (a session import, archive.IMPORT_MAX_BYTES)
#: plus this margin: bodies a little over the app's own limits still reach the app, which
#: refuses them with the API's JSON ``413 too_large``; past it waitress answers a plain 413
#: itself, from the Content-Length alone. Every body under it (past 512 KiB) waitress spools
#: to a temporary file before the app sees it.
BODY_MARGIN = 1024 * 1024
#: file descriptors a connection may hold at once (its socket, a spooled body and answer)
FILES_PER_CONNECTION = 3
#: file descriptors kept for everything that is not a connection (database, logs, modules)
SPARE_FILES = 128

log = logging.getLogger("refapp.serve")


def largest_body() -> int:
    """Return the largest request body refapp accepts anywhere (a session import)."""
    from . import MAX_BODY
    from .services.archive.imports import IMPORT_MAX_BYTES

    return max(IMPORT_MAX_BYTES, MAX_BODY)


def max_request_body_size() -> int:
    """Return waitress's body limit: above every legal body (waitress refuses >= the limit)."""
    return largest_body() + BODY_MARGIN


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


def settings(**overrides: Any) -> dict[str, Any]:
    """Return the waitress adjustments refapp is served with (overrides win)."""
    chosen: dict[str, Any] = {
        "threads": THREADS,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        "max_request_body_size": max_request_body_size(),
        "asyncore_use_poll": True,
        "ident": "refapp",
    }
    chosen.update(overrides)
    return chosen


def fit_connections(chosen: dict[str, Any]) -> dict[str, Any]:
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
        prog="python -m refapp.serve", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    from . import create_app

    chosen = fit_connections(settings(threads=args.threads, connection_limit=args.connection_limit))
    log.info(
        "%d threads, %d connections, %d s silence allowed, bodies under %d bytes",
        chosen["threads"],
        chosen["connection_limit"],
        chosen["channel_timeout"],
        chosen["max_request_body_size"],
    )
    serve(create_app(), host=args.host, port=args.port, **chosen)


if __name__ == "__main__":
    main(sys.argv[1:])
