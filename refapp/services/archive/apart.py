"""A large import's work done in a child process, so the server's own threads keep answering.

Python runs one thread of a process at a time (the GIL). The largest import keeps a CPU busy
for 20-60 s; in the serving process its thread holds that lock nearly always, and a poll, which
gives the lock up and takes it back at each of its many steps (the socket, the database, the
answer), waits behind the import each time: 150-500 ms at worst on a 2-core machine that was
not itself stalled (``bench/import_memory.py``), whatever the switch interval or collector.
So an import of more than APART bytes runs in a child process of its own, started afresh (a new
Python: never a fork of a server whose other threads may hold locks) at a lower CPU priority:
the child reads, checks and replays the export, stores it through its own database connection
and commits, or refuses it and stores nothing. The request's thread only waits for its answer
(without the GIL) and answers with the stored session. A smaller import stays in the request's
thread: a child costs about 70 MB and a second to start, more than a small import's own work
and past the 4x-the-body memory an import may take.

A child may die or stall (killed, out of memory, stopped): it has ``time_limit(size)`` seconds,
then it is killed. Its answer may then be lost after its commit, so the server gives each child
an import token that the child stores in the import's audit entry (``after.import_token``) and
looks it up whenever no answer came: a session stored is answered as stored (201), never
"nothing was saved" (which a client retries into a duplicate); none is ``busy``. On PostgreSQL
the child holds an advisory lock named by its token while it stores, and the server takes it
before looking, so a commit still on its way is waited for. Each such end is logged.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from flask import current_app, has_request_context, request
from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError

from ... import club
from ...extensions import db
from ...models import AuditEntry, GameSession
from ..writes import Busy, is_busy

#: a body larger than this is imported in a child process (24 MiB: 1,500-3,000 rounds with
#: their trail, under 10 s of work; below it a child's own ~70 MB would pass 4x the body)
APART = 24 * 1024 * 1024
#: how much lower the child's CPU priority is than the server's (Unix nice): a poll that wants a
#: core the import is using gets it at once
NICE = 10
#: the settings the child needs to reach the same database, as this app has them
SHARED = ("SQLALCHEMY_DATABASE_URI", "SQLALCHEMY_ENGINE_OPTIONS", "SECRET_KEY")
COPY_CHUNK = 1024 * 1024
#: the module the child runs (``python -m``): the child's side, apart from the server's
CHILD = "refapp.services.archive.child"
#: seconds any child has, past its body's share (a new Python and the app start in ~1 s)
LIMIT_FLOOR = 30.0
#: the slowest a child may go, in body bytes a second, before it is killed as stalled: a
#: 186 MiB export (2,000 Mighty hands, 32,285 audit entries) imported apart in 55 s, 3.3 MiB/s,
#: on the shared 2-core test machine (SQLite); under a sixth of that leaves room for a slower
#: board and a busy night, and gives the largest body an import takes (IMPORT_MAX_BYTES) 8.6
#: minutes: still inside the 600 s nginx waits for an import's answer (docs/nginx-refapp.conf),
#: so the answer, stored or not, reaches the client
LIMIT_RATE = 576 * 1024
#: what the import's audit entry keeps the child's token under (``after``)
TOKEN_KEY = "import_token"

#: an import in this process: the body and its size in, the stored session out
Importer = Callable[[IO[bytes], int], GameSession]

log = logging.getLogger(__name__)


def is_apart(size: int | None) -> bool:
    """Return True for an import body large enough to be imported in a child process."""
    return size is not None and size > APART


def import_apart(raw: IO[bytes], size: int, here: Importer) -> GameSession:
    """Import the export in ``raw`` (``size`` bytes) in a child process; return the stored
    session, or raise the child's refusal (nothing stored). ``here`` imports in this process,
    when the child could not reach the database (``imports.import_here``)."""
    config = {key: current_app.config[key] for key in SHARED if key in current_app.config}
    config[club.CHILD_GROUP] = club.current_group_id()  # the child stores into this group
    try:
        pickle.dumps(config)
    except (pickle.PicklingError, TypeError, AttributeError):  # e.g. an engine's own creator
        return here(raw, size)
    language = request.headers.get("Accept-Language") if has_request_context() else None
    token = secrets.token_urlsafe(18)
    since = last_entry()
    with body_file(raw) as path:
        kind, value = in_child(config, language, path, size, token)
    if kind == "refused":
        raise rebuilt(*value)
    db.session.rollback()  # a fresh read: the child's commit is seen
    session = db.session.get(GameSession, value) if kind == "stored" else None
    if session is not None:
        return session
    found = stored_by(token, since)  # no answer (killed, stalled, out of memory): did it commit?
    if found is None:
        log.warning("an import's child ended without an answer (%s): nothing was stored", value)
        raise Busy()
    log.warning(
        "an import's child ended without an answer (%s) after storing session %s: answered "
        "as stored",
        value,
        found.id,
    )
    return found


def time_limit(size: int) -> float:
    """Return the seconds a child importing ``size`` bytes has before it is killed."""
    return LIMIT_FLOOR + size / LIMIT_RATE


def last_entry() -> int:
    """Return the newest audit entry's id (0: none): a child's entries come after it."""
    newest: int | None = db.session.scalar(select(func.max(AuditEntry.id)))
    db.session.rollback()
    return newest or 0


def lock_key(token: str) -> int:
    """Return the PostgreSQL advisory lock a child's token names (a signed 64-bit number)."""
    return int.from_bytes(hashlib.sha256(token.encode()).digest()[:8], "big", signed=True)


