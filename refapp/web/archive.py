"""Downloads of a session: the CSV of per-round deltas."""

from flask import Response, stream_with_context
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..services.archive.large_answers import large_answer
from ..services.round_stream import deltas_csv
from . import bp
from .helpers import stored_or_404


@bp.get("/sessions/<int:session_id>.csv")
def session_csv(session_id: int) -> ResponseReturnValue:
    """Download a session's per-round deltas as CSV, a row per round and a total row.

    The header's first column and the total row are worded in the reader's language. The rows
    are sent as they are read, a batch of rounds at a time (``round_stream.deltas_csv``), in
    one of the process's few places for large answers (``large_answers``: else ``503 busy``).
    """
    with large_answer() as slot:
        session = stored_or_404(session_id)
        filename = f"refapp-{session.game}-session-{session.id}.csv"
        return Response(
            slot.hold(stream_with_context(deltas_csv(session, _("round"), _("total")))),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )
