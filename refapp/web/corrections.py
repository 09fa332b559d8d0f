"""Correcting a past round: on its own page, or in place inside the session page's history."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import services
from ..games.errors import Refusal
from ..services import idempotency
from ..services.values import without_expected
from . import bp
from .forms import RoundForm, round_form
from .helpers import FORM_REFUSALS, session_or_404
from .sessions import entry_key, form_template

#: the field prefixes of the round corrected and of the round after it, on the correction page
PAGE = ("", "next")
#: the same in place: the session page holds its own round form, so these fields are named apart
IN_PLACE = ("fix", "fix-next")
#: the query that asks for the correction in place (?in=history): only the form, to slot in
IN_HISTORY = "history"


def in_place() -> bool:
    """Return True when the session page's history asks for the correction form alone."""
    return request.args.get("in") == IN_HISTORY


@bp.route("/sessions/<int:session_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(session_id: int, number: int) -> ResponseReturnValue:
    """Correct a past round (and the round after it, when both must change together); every
    later round is replayed through the rules, all or nothing."""
    first, second = IN_PLACE if in_place() else PAGE
    view = editing_view(session_id, number)
    stored = view.rounds[0]
    following = view.rounds[1] if len(view.rounds) > 1 else None
    if request.method == "GET":
        form = round_form(view, stored.input, number, prefix=first)
        form.idempotency_key.data = idempotency.new_key()  # this correction's, made once
        later = None
        if following is not None:
            later = round_form(view, following.input, number + 1, prefix=second)
        return render_edit(view, form, stored, 200, later, following)
    form = round_form(view, correcting=number, prefix=first)
    later = None
    if following is not None:
        later = round_form(view, correcting=number + 1, prefix=second)
    paired = later if request.form.get("also_next") == "1" else None
    both = paired is not None
    status = 422
    if form.validate_on_submit() and (paired is None or paired.validate_on_submit()):
        body = without_expected(form.round_input())
        try:
            if form.is_check():
                form.show_check(services.check_round(session_id, body, number))
                status = 200
            else:
                wanted = {number: body}
                if paired is not None:
                    wanted[number + 1] = without_expected(paired.round_input())
                key = entry_key(form.idempotency_key.data)
                services.replace_rounds(session_id, wanted, key=key)
                return corrected(session_id, number, both)
        except idempotency.Stored:  # this correction was saved before: a resend
            return corrected(session_id, number, both)
        except FORM_REFUSALS as error:
            show_correction_refusal(form, later, error, number)
    view = editing_view(session_id, number)
    return render_edit(view, form, stored, status, later, following)


def corrected(session_id: int, number: int, both: bool) -> ResponseReturnValue:
    """Send the table to the session page showing the round just corrected."""
    flash(correction_words(number, both))
    return redirect(url_for("web.show_session", session_id=session_id, just=number))


def correction_words(number: int, both: bool) -> str:
    """Say what a saved correction changed."""
    if both:
        return str(
            _(
                "Rounds %(n)d and %(next)d corrected; later rounds were rescored.",
                n=number,
                next=number + 1,
            )
        )
    return str(_("Round %(n)d corrected; later rounds were rescored.", n=number))


def show_correction_refusal(
    form: RoundForm, later: RoundForm | None, error: Refusal, number: int
) -> None:
    """Show why a correction was refused: by its field, by the next round's field when that
    round is being corrected too, or naming the later round it breaks."""
    if error.round is not None and error.round == number + 1 and later is not None:
        later.show_violation(error)
        later.refused = True
        form.form_errors.append(
            _(
                "Round %(n)d would break a rule: %(message)s Correct it below, together with "
                "this one.",
                n=error.round,
                message=error.message,
            )
        )
    elif error.round is not None and error.round != number:
        form.form_errors.append(
            _("Round %(n)d would break a rule: %(message)s", n=error.round, message=error.message)
        )
    else:
        form.show_violation(error)


def editing_view(session_id: int, number: int) -> services.SessionView:
    """Describe a session with the round being corrected and the one after it, or answer 404."""
    view = session_or_404(session_id, 0)
    if not 1 <= number <= view.count:
        abort(404)
    view.rounds = services.round_rows(session_id, number - 1, number + 1)
    return view


def render_edit(
    view: services.SessionView,
    form: RoundForm,
    stored: services.PlayedRound,
    status: int,
    later: RoundForm | None = None,
    following: services.PlayedRound | None = None,
) -> ResponseReturnValue:
    """Render the correction of a stored round (with the next round's form, if any): the whole
    page, or in place only the form the session page slots into the round's history item."""
    inline = in_place()
    return render_template(
        "_correction.html" if inline else "edit_round.html",
        view=view,
        form=form,
        played=stored,
        round_template=form_template(view),
        later=later or None,
        following=following,
        also_next=request.form.get("also_next") == "1" or bool(getattr(later, "refused", False)),
        inline=inline,
        action=correction_url(view.session.id, stored.number, inline),
    ), status


def correction_url(session_id: int, number: int, inline: bool) -> str:
    """Return where a correction is sent: its page, or the same asking for the form alone."""
    page = url_for("web.edit_round", session_id=session_id, number=number)
    return f"{page}?in={IN_HISTORY}" if inline else page
