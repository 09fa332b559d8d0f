"""The rounds the session page shows, each rendered once per round as stored and language.

A round's head, points and explanation (``_round_part.html``) depend on the round alone, and its
stored answer text changes whenever the round does (a correction, a replay, a rename): so the
HTML is kept under that text and the reader's language, and a page - the one a phone fetches
after every recorded round - renders only the round it has not shown before.
"""

from __future__ import annotations

from flask import current_app, render_template
from flask_babel import get_locale
from markupsafe import Markup

from ..services import SessionView
from ..services.kept import kept_of

#: rounds kept (a few KiB each): 30 shown rounds of a club night's tables, in three languages
KEPT = 2000


def round_parts(view: SessionView) -> dict[int, Markup]:
    """Return the HTML of each round the view shows, by number."""
    kept = kept_of(current_app, "refapp_round_parts", KEPT)
    language = str(get_locale())
    parts = {}
    for played in view.rounds:
        key = None if played.answer is None else (view.session.id, language, played.answer)
        part = None if key is None else kept.get(key)
        if part is None:
            part = Markup(render_template("_round_part.html", view=view, played=played))
            if key is not None:
                kept.put(key, part)
        parts[played.number] = part
    return parts
