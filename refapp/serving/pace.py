"""The paces and shares refapp's front (refapp/serving/front.py) holds clients to.

- ``Progress``: bytes moving one way on a connection (a body arriving, an answer being taken),
  held to an average rate after a grace AND to a windowed minimum: a step of bytes within each
  window, whatever came before, so a fast start buys no hours of trickling afterwards;
- ``address_group``: the client address a connection is counted under (an IPv6 /64, an
  IPv4-mapped IPv6 address as its IPv4 one);
- ``Spool``: the bytes of request bodies a process keeps in temporary files at once.
"""

from __future__ import annotations

import ipaddress
import threading

#: seconds within which a body must bring each BODY_STEP more bytes (or end), whatever came
#: before: a phone on a poor 128 kbit/s link (16 KB/s) sends a step in 4 s, and may stall for
#: 10 s more (a Wi-Fi roam) and still get through; a body that stops is cut within this
BODY_WINDOW = 15
#: bytes a body must bring within each BODY_WINDOW (its remainder, when less is left)
BODY_STEP = 64 * 1024
#: seconds a client may keep an answer waiting before the average rate below is asked of it
WRITE_GRACE = 10
#: bytes a second a client must take a waiting answer at, on average: a quarter of a poor
#: 128 kbit/s link (16 KB/s), so a phone on one takes a 30 MB backup (about 31 minutes) and
#: succeeds even when a bad spell halves its speed for a while
WRITE_RATE = 4 * 1024
#: seconds within which a client must take each WRITE_STEP more bytes of a waiting answer: a
#: phone whose link pauses for a few seconds goes on; one that stops reading is closed. The
#: kernel wakes a writer only once a good part of its send buffer is free, so a slow reader's
#: progress is seen in bursts: the window is wide enough for a few of them
WRITE_WINDOW = 20
#: bytes a client must take within each WRITE_WINDOW (about 4 s of a 128 kbit/s link)
WRITE_STEP = 64 * 1024
#: seconds an idle connection (no request in progress, nothing left to send) is kept after its
#: last answer: phones poll every 2-3 s, so theirs stay open; blank lines do not count as a
#: request, so a client sending only those is closed as idle
KEEP_ALIVE = 10
#: the share of a process's connection limit kept free: past limit minus this, the connections
#: idle longest are closed to make room (a phone's browser opens a new one when it needs it)
HEADROOM = 0.05
#: bits of an IPv6 address one client is counted by: one home or phone network is given a /64
IPV6_CLIENT_PREFIX = 64


class Progress:
    """Bytes moving one way, held to an average rate after a grace and a step per window."""

    def __init__(self, now: float, grace: float, rate: float, window: float, step: int) -> None:
        self.started = self.mark = now
        self.grace, self.rate, self.window, self.step = grace, rate, window, step
        self.total = self.since_mark = 0

    def advance(self, count: int, now: float) -> None:
        """Count bytes moved at ``now``; a whole step moved opens a new window."""
        if count <= 0:
            return
        self.total += count
        self.since_mark += count
        if self.since_mark >= self.step:
            self.mark, self.since_mark = now, 0

    def late(self, now: float) -> str:
        """Return why the bytes are late at ``now`` (stalled, too slow), or '' when in time."""
        if now - self.mark > self.window:
            return f"not {self.step} bytes in {self.window} s"
        taking = now - self.started
        if taking > self.grace and self.total < (taking - self.grace) * self.rate:
            return f"under {self.rate} bytes a second after {self.grace} s"
        return ""

    def seconds(self, now: float) -> int:
        """Return the whole seconds since the bytes began to move."""
        return round(now - self.started)


def address_group(host: str) -> str:
    """Return the address a client is counted under: IPv6 by its /64, mapped IPv4 as IPv4."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        network = ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False)
        return str(network)
    return str(address)


class Spool:
    """The bytes of request bodies one process keeps in temporary files at once, capped."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self.lock = threading.Lock()

    def reserve(self, count: int) -> bool:
        """Reserve room for count more bytes; False (nothing reserved) past the cap."""
        with self.lock:
            if self.limit and self.held + count > self.limit:
                return False
            self.held += count
            return True

    def release(self, count: int) -> None:
        """Give back bytes reserved before."""
        with self.lock:
            self.held = max(0, self.held - count)
