"""A session's memory in pages: the printable summary and the audit trail in plain words."""

from __future__ import annotations

from flask import render_template

from .. import services
from ..games import get_game
from . import bp
from .changes import describe_entry
from .chart import build_chart
from .sessions import session_or_404, stored_or_404

bp.add_app_template_filter(services.iso, "iso")


@bp.get("/sessions/<int:session_id>/print")
def print_session(session_id: int):
    """Show a printable summary: standings, the chart and every round's points."""
    view = session_or_404(session_id)  # the printed sheet lists every round
    deltas = [(played.number, played.result["deltas"]) for played in view.rounds]
    chart = build_chart(view.table.players, deltas)
    return render_template("print.html", view=view, chart=chart)


@bp.get("/sessions/<int:session_id>/changes")
def changes(session_id: int):
    """Show every change to the session in words, oldest first, with old and new values."""
    session = stored_or_404(session_id)
    game = get_game(session.game)
    entries = [(entry, *describe_entry(game, entry)) for entry in services.audit_of(session)]
    return render_template("changes.html", session=session, game=game, entries=entries)
