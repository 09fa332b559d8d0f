"""Give back to the system the memory an import freed, so a small server stays small.

Python keeps the arenas its objects lived in, and glibc's allocator keeps freed pages in its
heap: after an import of a few hundred MB the server would keep its peak for good. A full
collection frees the objects still held in reference cycles, and on glibc ``malloc_trim(0)``
returns the free pages at the heap's top and middle to the system. Elsewhere (musl, macOS,
Windows) there is no such call, and the collection alone is done. A server's threads share two
heaps (``heaps.few_arenas``), so what a heap keeps is kept twice, not once a thread.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from functools import cache

from ... import heaps


@cache
def trimmer() -> Callable[[int], int] | None:
    """Return glibc's ``malloc_trim``, or None where the C library has none."""
    found: Callable[[int], int] | None = heaps.c_function("malloc_trim", [ctypes.c_size_t])
    return found


def set_aside() -> None:
    """Set the objects alive now (the app's own, long-lived) aside from the cycle collector.

    A large import makes millions of objects, so the collector runs its full collection many
    times, and each walks every object the process holds while no other thread runs: on a
    small machine 100-200 ms in which no poll is answered. Frozen (``gc.freeze``), the app's
    objects are skipped, and a collection walks only what the import made since. They are
    still freed when no longer referenced; only one in a cycle would now stay.
    """
    gc.freeze()


def give_back() -> None:
    """Collect what the import left in cycles and return the freed memory to the system.

    Never fails: a library that cannot trim is simply not asked (the call runs without the
    GIL, as every ctypes call does, so other requests go on meanwhile).
    """
    gc.collect()
    trim = trimmer()
    if trim is None:
        return
    with contextlib.suppress(OSError):  # a C library that refuses: the memory stays ours
        trim(0)
