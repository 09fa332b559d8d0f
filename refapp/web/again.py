"""The same table again: one tap starts a new session with a session's seats and house rules,
the sessions page offers the recent tables and the new-session form the known names, so a
returning table types nothing."""

from __future__ import annotations

from flask import abort, flash, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import services
from ..games.errors import Refusal
from ..games.inputs import digits_number
from ..models import GameSession
from ..services.again import known_names, recent_tables, same_table
from . import bp
from .forms import ButtonForm, NewSessionForm
from .helpers import FORM_REFUSALS

__all__ = ["known_names", "play_again", "prefill", "recent_tables"]


def earlier_session(session_id: object) -> GameSession | None:
    """Return a stored session (its seats, not its rounds), or None when there is no such one."""
    try:
        return services.load_session(session_id, with_rounds=False)
    except Refusal:
        return None


@bp.post("/sessions/<int:session_id>/again")
def play_again(session_id: int) -> ResponseReturnValue:
    """Start a new session with this one's game, players in their seats and house rules."""
    earlier = earlier_session(session_id)
    if earlier is None:
        abort(404)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        session = services.create_session(same_table(earlier))
    except FORM_REFUSALS as error:
        flash(error.message, "error")
        return redirect(url_for("web.show_session", session_id=session_id))
    flash(_("Session started: %(names)s.", names=", ".join(session.players)))
    return redirect(url_for("web.show_session", session_id=session.id))


def prefill(form: NewSessionForm, again: str | None) -> bool:
    """Fill the new-session form from an earlier session of its game; False if there is none."""
    number = digits_number(again or "")
    earlier = earlier_session(number) if number else None
    if earlier is None or earlier.game != form.the_game.slug:
        return False
    body = same_table(earlier)
    form.players.data = "\n".join(body["players"])
    form.load_choice(body["preset"])
    form.load_rules(body["rules"])
    form.location.data = body["location"] or ""
    return True


@bp.app_template_global("known_names")
def offered_names() -> list[str]:
    """Return the names the new-session form offers as chips (the latest tables' players)."""
    return known_names()
