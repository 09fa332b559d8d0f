"""A few large answers at a time in a process: a session's export, its CSV and printable sheet.

Each of these streams a session's whole history, however long: seconds of a thread and of the
CPU for the largest session, and as long as its client takes to read when the server has no
proxy buffering in front. So they take a place in this process's small pool (``large_answer``);
one past the pool waits up to ``WAIT`` seconds for a slot, more than ``WAITERS`` waiting are not
kept waiting at all, and either is ``503 busy`` with ``Retry-After`` (``Crowded``): the other
threads stay free for the phones' polls and writes. A slot is given back when its answer ends,
fails or is closed by the server (WSGI ``close()``, also when the client went away), once.
Whole-database backups are written by a command (``flask backup``), never by a request.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from flask import current_app

from ...games.errors import N_
from ..writes import Busy

#: large answers produced at once per process: 2 of a club worker's 4 threads (make serve-club)
#: and of ``make run``'s 8 leave the rest for polls and writes; two phones exporting at the end
#: of an evening both go on; each streams at the speed of one CPU, and the machine has two
SLOTS = 2
#: answers kept waiting for a slot at once; more are refused at once, so that at most
#: SLOTS + WAITERS threads of a process are ever on large answers
WAITERS = 1
#: seconds one past the pool waits for a slot (a normal export takes well under a second)
WAIT = 1.5
#: seconds the client is told to wait before asking again (Retry-After)
RETRY_AFTER = 5

Chunk = TypeVar("Chunk")


class Crowded(Busy):
    """Refuse a large answer while the pool is full: 503 ``busy`` with ``Retry-After``."""

    def __init__(self) -> None:
        """Word the refusal (in the reader's language when shown), with the wait the client
        is told."""
        super().__init__(
            N_(
                "The server is sending as many large downloads as it can at once; nothing was "
                "changed. Try again in a few seconds."
            ),
            retry_after=RETRY_AFTER,
        )


class Slot:
    """One place in the pool, given back once whatever ends the answer first."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.given_back = False
        self.handed_on = False
        self.lock = threading.Lock()

    def give_back(self) -> None:
        """Free the place (a second call does nothing)."""
        with self.lock:
            if self.given_back:
                return
            self.given_back = True
        self.pool.give_back()

    def hold(self, chunks: Iterable[Chunk]) -> Held[Chunk]:
        """Return the answer's chunks, holding this slot until they end or are closed."""
        self.handed_on = True
        return Held(chunks, self)


class Held(Iterator[Chunk]):
    """An answer's chunks that give their slot back when they end, fail or are closed."""

    def __init__(self, chunks: Iterable[Chunk], slot: Slot) -> None:
        self.chunks = chunks
        self.iterator = iter(chunks)
        self.slot = slot

    def __next__(self) -> Chunk:
        """Return the next chunk; the slot is free again once the last is out or one failed."""
        try:
            return next(self.iterator)
        except BaseException:
            self.slot.give_back()
            raise

    def close(self) -> None:
        """Close the chunks (WSGI ``close()``: the answer ended, its client left); free the slot."""
        try:
            close = getattr(self.chunks, "close", None)
            if close is not None:
                close()
        finally:
            self.slot.give_back()


class Pool:
    """A process's few places for large answers, and the count of those waiting for one."""

    def __init__(self, slots: int = SLOTS, waiters: int = WAITERS) -> None:
        self.slots, self.waiters = slots, waiters
        self.free = threading.BoundedSemaphore(slots)
        self.lock = threading.Lock()
        self.waiting = self.taken = 0

    def take(self, wait: float | None = None) -> Slot:
        """Return a slot, waiting up to ``wait`` seconds (WAIT) for one, else raise ``Crowded``."""
        if self.free.acquire(blocking=False):
            return self.taken_one()
        with self.lock:
            if self.waiting >= self.waiters:
                raise Crowded()
            self.waiting += 1
        try:
            got = self.free.acquire(timeout=WAIT if wait is None else wait)
        finally:
            with self.lock:
                self.waiting -= 1
        if not got:
            raise Crowded()
        return self.taken_one()

    def taken_one(self) -> Slot:
        """Count a place just taken and return it."""
        with self.lock:
            self.taken += 1
        return Slot(self)

    def give_back(self) -> None:
        """Free a place (``Slot.give_back`` calls this once a slot)."""
        with self.lock:
            self.taken -= 1
        self.free.release()


#: where an app keeps its pool: one app serves a process, so it is the process's (and an app
#: made for a test has its own, so a stream a test left open holds no other test's place)
EXTENSION = "refapp_large_answers"


def pool() -> Pool:
    """Return this app's pool of places for large answers (made at its first large answer)."""
    kept: Pool = current_app.extensions.setdefault(EXTENSION, Pool())
    return kept


@contextmanager
def large_answer() -> Iterator[Slot]:
    """Take a slot for a large answer (or raise ``Crowded``); give it back unless the answer's
    chunks were handed it (``Slot.hold``), and whatever failed before the answer was made."""
    slot = pool().take()
    try:
        yield slot
    except BaseException:
        slot.give_back()
        raise
    if not slot.handed_on:
        slot.give_back()
