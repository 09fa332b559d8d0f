"""What a process keeps of what it built, bounded: the least recently used is let go first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

from flask import Flask

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A thread-safe map of at most ``most`` entries."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.entries: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """Return what is kept under key (now the most recently used), or None."""
        with self.lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep value under key, letting the least recently used go past ``most``."""
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.most:
                self.entries.popitem(last=False)

    def __iter__(self) -> Iterator[K]:
        """Yield the keys kept."""
        with self.lock:
            return iter(list(self.entries))


def kept_of(app: Flask, name: str, most: int) -> Kept:  # type: ignore[type-arg]
    """Return the app's ``Kept`` of this name (one per app: its ids are its own)."""
    kept = app.extensions.get(name)
    if kept is None:
        kept = app.extensions.setdefault(name, Kept(most))
    return kept  # type: ignore[no-any-return]
