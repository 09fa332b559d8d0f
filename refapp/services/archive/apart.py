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
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from flask import current_app, has_request_context, request
from werkzeug.exceptions import HTTPException

from ...extensions import db
from ...games.errors import Refusal
from ...models import GameSession
from ..writes import Busy

#: a body larger than this is imported in a child process (24 MiB: 1,500-3,000 rounds with
#: their trail, under 10 s of work; below it a child's own ~70 MB would pass 4x the body)
APART = 24 * 1024 * 1024
#: how much lower the child's CPU priority is than the server's (Unix nice): a poll that wants a
#: core the import is using gets it at once
NICE = 10
#: the settings the child needs to reach the same database, as this app has them
SHARED = ("SQLALCHEMY_DATABASE_URI", "SQLALCHEMY_ENGINE_OPTIONS", "SECRET_KEY")
COPY_CHUNK = 1024 * 1024
#: the module the child runs (``python -m``): apart's own package imports apart, so not apart
CHILD = "refapp.services.archive.child"

log = logging.getLogger(__name__)


def is_apart(size: int | None) -> bool:
    """Return True for an import body large enough to be imported in a child process."""
    return size is not None and size > APART


def import_apart(raw: IO[bytes], size: int) -> GameSession:
    """Import the export in ``raw`` (``size`` bytes) in a child process; return the stored
    session, or raise the child's refusal (nothing stored)."""
    config = {key: current_app.config[key] for key in SHARED if key in current_app.config}
    try:
        pickle.dumps(config)
    except (pickle.PicklingError, TypeError, AttributeError):  # e.g. an engine's own creator
        from .imports import import_here

        return import_here(raw, size)  # the child could not reach the database: done here
    language = request.headers.get("Accept-Language") if has_request_context() else None
    with body_file(raw) as path:
        kind, value = in_child(config, language, path, size)
    if kind == "refused":
        raise rebuilt(*value)
    if kind != "stored":
        raise Busy()  # the child died (killed, out of memory): nothing was committed
    db.session.rollback()  # a fresh read: the child's commit is seen
    session = db.session.get(GameSession, value)
    if session is None:
        raise Busy()
    return session


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


def in_child(config: dict[str, Any], language: str | None, path: str, size: int) -> tuple[str, Any]:
    """Run ``child`` in a Python started afresh (``python -m`` CHILD, handed its job on stdin);
    return what it sent back on stdout (``failed`` if nothing)."""
    job = pickle.dumps((config, language, path, size), protocol=pickle.HIGHEST_PROTOCOL)
    package_root = str(Path(__file__).resolve().parents[3])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([package_root, *python_path()])}
    done = subprocess.run(
        [sys.executable, "-m", CHILD],
        input=job,
        capture_output=True,
        env=env,
        check=False,
    )  # the thread waits in the system calls, without the GIL
    if done.stderr:
        log.warning(
            "the import's child process said: %s", done.stderr[-2000:].decode(errors="replace")
        )
    try:
        outcome: tuple[str, Any] = pickle.loads(done.stdout)  # our own child's answer
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
        outcome = ("failed", None)
    return outcome


def python_path() -> list[str]:
    """Return PYTHONPATH's folders as this process has them."""
    return [folder for folder in os.environ.get("PYTHONPATH", "").split(os.pathsep) if folder]


def child(config: dict[str, Any], language: str | None, path: str, size: int) -> tuple[str, Any]:
    """In the child: import the body at ``path`` in one transaction; return what came of it:
    ``("stored", session id)``, ``("refused", the refusal's parts)`` or ``("failed", None)``."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICE)
    try:
        from ... import create_app
        from . import imports

        app = create_app(config)
        headers = {"Accept-Language": language} if language else {}
        with app.test_request_context("/api/sessions/import", headers=headers):
            with open(path, "rb") as raw:
                session = imports.import_here(raw, size)
            return ("stored", session.id)
    except (Refusal, HTTPException) as error:
        return ("refused", parts_of(error))
    except Exception:
        log.exception("an import in a child process failed")
        return ("failed", None)


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
