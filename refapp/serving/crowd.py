"""refapp's front, its connections: who gets in, how long an answer or an idle one may wait.

``RefereeChannel`` is a waitress connection whose requests ``front.RefereeParser`` reads, and
which keeps track of an answer its client keeps waiting (``taking``) and of when it last did
anything but wait (``quiet_since``). ``RefereeServer`` admits connections by address group
(``pace.address_group``) and, each CLEANUP_INTERVAL, cuts requests past their deadline,
closes clients that do not take their answer in time (freeing the worker thread that waits
to write to them) and connections idle past ``pace.KEEP_ALIVE``; near its connection
limit, or past an address's share, it closes the connections idle longest to make room.
A connection holding a session's event stream (``stream``, refapp/serving/stream.py) reads no
more requests, is never idle (kept past the keep-alive, never closed to make room) but is
closed when its client leaves more than ``stream.BACKLOG`` bytes unsent.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Iterable, MutableMapping

from waitress.adjustments import Adjustments
from waitress.buffers import OverflowableBuffer
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from . import pace
from .front import NOT_BLANK, OPENING, ROOM_SEARCH_PAUSE, RefereeParser
from .stream import BACKLOG, Stream, StreamTask, Watcher

log = logging.getLogger("refapp.front")
#: asyncore's map of the open connections by file number, as waitress keeps it
SocketMap = MutableMapping[int, object]


class RefereeChannel(HTTPChannel):  # type: ignore[misc]  # waitress ships no type hints
    """A waitress connection whose requests are parsed by ``RefereeParser``."""

    #: the address group this connection is counted under (empty: not counted)
    group = ""
    #: the request being read, waitress's
    request: RefereeParser | None
    #: the answer the client keeps waiting (its socket full), until it takes all there is
    taking: pace.Progress | None = None
    #: the path of the request served last, for the log
    serving = ""
    #: the session's event stream this connection holds, once its answer is left open
    stream: Stream | None = None
    task_class = StreamTask
    #: waitress's: bytes written to the output buffer now filling
    current_outbuf_count: int

    def __init__(
        self,
        server: object,
        sock: socket.socket,
        addr: object,
        adj: Adjustments,
        map: SocketMap | None = None,
    ) -> None:
        super().__init__(server, sock, addr, adj, map=map)
        self.quiet_since = time.monotonic()
        if isinstance(server, RefereeServer) and not server.admit(self):
            self.will_close = True  # closed at the loop's next turn, before any byte is read

    def readable(self) -> bool:
        """Read nothing on a connection refused at its opening."""
        return not self.will_close and super().readable()

    def handle_read(self) -> None:
        """Read requests; on a stream, read only to see the client leave (bytes are dropped)."""
        if self.stream is None:
            super().handle_read()
            return
        try:
            self.recv(self.adj.recv_bytes)  # b"" (the client left) closes the connection
        except OSError:
            self.handle_close()

    def push(self, data: bytes) -> None:
        """Write a stream's next piece (on the event loop); close a stream its client does not
        take (more than stream.BACKLOG bytes left unsent)."""
        if not self.connected or self.will_close:
            self.drop()
            return
        if self.total_outbufs_len + len(data) > BACKLOG:
            log.warning("closed a stream of session %s: its client takes nothing", self.held())
            self.drop()
            return
        with self.outbuf_lock:
            if self.current_outbuf_count >= self.adj.outbuf_high_watermark:
                self.outbufs.append(OverflowableBuffer(self.adj.outbuf_overflow))
                self.current_outbuf_count = 0
            self.outbufs[-1].append(data)
            self.current_outbuf_count += len(data)
            self.total_outbufs_len += len(data)
        self.handle_write()

    def pull(self, thunk: Callable[[], None]) -> None:
        """Run thunk on this connection's event loop (waitress's trigger)."""
        self.server.trigger.pull_trigger(thunk)

    def drop(self) -> None:
        """Close this connection (on the event loop), its stream forgotten."""
        watcher = self.watcher()
        if watcher is not None:
            watcher.forget(self)
        if self.connected:
            self.handle_close()

    def held(self) -> int | None:
        """Return the session whose stream this connection holds (None: none)."""
        return self.stream.session_id if self.stream is not None else None

    def watcher(self) -> Watcher | None:
        """Return the process's stream watcher (None: streams are not held)."""
        found = getattr(self.server, "watcher", None)
        return found if isinstance(found, Watcher) else None

    def del_channel(self, map: SocketMap | None = None) -> None:
        """Forget this connection, its place in its address's count and its unread body."""
        super().del_channel(map)
        request = self.request
        if isinstance(request, RefereeParser):
            request.close()  # a body cut off by the close: its temporary file goes now
        if self.group and isinstance(self.server, RefereeServer):
            self.server.release(self)
            self.group = ""
        watcher = self.watcher()
        if self.stream is not None and watcher is not None:
            watcher.forget(self)

    def parser_class(self, adj: Adjustments) -> RefereeParser:
        """Return a parser for this connection's next request."""
        return RefereeParser(adj, self)

    def send(self, data: bytes, do_close: bool = True) -> int:
        """Send what the socket takes, counting it as the answer's progress."""
        sent = int(super().send(data, do_close=do_close))
        if sent:
            now = time.monotonic()
            self.quiet_since = now
            taking = self.taking
            if taking is not None:
                taking.advance(sent, now)
        return sent

    def _flush_some(self, do_close: bool = True) -> bool:
        """Send what the socket takes; output left means the client keeps it waiting."""
        flushed = bool(super()._flush_some(do_close=do_close))
        if not self.total_outbufs_len:
            self.taking = None
        elif self.taking is None and self.connected:
            self.taking = pace.Progress(
                time.monotonic(),
                pace.WRITE_GRACE,
                pace.WRITE_RATE,
                pace.WRITE_WINDOW,
                pace.WRITE_STEP,
            )
        return flushed

    def service(self) -> None:
        """Serve the next request (on a worker thread), noting its path for the log."""
        self.serving = self.requests[0].path
        self.quiet_since = time.monotonic()
        super().service()
        self.quiet_since = time.monotonic()
        held, watcher = self.stream, self.watcher()
        if held is not None and watcher is not None and self.connected:
            watcher.watch(self, held)  # the answer stays open: the watcher writes what follows

    def idle(self) -> bool:
        """Return True with no request in progress and nothing left to send (never on a stream)."""
        if (
            self.stream is not None
            or self.requests
            or self.total_outbufs_len
            or self.will_close
            or self.close_when_flushed
        ):
            return False
        request = self.request
        return request is None or (isinstance(request, RefereeParser) and request.blank())

    def arriving(self) -> bool:
        """Return True when a request (not blank lines) waits unread on the socket: an idle
        connection just accepted may not have been read yet."""
        try:
            waiting = self.socket.recv(OPENING, socket.MSG_PEEK)
        except OSError:  # nothing waiting (the socket does not block), or it is gone
            return False
        return NOT_BLANK.search(waiting) is not None

    def cut_short(self, moment: float) -> bool:
        """Answer a request still arriving past its deadline with a 408, then close."""
        with self.requests_lock:
            request = self.request
            if (
                not isinstance(request, RefereeParser)
                or self.requests  # a request is being served: this one cannot be read yet
                or self.will_close
                or self.close_when_flushed
            ):
                return False
            late = request.overdue(moment)
            if late is None:
                return False
            request.refuse(late)
            self.requests.append(request)
            self.request = None
        self.server.add_task(self)
        return True

    def slow_reader(self, moment: float) -> bool:
        """Close a connection whose client does not take its answer in time; log it."""
        taking = self.taking
        why = taking.late(moment) if taking is not None else ""
        if not why or taking is None:
            return False
        address = self.addr[0] if isinstance(self.addr, tuple) else self.addr
        log.warning(
            "closed %s: it took %d bytes of its answer to %s in %d s (%s)",
            address,
            taking.total,
            self.serving or "?",
            taking.seconds(moment),
            why,
        )
        self.handle_close()  # a worker thread waiting to write to it wakes: ClientDisconnected
        return True

    def kept_idle(self, moment: float) -> bool:
        """Close a connection idle past the keep-alive."""
        if self.idle() and moment - self.quiet_since > pace.KEEP_ALIVE:
            self.handle_close()
            return True
        return False


