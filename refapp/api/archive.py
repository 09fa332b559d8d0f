"""API routes for exporting a session as JSON and importing one by replaying its rounds."""

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

from flask import Response, current_app, request, stream_with_context, url_for
from flask.typing import ResponseReturnValue

from ..games.errors import MalformedInput
from ..services import load_session
from ..services.archive import exports, imports, turns
from ..services.archive.large_answers import large_answer
from . import bp
from .views import rounds_wanted, session_payload

#: an import's body stays in memory up to this size, then goes to a temporary file
SPOOL_IN_MEMORY = 1024 * 1024
#: bytes copied at a time
COPY_CHUNK = 1024 * 1024


@bp.get("/sessions/<int:session_id>/export")
def export_session(session_id: int) -> ResponseReturnValue:
    """Export a session: game, players, rules, setup, every round's input and the audit trail.

    Streamed as it is read (``exports.export_chunks``), from one snapshot of the database, in
    one of the process's few places for large answers (``large_answers``: else ``503 busy``).
    """
    with large_answer() as slot:
        exports.read_snapshot()
        session = load_session(session_id, with_rounds=False)
        filename = f"refapp-{session.game}-session-{session_id}.json"
        return Response(
            slot.hold(stream_with_context(exports.export_chunks(session))),
            mimetype="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )


@bp.post("/sessions/import")
def import_session() -> ResponseReturnValue:
    """Recreate a session from an export, replaying every round; refused whole on a broken rule.

    Its body may be as large as the largest session's export (``imports.IMPORT_MAX_BYTES``),
    past the app-wide limit (``bodies.body_limit``); a body declared larger is refused from its
    headers, before this view runs. ``?rounds=`` is checked first; then a large import (its
    declared length, else its size once copied) takes the server's one import turn
    (``turns``: another large one running, it is ``503 busy`` after a brief wait, its body
    never copied), the body is copied to a temporary file (a proxy in front is never kept
    waiting to send it) and read a part at a time; a body larger than any session of its game
    exports is ``413 too_large`` once its game is read.
    """
    rounds_wanted(request.args.get("rounds"))
    if not request.is_json:
        raise MalformedInput("invalid_json", "The request body must be a JSON object.")
    lock = Path(current_app.instance_path) / "import.lock"
    declared = request.content_length
    with ExitStack() as held:
        if declared is not None and turns.is_large(declared):
            # the turn first: another large import is refused without its body copied
            held.enter_context(turns.one_import(lock))
            raw, size = held.enter_context(spooled_body())
        else:
            raw, size = held.enter_context(spooled_body())
            held.enter_context(turns.one_import(lock, large=turns.is_large(size)))
        session = imports.import_file(raw, size)
    payload = session_payload(session)
    return payload, 201, {"Location": url_for("api.get_session", session_id=session.id)}


@contextmanager
def spooled_body() -> Iterator[tuple[IO[bytes], int]]:
    """Yield the request body copied to a temporary file (in memory while it is small), and
    its size in bytes.

    werkzeug's stream stops at the request's size limit (413 ``too_large``) whether or not the
    client declared a length.
    """
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY) as spool:
        shutil.copyfileobj(request.stream, spool, COPY_CHUNK)
        size = spool.tell()
        spool.seek(0)
        yield spool, size
