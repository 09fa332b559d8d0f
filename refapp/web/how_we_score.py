"""The page a table opens when an argument starts: its house rules said in sentences."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask import render_template
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import services
from ..games import get_game
from ..games.errors import fill
from . import bp
from .helpers import stored_or_404


@bp.get("/sessions/<int:session_id>/how-we-score")
def how_we_score(session_id: int) -> ResponseReturnValue:
    """Show what the session's house rules mean, topic by topic, in the reader's language."""
    session = stored_or_404(session_id)
    game = get_game(session.game)
    table = services.table_of(session)
    sections = [
        (_(topic) if topic else "", [sentence(part) for part in account.parts])
        for topic, account in game.how_we_score(table)
    ]
    return render_template("how_we_score.html", session=session, game=game, sections=sections)


def sentence(part: Sequence[object]) -> str:
    """Return one sentence of an account (its template and values) in the reader's language."""
    template, params = part
    return fill(str(template), params if isinstance(params, Mapping) else {})