class RefereeServer(TcpWSGIServer):  # type: ignore[misc]  # waitress ships no type hints
    """waitress's TCP server with refapp's connections and its deadlines kept."""

    channel_class = RefereeChannel
    #: connections one client address group may hold at once (0: no limit, as behind a proxy)
    per_address = 0
    #: when to search again for idle connections near the limit (a search found too few)
    next_room_search = 0.0
    #: the process's watcher of held event streams (front.create_server sets it)
    watcher: Watcher | None = None

    def __init__(
        self,
        *args: object,
        per_address: int = 0,
        spool: pace.Spool | None = None,
        **kwargs: object,
    ) -> None:
        self.per_address = per_address
        self.groups: dict[str, set[RefereeChannel]] = {}
        self.spool = spool if spool is not None else pace.Spool(0)
        super().__init__(*args, **kwargs)

    def admit(self, channel: RefereeChannel) -> bool:
        """Count a new connection under its address group; past its share, make room or refuse."""
        self.make_room(keep=channel)
        host = channel.addr[0] if isinstance(channel.addr, tuple) else ""
        if not self.per_address or not host:
            return True
        group = pace.address_group(str(host))
        held = self.groups.setdefault(group, set())
        if len(held) >= self.per_address and not self.evict(held, 1):
            if not held:
                del self.groups[group]
            return False
        held.add(channel)
        channel.group = group
        return True

    def release(self, channel: RefereeChannel) -> None:
        """Give back one connection of an address group."""
        held = self.groups.get(channel.group)
        if held is not None:
            held.discard(channel)
            if not held:
                del self.groups[channel.group]

    def evict(self, channels: Iterable[object], count: int) -> int:
        """Close up to count of these connections that are idle, the longest idle first."""
        idle = [c for c in channels if isinstance(c, RefereeChannel) and c.idle()]
        idle.sort(key=lambda channel: channel.quiet_since)
        closed = 0
        for channel in idle:
            if closed >= count:
                break
            if not channel.arriving():
                channel.handle_close()
                closed += 1
        return closed

    def make_room(self, keep: RefereeChannel | None = None) -> None:
        """Near the connection limit, close the connections idle longest (a share of it)."""
        limit = self.adj.connection_limit
        room = max(1, int(limit * pace.HEADROOM))
        now = time.monotonic()
        if len(self._map) < limit - room or now < self.next_room_search:
            return
        channels = [c for c in self.active_channels.values() if c is not keep]
        if not self.evict(channels, room):
            self.next_room_search = now + ROOM_SEARCH_PAUSE

    def readable(self) -> bool:
        """Make room before each accept near the limit, so accepting never stops for idlers."""
        self.make_room()
        return bool(super().readable())

    def maintenance(self, now: float) -> None:
        """Close silent connections (waitress); answer late requests, close late readers and
        idle connections; make room near the limit."""
        super().maintenance(now)
        moment = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, RefereeChannel) and channel.connected:
                _ = (
                    channel.cut_short(moment)
                    or channel.slow_reader(moment)
                    or channel.kept_idle(moment)
                )
        self.next_room_search = 0.0
        self.make_room()
