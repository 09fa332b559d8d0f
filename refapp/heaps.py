"""A server process's C heaps: its threads share a few (glibc), so memory freed stays bounded."""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from functools import cache
from typing import Any


def c_function(name: str, arguments: list[Any]) -> Any:
    """Return the C library's function of this name (returning an int), or None."""
    try:
        found = ctypes.util.find_library("c")
        library = ctypes.CDLL(found) if found else None
        function = getattr(library, name, None)
    except (OSError, AttributeError, TypeError):  # no C library to load, or none of that name
        return None
    if function is None:
        return None
    function.argtypes = arguments
    function.restype = ctypes.c_int
    return function


#: glibc's ``mallopt`` option for the number of heaps (arenas) threads allocate from
M_ARENA_MAX = -8
#: the heaps a server process allocates from: glibc gives each new thread a heap of its own (up
#: to 8 per core), and a heap an import has used keeps ~5 MiB that ``malloc_trim`` cannot
#: return, once per thread (8 threads: +15 MiB after three imports, +30 MiB over a night);
#: with two, 500-round imports sent one after another leave the server within 2 MiB of where
#: it was (bench/import_memory.py --plain --repeat). The threads take turns on Python's one
#: lock anyway, so they seldom wait for a heap.
ARENAS = 2


def few_arenas() -> None:
    """Make this process's threads share ARENAS heaps (glibc; elsewhere nothing is done).

    Called at a server's start, before its threads are made: a heap is chosen per thread.
    """
    options = mallopt()
    if options is not None:
        options(M_ARENA_MAX, ARENAS)


@cache
def mallopt() -> Callable[[int, int], int] | None:
    """Return glibc's ``mallopt``, or None where the C library has none."""
    found: Callable[[int, int], int] | None = c_function("mallopt", [ctypes.c_int, ctypes.c_int])
    return found
