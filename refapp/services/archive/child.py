"""The child process of an import done apart (``apart``): ``python -m`` this module.

It reads its job (pickled by the server that started it) on stdin, imports the body it names and
writes what came of it, pickled, on stdout; nothing else is written there.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import sys

from werkzeug.exceptions import HTTPException

from ... import create_app
from ...games.errors import Refusal
from . import imports
from .apart import NICE, parts_of

log = logging.getLogger(__name__)


def child(
    config: dict[str, object], language: str | None, path: str, size: int, token: str | None = None
) -> tuple[str, object]:
    """In the child: import the body at ``path`` in one transaction, its audit entry keeping
    ``token``; return what came of it: ``("stored", session id)``, ``("refused", the refusal's
    parts)`` or ``("failed", why)``."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICE)
    try:
        app = create_app(config)
        headers = {"Accept-Language": language} if language else {}
        with app.test_request_context("/api/sessions/import", headers=headers):
            with open(path, "rb") as raw:
                session = imports.import_here(raw, size, token=token)
            return ("stored", session.id)
    except (Refusal, HTTPException) as error:
        return ("refused", parts_of(error))
    except Exception as error:
        log.exception("an import in a child process failed")
        return ("failed", type(error).__name__)


def main() -> None:
    """Do the job given on stdin; write its outcome on stdout."""
    logging.basicConfig(level=logging.WARNING)
    answer = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed meanwhile must not mix with the answer
    job = pickle.loads(sys.stdin.buffer.read())  # from the server that started this process
    outcome = child(*job)
    answer.write(pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
    answer.flush()


if __name__ == "__main__":
    main()
