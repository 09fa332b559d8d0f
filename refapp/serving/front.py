"""waitress's front for refapp: body limits from the headers, the password first, deadlines.

waitress reads each request whole on its event loop before a worker thread runs the app. Its
request parser is replaced here (``RefereeParser``) so that, once the headers are in:

- a body declared larger than its route takes (``bodies.body_limit``) is refused at once, and a
  chunked body as soon as it grows past it, so nothing past the limit is kept or spooled;
- for the one route that takes a large body (the import) the app is asked first, with the
  headers alone, whether the request may go on: its password guard answers (with its throttle),
  and a refusal is sent without a body byte kept;
- a request must arrive in time: its headers within HEADER_SECONDS of its first byte, its body
  at BODY_RATE bytes a second on average after a grace of BODY_GRACE seconds AND a step of
  bytes within each window (pace.BODY_WINDOW): a body that stops is cut (408) and its
  temporary file closed at once, whatever came before. A client that trickles bytes keeps a
  connection alive, so the silence timeout alone never frees its slot;
- bodies kept in temporary files share a cap per process (pace.Spool, reserved from
  Content-Length): past it a request is refused from its headers, ``503 busy``;
- an answer must be taken in time (pace.WRITE_*): a client that stops reading is closed,
  so the worker thread waiting to write to it is freed (ClientDisconnected), and logged;
- a connection idle past pace.KEEP_ALIVE is closed (blank lines are no request); near the
  connection limit, or past an address's share, the connections idle longest make room;
- the front's own refusals under /api carry the API's JSON error shape (bodies.error_body).
"""

from __future__ import annotations

import io
import logging
import re
import time
from urllib.parse import urlsplit
from wsgiref.types import WSGIApplication

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher, WSGITask
from waitress.utilities import Error

from .. import bodies
from ..games.codes import status_of
from . import pace

#: seconds from a request's first byte until its headers must be complete (a phone sends them
#: in one packet; a trickling client is answered 408 and closed)
HEADER_SECONDS = 10
#: seconds a body may take before the average rate below is asked of it
BODY_GRACE = 10
#: bytes a second a body must average after the grace: a poor 128 kbit/s link sends twice that
BODY_RATE = 8 * 1024
#: bytes of a request's start kept to know its path when its headers cannot be parsed
OPENING = 2048
#: seconds between two searches for idle connections to close near the connection limit, when
#: the last found none: a crowd of busy connections is not searched at every turn of the loop
ROOM_SEARCH_PAUSE = 0.25
#: anything but a blank: bytes before it are blank lines, which are no request
NOT_BLANK = re.compile(rb"\S")
#: HTTP reasons of the front's own refusals
REASONS = {
    400: "Bad Request",
    408: "Request Timeout",
    413: "Request Entity Too Large",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    501: "Not Implemented",
    503: "Service Unavailable",
}

log = logging.getLogger("refapp.front")


class FrontRefusal(Error):  # type: ignore[misc]  # waitress ships no type hints
    """A refusal the front sends itself: the API's JSON error under /api, plain text elsewhere.

    ``code`` is the HTTP status (waitress reads it), ``api_code`` the registry's code whose
    status it is (``codes.CODES``); not to be confused with the rules' ``Refusal``.
    """

    def __init__(self, api_code: str, message: str, api: bool, retry: int = 0) -> None:
        super().__init__(message)
        self.code, self.api_code, self.message, self.api = (
            status_of(api_code),
            api_code,
            message,
            api,
        )
        self.retry = retry

    def to_response(self, ident: str | None = None) -> tuple[str, list[tuple[str, str]], bytes]:
        """Return the status line, headers and body waitress sends."""
        status = f"{self.code} {REASONS.get(self.code, 'Error')}"
        headers = [("X-Content-Type-Options", "nosniff")]
        if self.retry:
            headers.append(("Retry-After", str(self.retry)))
        if self.api:
            headers.append(("Content-Type", "application/json"))
            return status, headers, bodies.error_body(self.api_code, self.message)
        headers.append(("Content-Type", "text/plain; charset=utf-8"))
        return status, headers, f"{status}\r\n\r\n{self.message}\r\n".encode()


class Answer(Error):  # type: ignore[misc]  # waitress ships no type hints
    """The app's own answer to a request it refused from its headers (a 401 or 429)."""

    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        super().__init__(body)
        self.code = int(status.split(" ", 1)[0])
        self.status, self.headers = status, headers

    def to_response(self, ident: str | None = None) -> tuple[str, list[tuple[str, str]], bytes]:
        """Return the app's status line, headers and body as it gave them."""
        return self.status, list(self.headers), self.body


