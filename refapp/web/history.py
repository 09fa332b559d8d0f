"""A session's memory in pages: the printable summary and the audit trail in plain words."""

from __future__ import annotations

from flask import Response, abort, render_template, request, stream_template
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from .. import services
from ..games import get_game
from ..games.inputs import digits_number
from ..services import audit_pages
from ..services.archive.large_answers import large_answer
from ..services.round_stream import Sheet, result_parts, text_chunks
from ..services.session_head import head_of
from . import bp
from .changes import describe_entry
from .chart import totals_chart
from .helpers import stored_or_404

bp.add_app_template_filter(services.iso, "iso")


def explained_keys() -> tuple[str, ...]:
    """Return the parts of a result ``i18n.explain`` words for the reader: the stored English
    lines in English, else the templates and their values too (the lines if a round has none)."""
    if str(get_locale()) == "en":
        return ("explanation",)
    return ("explanation", "explanation_parts")


@bp.get("/sessions/<int:session_id>/print")
def print_session(session_id: int) -> ResponseReturnValue:
    """Show a printable summary: standings, the chart and every round's points and why.

    However long the session, its rounds are read in two passes of batches: every round's
    deltas, packed (the chart and the sheet), then the explanations of the same rounds,
    written out as they are read, in one of the process's few places for large answers
    (``large_answers``: else ``503 busy``).
    """
    with large_answer() as slot:
        view = head_of(stored_or_404(session_id))
        sheet = Sheet.read(view.session.id, view.table.players)
        page = stream_template(
            "print.html",
            view=view,
            sheet=sheet,
            chart=totals_chart(
                view.table.players, services.chart_points(view.session.id, sheet.last), sheet.last
            ),
            explained=result_parts(view.session.id, explained_keys(), sheet.last),
        )
        return Response(slot.hold(text_chunks(page)), mimetype="text/html")


@bp.get("/sessions/<int:session_id>/changes")
def changes(session_id: int) -> ResponseReturnValue:
    """Show the newest changes to the session in words, oldest first, with old and new values;
    ``?before=<entry>`` shows the ones before that entry (a page reads a bounded trail)."""
    before = request.args.get("before")
    entry = None if before is None else digits_number(before)
    if before is not None and entry is None:
        abort(404)
    session = stored_or_404(session_id)
    game = get_game(session.game)
    page = audit_pages.trail_page(session.id, entry)
    entries = [(item, *describe_entry(game, item)) for item in page.entries]
    return render_template(
        "changes.html", session=session, game=game, entries=entries, page=page, before=entry
    )
