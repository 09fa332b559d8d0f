"""One import at a time on a server: its memory is counted once, however many are sent at once.

An import reads its body a part at a time, but it still holds a few hundred MB at its peak for
the largest session (the replay's state, a part, the rows being written). Three sent at once
would triple that, so each waits for its turn - in this process (a lock) and across a club
server's worker processes (a lock file in instance/) - before it reads its body. One
that cannot get its turn within ``WAIT`` seconds is ``503 busy`` with ``Retry-After``; nothing
of it was read or stored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..writes import Busy

try:
    import fcntl
except ImportError:  # Windows: one process serves, the thread lock is enough
    fcntl = None  # type: ignore[assignment]

#: seconds an import waits for others to end: the largest takes under a minute on a laptop
#: (bench/import_memory.py), a few on a Raspberry Pi; a waiting import holds a temporary file
#: and a connection, not memory
WAIT = 300.0
#: seconds between two looks at the lock file
POLL = 0.05
LOCK = threading.Lock()


@contextmanager
def one_import(lock_file: Path, wait: float | None = None) -> Iterator[None]:
    """Hold this server's one import turn (waiting up to ``wait`` seconds, by default WAIT),
    else raise Busy."""
    wait = WAIT if wait is None else wait
    deadline = time.monotonic() + wait
    if not LOCK.acquire(timeout=wait):
        raise Busy()
    try:
        if fcntl is None:
            yield
            return
        with open(lock_file, "a+b") as handle:
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise Busy() from None
                    time.sleep(POLL)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        LOCK.release()