def target_path(opening: bytes) -> str:
    """Return the path named by a request's first line (empty when there is none)."""
    first = opening.lstrip(b"\r\n").split(b"\r\n", 1)[0].split(b" ")
    if len(first) < 2:
        return ""
    try:
        return urlsplit(first[1].decode("latin-1")).path
    except ValueError:
        return ""


class RefereeParser(HTTPRequestParser):  # type: ignore[misc]  # waitress: no type hints
    """waitress's request parser, holding each request to its route's limits and deadlines."""

    path = ""
    headers_at = 0.0
    #: the body's progress, from its headers on
    progress: pace.Progress | None = None
    #: bytes of the process's spool this body holds (pace.Spool)
    reserved = 0
    #: set by waitress's parser, and by ``refuse``
    completed: bool
    error: Error | None

    def __init__(self, adj: Adjustments, channel: HTTPChannel | None = None) -> None:
        super().__init__(adj)
        self.channel = channel
        self.started = time.monotonic()
        self.opening = b""

    def received(self, data: bytes) -> int:
        """Take the request's next bytes; refuse it as soon as its headers or body call for it."""
        if self.completed:
            return 0
        in_headers = not self.headers_finished
        if in_headers and len(self.opening) < OPENING:
            self.opening += data[: OPENING - len(self.opening)]
        before = self.body_bytes_received
        consumed: int = super().received(data)
        if self.progress is not None:
            self.progress.advance(self.body_bytes_received - before, time.monotonic())
        if self.completed:
            if self.error is not None and not isinstance(self.error, (FrontRefusal, Answer)):
                self.error = self.translated(self.error)
            return consumed
        refusal = None
        if in_headers and self.headers_finished:
            self.headers_at = time.monotonic()
            self.progress = pace.Progress(
                self.headers_at, BODY_GRACE, BODY_RATE, pace.BODY_WINDOW, pace.BODY_STEP
            )
            refusal = self.check_headers()
        elif self.chunked and self.body_rcv is not None:
            refusal = self.check_growth(len(self.body_rcv))
        if refusal is None:
            return consumed
        self.refuse(refusal)
        return len(data)  # the rest of this read is the refused body: kept nowhere

    def route(self) -> str:
        """Return the path the app will see (waitress strips extra leading slashes)."""
        return "/" + self.path.lstrip("/") if self.path.startswith("/") else self.path

    def limit(self) -> int:
        """Return the body limit of this request's route."""
        return bodies.body_limit(self.command, self.route())

    def for_api(self) -> bool:
        """Return True when the refusal goes to the API (its JSON shape)."""
        return bodies.is_api(target_path(self.opening) or self.route())

    def refusal(self, code: str, retry: int = 0, **params: object) -> FrontRefusal:
        """Return one of the front's refusals (its status the code's), its message filled in."""
        message = bodies.front_message(code, **params)
        return FrontRefusal(code, message, self.for_api(), retry=retry)

    def too_large(self, limit: int, size: str) -> FrontRefusal:
        """Return the refusal of a body past its route's limit."""
        route = f"{self.command} {self.route()}"
        return self.refusal("too_large", size=size, limit=limit, route=route)

    def check_headers(self) -> Error | None:
        """Refuse a request from its headers alone: its declared size, or the app's guards."""
        limit = self.limit()
        if self.content_length > limit:
            return self.too_large(limit, f"{self.content_length} bytes")
        if self.channel is not None and bodies.takes_large_body(self.command, self.route()):
            answer = self.ask_app(self.channel)
            if answer is not None:
                return answer
        return self.spooling(self.content_length)

    def check_growth(self, size: int) -> Error | None:
        """Refuse a chunked body once it grows past its route's limit or the spool's room."""
        limit = self.limit()
        if size > limit:
            return self.too_large(limit, f"more than {limit} bytes")
        return self.spooling(size)

    def spool(self) -> pace.Spool | None:
        """Return the process's spool of bodies kept in temporary files."""
        return getattr(getattr(self.channel, "server", None), "spool", None)

    def spooling(self, size: int) -> Error | None:
        """Reserve room for a body kept in a temporary file; 503 busy when the spool is full."""
        spool = self.spool()
        if spool is None or size < self.adj.inbuf_overflow or size <= self.reserved:
            return None
        if not spool.reserve(size - self.reserved):
            return self.refusal("busy", retry=pace.BODY_WINDOW, limit=spool.limit)
        self.reserved = size
        return None

    def blank(self) -> bool:
        """Return True while only blank lines came: no request yet."""
        return not self.headers_finished and NOT_BLANK.search(self.header_plus) is None

    def close(self) -> None:
        """Let the body go: its temporary file closed (removed), its room in the spool freed."""
        reserved, self.reserved = self.reserved, 0
        spool = self.spool()
        if reserved and spool is not None:
            spool.release(reserved)
        super().close()

    def ask_app(self, channel: HTTPChannel) -> Error | None:
        """Ask the app, with the headers and no body, whether this request may go on."""
        environ = WSGITask(channel, self).get_environment()
        environ["wsgi.input"] = io.BytesIO()
        environ[bodies.PROBE] = False
        answers: list[tuple[str, list[tuple[str, str]]]] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: object = None
        ) -> None:
            """Keep the app's status and headers."""
            answers.append((status, headers))

        try:
            chunks = channel.server.application(environ, start_response)
            try:
                body = b"".join(chunks)
            finally:
                getattr(chunks, "close", lambda: None)()
        except Exception:  # the app answers its own errors; this is a last resort
            log.exception("the app failed to answer a request's headers")
            return self.refusal("server_error")
        if environ.get(bodies.PROBE) is True:
            return None
        status, headers = answers[-1]  # the last the app gave, as waitress would send
        return Answer(status, headers, body)

    def translated(self, error: Error) -> FrontRefusal:
        """Return waitress's own refusal in refapp's words (JSON under /api)."""
        if error.code == 413:
            limit = self.limit()
            size = self.content_length or f"more than {limit}"
            return self.too_large(limit, f"{size} bytes")
        if error.code == 431:
            return self.refusal("headers_too_large", limit=self.adj.max_request_header_size)
        if error.code == 501:
            return self.refusal("not_implemented", detail=error.body)
        return self.refusal("bad_request", detail=error.body)

    def refuse(self, error: Error) -> None:
        """Complete this request as a refusal: answered, then the connection closes."""
        self.error = error
        self.completed = True
        self.expect_continue = False  # no "100 Continue": the body is not wanted
        self.close()  # what came of the body goes now, not when the answer is sent

    def overdue(self, moment: float) -> FrontRefusal | None:
        """Return the 408 for a request still arriving past its deadline, else None."""
        if not self.headers_finished:
            if moment - self.started > HEADER_SECONDS:
                return self.refusal(
                    "request_timeout", phase="sending its headers", seconds=HEADER_SECONDS
                )
            return None
        if self.progress is not None and self.progress.late(moment):
            seconds = self.progress.seconds(moment)
            return self.refusal("request_timeout", phase="sending its body", seconds=seconds)
        return None