def claim(token: str | None) -> None:
    """In the child, before it stores: hold its token's advisory lock until its transaction
    ends (PostgreSQL; SQLite's own lock ends with the child's process)."""
    if token is not None and db.session.connection().dialect.name == "postgresql":
        db.session.execute(select(func.pg_advisory_xact_lock(lock_key(token))))


def stored_by(token: str, since: int) -> GameSession | None:
    """Return the session a child stored under ``token`` (None: it stored none), once the
    child's transaction has ended (PostgreSQL: its advisory lock is free, after the busy
    timeout at most)."""
    db.session.rollback()
    try:
        if db.session.connection().dialect.name == "postgresql":
            db.session.execute(select(func.pg_advisory_xact_lock(lock_key(token))))
        rows = db.session.execute(
            select(AuditEntry.session_id, AuditEntry.after).where(
                AuditEntry.id > since, AuditEntry.action == "import_session"
            )
        ).all()
    except DBAPIError as error:  # the child's transaction held on past the busy timeout
        db.session.rollback()
        if not is_busy(error):
            raise
        log.warning("an import's child ended without an answer; its commit could not be seen")
        raise Busy() from error
    found = [
        sid for sid, after in rows if isinstance(after, dict) and after.get(TOKEN_KEY) == token
    ]
    db.session.rollback()  # the advisory lock goes
    return db.session.get(GameSession, found[0]) if found else None


@contextlib.contextmanager
def body_file(raw: IO[bytes]) -> Iterator[str]:
    """Yield the path of a file holding the body, which the child opens by name."""
    name = getattr(raw, "name", None)
    if isinstance(name, str) and os.path.isfile(name):
        yield name
        return
    handle = tempfile.NamedTemporaryFile(suffix=".json", delete=False)  # noqa: SIM115
    try:
        with handle:
            raw.seek(0)
            shutil.copyfileobj(raw, handle, COPY_CHUNK)
        yield handle.name
    finally:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)


def in_child(
    config: dict[str, Any], language: str | None, path: str, size: int, token: str
) -> tuple[str, Any]:
    """Run ``child`` in a Python started afresh (``python -m`` CHILD, handed its job on stdin);
    return what it sent back on stdout, or ``("failed", how it ended)`` when nothing came
    (killed past ``time_limit``, or by a signal, or exited without an answer)."""
    job = pickle.dumps((config, language, path, size, token), protocol=pickle.HIGHEST_PROTOCOL)
    package_root = str(Path(__file__).resolve().parents[3])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, *python_path()])}
    limit = time_limit(size)
    try:
        done = subprocess.run(
            [sys.executable, "-m", CHILD],
            input=job,
            capture_output=True,
            env=env,
            check=False,
            timeout=limit,
        )  # the thread waits in the system calls, without the GIL
    except subprocess.TimeoutExpired:  # run() has killed it and waited for it
        log.warning("an import's child ran past its %.0f s and was killed", limit)
        return ("failed", f"killed past its {limit:.0f} s")
    if done.stderr:
        log.warning(
            "the import's child process said: %s", done.stderr[-2000:].decode(errors="replace")
        )
    try:
        outcome: tuple[str, Any] = pickle.loads(done.stdout)  # our own child's answer
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
        outcome = ("failed", f"exit status {done.returncode}")
    return outcome


def python_path() -> list[str]:
    """Return PYTHONPATH's folders as this process has them."""
    return [folder for folder in os.environ.get("PYTHONPATH", "").split(os.pathsep) if folder]


def parts_of(error: BaseException) -> tuple[type[BaseException], dict[str, Any], tuple[Any, ...]]:
    """Return what rebuilds a refusal in the server: its class, attributes and arguments."""
    attributes = dict(vars(error))
    if "response" in attributes:  # a werkzeug answer made for it: made again in the server
        attributes["response"] = None
    return type(error), attributes, tuple(error.args)


def rebuilt(
    kind: type[BaseException], attributes: dict[str, Any], args: tuple[Any, ...]
) -> BaseException:
    """Return the child's refusal as it raised it (its own words and fields)."""
    error = kind.__new__(kind)
    error.args = args
    vars(error).update(attributes)
    return error
