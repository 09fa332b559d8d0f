"""The lightest path for what phones poll: a session read answered below Flask, from stored text.

A phone at the table asks ``GET /api/sessions/<id>`` every two seconds with ``If-None-Match``;
almost every answer is 304. Here that question costs one small query on a pooled connection and
no request context: a 304 when the version is the one named, else (or without the header) the
version with the rounds' stored answers, spliced into the session part this process keeps for
that version (services/answers.py). Anything else - another route, a bad ``?rounds=``, a session
part not yet built, a database this path does not speak to - goes on to Flask, which answers
exactly the same (tests/test_fast_reads.py compares the two).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from urllib.parse import parse_qsl
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask, Response
from sqlalchemy.engine import Engine

from ..access import security_headers
from ..bodies import PROBE
from ..extensions import db
from ..services import answers
from ..services.values import ID_MAX

log = logging.getLogger(__name__)

#: a WSGI application, as the standard library's types name it
WSGIApp = WSGIApplication

#: the one route served here: a session read
SESSION = re.compile(r"/api/sessions/([1-9][0-9]{0,9})")
#: how each database driver marks a parameter
MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


class FastReads:
    """WSGI middleware answering a session read from stored text; everything else goes on."""

    def __init__(self, app: Flask, wrapped: WSGIApp) -> None:
        self.app = app
        self.wrapped = wrapped
        self.engine: Engine | None = None
        self.headers = list(security_headers(Response()).headers.items())
        self.headers = [
            (k, v) for k, v in self.headers if k.lower() not in ("content-type", "content-length")
        ]

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Answer a session read here when it can be, else pass the request on."""
        answer = None
        if environ.get("REQUEST_METHOD") == "GET":
            try:
                answer = self.answer(environ)
            except Exception:  # a busy or missing database: Flask answers it, with its codes
                log.warning("session read left to Flask", exc_info=True)
        if answer is None:
            return self.wrapped(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body]

    def answer(self, environ: WSGIEnvironment) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """Return (status, headers, body) for a session read served here, or None."""
        found = SESSION.fullmatch(environ.get("PATH_INFO", ""))
        if found is None or PROBE in environ or environ.get("SCRIPT_NAME"):
            return None
        session_id = int(found.group(1))
        last = rounds_asked(environ.get("QUERY_STRING", ""))
        if session_id > ID_MAX or last is False:
            return None
        mark = MARKS.get(self.database().dialect.paramstyle)
        if mark is None:
            return None
        wanted = environ.get("HTTP_IF_NONE_MATCH")
        if wanted:
            rows = self.fetch(
                f"SELECT version FROM game_session WHERE id = {mark} AND group_id = 1", session_id
            )
            version = version_of(rows)
            if version is not None and answers.poll_matches(wanted, version):
                etag = f'"{version}"'
                return "304 NOT MODIFIED", [("ETag", etag), *self.headers], b""
            return None
        rows = self.fetch(answers.stored_answers_sql(mark, last), session_id)
        text = answers.spliced(self.app, session_id, rows)
        version = version_of(rows)
        if text is None and version is not None:  # this version's part is not kept yet
            with self.app.app_context():  # build it once
                if answers.keep(session_id, version):
                    text = answers.spliced(self.app, session_id, rows)
        if text is None:
            return None
        body = text.encode()
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("ETag", f'"{rows[0][0]}"'),
            *self.headers,
        ]
        return "200 OK", headers, body

    def database(self) -> Engine:
        """Return the app's engine (taken once)."""
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        return self.engine

    def fetch(self, sql: str, session_id: int) -> Sequence[Sequence[object]]:
        """Run one read on a pooled connection and return its rows."""
        with self.database().connect() as connection:
            result = connection.exec_driver_sql(sql, (session_id,))
            try:  # the driver's own rows: no result rows made for thousands of texts
                return result.cursor.fetchall()
            finally:
                result.close()


def version_of(rows: Sequence[Sequence[object]]) -> int | None:
    """Return the session's version, the first row's first column (None without rows)."""
    version = rows[0][0] if rows else None
    return version if isinstance(version, int) else None


def rounds_asked(query: str) -> int | bool | None:
    """Return the rounds a read asks for (as ``?rounds=`` reads), or False to leave it to Flask."""
    pairs = parse_qsl(query, keep_blank_values=True)
    if not pairs:
        return answers.DEFAULT_ROUNDS
    if len(pairs) != 1 or pairs[0][0] != "rounds":
        return False
    try:
        return answers.rounds_wanted(pairs[0][1])
    except ValueError:
        return False


def init_app(app: Flask) -> None:
    """Put the session-read path in front of the app (outermost, before any other wrapper)."""
    app.wsgi_app = FastReads(app, app.wsgi_app)  # type: ignore[method-assign]