def create_server(
    app: WSGIApplication, per_address: int = 0, spool_limit: int = 0, **settings: object
) -> TcpWSGIServer | MultiSocketServer:
    """Return waitress serving app behind refapp's front, as waitress.create_server would.

    ``per_address`` caps the connections one client address holds (0: none), ``spool_limit``
    the bytes of bodies the process keeps in temporary files at once (0: none); the rest of
    ``settings`` are waitress's adjustments.
    """
    from flask import Flask

    from .crowd import RefereeServer  # it imports this module's parser
    from .stream import MAX_STREAMS, STREAMS_KEY, Watcher, database_versions

    adj = Adjustments(**settings)
    watcher = None
    if isinstance(app, Flask):
        bodies.init_app(app)  # the app answers the front's headers-only question
        # sessions' event streams are held by this event loop (at most half its connections,
        # as they are never closed to make room); the pages follow them
        limit = min(MAX_STREAMS, adj.connection_limit // 2)
        watcher = Watcher(database_versions(app), limit=limit)
        app.config[STREAMS_KEY] = True
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[object, object] = {}
    spool = pace.Spool(spool_limit)  # one per process, whatever the sockets
    servers = [
        RefereeServer(
            app,
            sockets,
            dispatcher=dispatcher,
            adj=adj,
            sockinfo=info,
            per_address=per_address,
            spool=spool,
        )
        for info in adj.listen
        if not adj.sockets
    ]
    servers += [  # sockets bound before (refapp.serving.serve's worker processes share one)
        RefereeServer(
            app,
            sockets,
            True,
            sock,
            dispatcher=dispatcher,
            adj=adj,
            bind_socket=False,
            sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
            per_address=per_address,
            spool=spool,
        )
        for sock in adj.sockets
    ]
    for server in servers:
        server.watcher = watcher
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return MultiSocketServer(
        sockets, adj=adj, effective_listen=listening, dispatcher=dispatcher, log_info=log.info
    )
