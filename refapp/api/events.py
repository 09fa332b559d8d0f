"""A session's event stream: its version now, then each new one as it is written.

``GET /api/sessions/<id>/events`` (docs/API.md, "Following a session"). Served by refapp's own
server (``make run``: waitress behind refapp's front), the answer is a ``text/event-stream``
that stays open: this view sends its head and the first ``version`` event, and the process's
stream watcher (refapp/serving/stream.py) sends the rest from the event loop, no worker thread
held. Any other server (gunicorn, the test client), or a process holding its most streams,
answers 204: an EventSource stops on it and the page polls the session's version, which is as
cheap a question as the stream's (one small query) without holding a connection.
"""

from flask import Response, request
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from ..club import current_group_id
from ..extensions import db
from ..models import GameSession
from ..services.values import not_found, stored_id
from ..serving.stream import HOLD, first_events
from . import bp


@bp.get("/sessions/<int:session_id>/events")
def session_events(session_id: int) -> ResponseReturnValue:
    """Stream a session's version (server-sent events); 204 where streams are not held."""
    wanted = stored_id(session_id)
    version = db.session.scalar(
        select(GameSession.version).where(
            GameSession.id == wanted, GameSession.group_id == current_group_id()
        )
    )
    if version is None:
        raise not_found(session_id)
    db.session.close()  # the connection goes back to the pool before the answer is sent
    hold = request.environ.get(HOLD)
    if not callable(hold) or not hold(wanted, version):
        return Response(status=204, headers={"Cache-Control": "no-store"})
    return Response(
        iter([first_events(version)]),  # no length: the answer goes on
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
