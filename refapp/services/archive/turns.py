"""One large import at a time on a server: its memory is counted once, however many are sent.

An import reads its body a part at a time, but a large one still holds a few times its parts at
its peak (the replay's state, a part, the rows being written) and keeps a CPU busy for seconds.
So a large import (a body over ``LARGE`` bytes) takes the server's one import turn - in this
process (a lock) and across a club server's worker processes (a lock file in instance/) -
before it reads its body; on PostgreSQL the turn is an advisory lock of the database instead,
so app servers on several hosts sharing one database take turns too. One that cannot get the
turn within ``WAIT`` seconds is ``503 busy`` with ``Retry-After`` (``writes.Busy``, as a write
that could not get its turn); nothing of it was read or stored. A small import (a few hundred
rounds) never waits for a large one, but small ones take turns among themselves (``SMALL``, in
this process, waiting up to ``SMALL_WAIT`` seconds): each holds several times its body at its
peak, and three at once would hold three times that. After every import, small or large, the
memory it freed is given back to the system (``memory.give_back``), which Python and the C
library would otherwise keep for good.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from sqlalchemy import func, select

from ...extensions import db
from ..writes import Busy
from .memory import give_back, set_aside

try:
    import fcntl
except ImportError:  # Windows: one process serves, the thread lock is enough
    fcntl = None  # type: ignore[assignment]

#: a body larger than this is a large import: it takes the turn (4 MiB: 300-500 rounds with
#: their trail, by the bench's largest exports; a whole evening's session is far smaller)
LARGE = 4 * 1024 * 1024
#: seconds a large import waits for another to end before it is refused busy: a brief wait,
#: so a second large import sent at the same moment is answered at once rather than holding
#: a connection for the minute the first takes
WAIT = 2.0
#: the interpreter's switch interval while a large import runs (``sharing``)
SWITCH = 0.001
#: seconds between two looks at the lock file
POLL = 0.05
LOCK = threading.Lock()
#: the PostgreSQL advisory lock of the one import turn of every server sharing the database
IMPORT_LOCK = 0x494D504F
#: the small imports' own turn: one at a time in a process, never behind a large one
SMALL = threading.Lock()
#: seconds a small import waits for another small one (each takes a second or two) before it
#: is refused busy
SMALL_WAIT = 10.0


def is_large(size: int) -> bool:
    """Return True for an import body large enough to take the server's one import turn."""
    return size > LARGE


@contextmanager
def one_import(lock_file: Path, wait: float | None = None, *, large: bool = True) -> Iterator[None]:
    """Hold this server's one import turn for a large import (waiting up to ``wait`` seconds,
    by default WAIT), else raise Busy; a small import takes the small imports' turn (up to
    SMALL_WAIT). Either gives its memory back when it ends."""
    if not large:
        if not SMALL.acquire(timeout=SMALL_WAIT):
            raise Busy()
        try:
            yield
        finally:
            give_back()
            SMALL.release()
        return
    wait = WAIT if wait is None else wait
    deadline = time.monotonic() + wait
    if not LOCK.acquire(timeout=wait):
        raise Busy()
    try:
        with held_everywhere(lock_file, deadline), sharing():
            set_aside()
            try:
                yield
            finally:
                give_back()
    finally:
        LOCK.release()


@contextmanager
def sharing() -> Iterator[None]:
    """Let other threads take the interpreter more often while a large import runs.

    Python hands its one lock (the GIL) from a busy thread to a waiting one every switch
    interval (5 ms by default); a poll waits for it at each of its many I/O calls, so behind a
    busy import it takes tens of ms. At SWITCH seconds it waits a fifth as long each time.
    """
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, SWITCH))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def held_everywhere(lock_file: Path, deadline: float) -> AbstractContextManager[None]:
    """Return the turn every server sharing this database takes: on PostgreSQL its advisory
    lock (several hosts may share it), on SQLite the lock file (one host's file)."""
    if db.engine.dialect.name == "postgresql":
        return held_advisory(deadline)
    return held_file(lock_file, deadline)


@contextmanager
def held_advisory(deadline: float) -> Iterator[None]:
    """Hold the database's import lock (waiting until ``deadline``) on a connection of its own,
    kept for the import's length, else Busy; a host that dies frees it with its connection."""
    with db.engine.connect() as connection:
        taken = select(func.pg_try_advisory_lock(IMPORT_LOCK))
        while not connection.execute(taken).scalar():
            connection.rollback()
            if time.monotonic() >= deadline:
                raise Busy()
            time.sleep(POLL)
        connection.commit()  # the lock is the connection's, past any transaction
        try:
            yield
        finally:
            connection.execute(select(func.pg_advisory_unlock(IMPORT_LOCK)))
            connection.commit()


@contextmanager
def held_file(lock_file: Path, deadline: float) -> Iterator[None]:
    """Hold the lock file every worker process shares (waiting until ``deadline``), else Busy."""
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
