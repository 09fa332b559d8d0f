"""Wrong passwords slowed per device pass, per client address and for the whole table.

Pure Python under a lock, no Flask: the rules and their parameters, and one process's state in
memory. The app counts by these rules in the database (``shared_throttle``), so every host and
worker process shares the counts; ``access`` asks it before checking a password and tells it
how each check went, naming the device's pass when it shows one.
"""

from __future__ import annotations

import threading
from typing import Any


class Throttle:
    """Failed password attempts, per device pass, per client address and for the whole table.

    Per address: the first ``free`` failures cost nothing (a mistype or two); each later one
    makes that address wait ``base`` seconds, doubled per failure, at most ``cap``. So the right
    password is never held back more than ``cap`` seconds, and a guesser gets one try per ``cap``
    seconds. A success, or ``forget`` seconds without a failure, forgets the address's failures.

    For the whole table, against a guesser with many addresses: every failure spends one of
    ``burst`` tries that come back at ``rate`` a second; while none is left, only addresses that
    gave the right password in the last ``trust`` seconds (the table's own phones) may try. An
    address with a failure on record (within ``forget``) waits ``grace`` seconds longer for a try
    than one without, so a phone joining gets the next try before the guessers do; the table's
    tries are spent at the same rate either way.

    A device that shows a pass (``access`` gives one with each right password) is counted by
    that pass alone, with the same free failures and waits: what other devices at its address,
    or anywhere, get wrong never holds it back. A pass comes only with the right password, so
    guessers have none to share out.

    The state here is this process's memory - dicts under a lock, at most ``size`` addresses
    each (the oldest go first). The app counts in the database instead, with this class's
    parameters and rules (``shared_throttle.SharedThrottle``), so every host and worker process
    counts the same guesses.
    """

    def __init__(
        self,
        free: int = 2,
        base: float = 1.0,
        cap: float = 5.0,
        size: int = 4096,
        forget: float = 3600.0,
        burst: float = 60.0,
        rate: float = 1.0,
        trust: float = 12 * 3600.0,
        grace: float = 1.0,
    ) -> None:
        self.free, self.base, self.cap, self.size, self.forget = free, base, cap, size, forget
        self.burst, self.rate, self.trust, self.grace = burst, rate, trust, grace
        self.clients: dict[str, tuple[int, float, float]] = {}  # failures, until, last failure
        self.devices: dict[str, tuple[int, float, float]] = {}  # the same, per device pass
        self.trusted: dict[str, float] = {}  # address: its last success
        self.tries = burst  # the table's tries left
        self.filled: float | None = None  # and when they were last refilled
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.clients) + len(self.devices) + len(self.trusted)

    def wait(self, client: str, moment: float, device: str | None = None) -> float:
        """Return how many seconds the client (or its device) must wait to try (0: may try)."""
        with self.lock:
            if device is not None:
                entry = self.devices.get(device)
                return max(0.0, entry[1] - moment) if entry else 0.0
            entry = self.clients.get(client)
            own = max(0.0, entry[1] - moment) if entry else 0.0
            if self.is_trusted(client, moment):
                return own
            self.refill(moment)
            # an address with failures on record needs a grace's worth of tries more than one
            # without: guessers take a try only once a newcomer could have had it
            failing = entry is not None and not self.forgotten(entry, moment)
            needed = 1.0 + (self.grace * self.rate if failing else 0.0)
            return max(own, (needed - self.tries) / self.rate, 0.0)

    def failed(self, client: str, moment: float, device: str | None = None) -> None:
        """Count a failed attempt: set the device's wait, or the client's and the table's."""
        with self.lock:
            if device is not None:
                self.count(self.devices, device, moment)
                return
            self.count(self.clients, client, moment)
            self.refill(moment)
            self.tries = max(0.0, self.tries - 1.0)

    def count(self, kept: dict[str, tuple[int, float, float]], key: str, moment: float) -> None:
        """Count one more failure of an address or a pass and set its wait (the lock is held)."""
        failures, _until, last = kept.pop(key, (0, 0.0, moment))
        if moment - last > self.forget:
            failures = 0
        failures += 1
        self.make_room(kept, moment)
        kept[key] = (failures, self.until(failures, moment), moment)

    def until(self, failures: int, last: float) -> float:
        """Return when a wait set by the ``failures``-th failure at ``last`` ends."""
        if failures <= self.free:
            return last
        doubled = self.base * float(2 ** min(failures - self.free - 1, 30))
        return last + min(doubled, self.cap)

    def succeeded(self, client: str, moment: float, device: str | None = None) -> None:
        """Forget the device's failures; without one, the client's, and trust its address."""
        with self.lock:
            if device is not None:
                # the address is left alone: a phone's success never clears or trusts a guesser
                # that shares its address
                self.devices.pop(device, None)
                return
            self.clients.pop(client, None)
            self.trusted.pop(client, None)
            self.make_room(self.trusted, moment)
            self.trusted[client] = moment

    def is_trusted(self, client: str, moment: float) -> bool:
        """Return True for an address that gave the right password lately (the lock is held)."""
        last = self.trusted.get(client)
        return last is not None and 0 <= moment - last <= self.trust

    def refill(self, moment: float) -> None:
        """Give back the table's tries earned since the last look (the lock is held)."""
        if self.filled is not None:
            self.tries = min(self.burst, self.tries + max(0.0, moment - self.filled) * self.rate)
        self.filled = moment

    def make_room(self, kept: dict[str, Any], moment: float) -> None:
        """Drop forgotten addresses, then the oldest, until one more fits (the lock is held)."""
        if len(kept) < self.size:
            return
        for client, value in list(kept.items()):
            if self.forgotten(value, moment):
                del kept[client]
        while len(kept) >= self.size:
            del kept[next(iter(kept))]

    def forgotten(self, value: Any, moment: float) -> bool:
        """Return True for a kept entry that no longer counts (a failure or a success)."""
        if isinstance(value, tuple):
            _failures, until, last = value
            return bool(moment - last > self.forget and moment >= until)
        return bool(moment - value > self.trust)
