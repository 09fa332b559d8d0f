"""Signing in to (and out of) a table that has a password.

live.js signs in without leaving the page when a sign-in lapses under a kept round: it asks
``/signin`` for JSON (``X-Refapp-Live`` and ``Accept: application/json``) and gets a fresh CSRF
token back with the answer. A live write whose sign-in or CSRF token lapsed is answered with
``X-Refapp-Again`` (``sign-in`` or ``token``) instead of a page that would replace the entry.
"""

from __future__ import annotations

from flask import flash, g, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError, generate_csrf
from wtforms import HiddenField, PasswordField
from wtforms.validators import InputRequired

from ..access import (
    attempt,
    can_write,
    forget_sign_in,
    password_matches,
    remember_sign_in,
    retry_after,
    safe_next,
)
from ..club import has_organizer, has_password, organizer_matches
from . import bp
from .forms.voice import AppForm

#: the header that tells live.js what a lapsed write needs before it is sent again
AGAIN = "X-Refapp-Again"


class SignInForm(AppForm):
    """The table password, and where to go back to."""

    password = PasswordField(
        _l("Table password"), [InputRequired(message=_l("Type the password."))]
    )
    next = HiddenField()


def is_live() -> bool:
    """Return True for a request live.js sent (it keeps the entry whatever the answer)."""
    return request.headers.get("X-Refapp-Live") == "1"


def wants_json() -> bool:
    """Return True when live.js signs in in place and reads the answer as JSON."""
    return is_live() and request.accept_mimetypes.best == "application/json"


def fresh_token() -> str:
    """Return a CSRF token for this session as it is now (a sign-in starts a new session)."""
    g.pop("csrf_token", None)  # the form made one for the session the sign-in replaced
    return str(generate_csrf())


def refuse(form: SignInForm, message: str, wait: int = 0) -> ResponseReturnValue:
    """Show the form again with its error: 401, still not signed in (and when to try again)."""
    form.password.errors = [message]
    headers = {"Retry-After": str(wait)} if wait else {}
    if wants_json():
        return jsonify(error=message, retry_after=wait), 401, headers
    return render_template("signin.html", form=form), 401, headers


def state(status: int = 200) -> ResponseReturnValue:
    """Answer live.js: whether a password is still needed, and a token for the next post."""
    needed = not can_write()
    return jsonify(password_needed=needed, csrf_token=fresh_token()), status


@bp.route("/signin", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    """Ask for the table password; remember the sign-in in this browser for a while."""
    form = SignInForm(next=request.args.get("next", ""))
    if not (has_password() or has_organizer()):
        return state() if wants_json() else redirect(url_for("web.index"))
    if wants_json() and request.method == "GET":
        return state()
    if not form.validate_on_submit():
        if request.method == "POST":
            message = next(iter(form.password.errors), _("Type the password."))
            return refuse(form, str(message))
        headers = {AGAIN: "sign-in"} if is_live() else {}
        return render_template("signin.html", form=form), 200, headers
    wait = retry_after()
    if wait:
        return refuse(
            form,
            _("Too many wrong passwords: wait %(seconds)d seconds and try again.", seconds=wait),
            wait,
        )
    given = form.password.data
    if not attempt(given, lambda typed: password_matches(typed) or organizer_matches(typed)):
        return refuse(form, _("That is not the table's password."))
    remember_sign_in(organizer=organizer_matches(given))
    if wants_json():
        return state()
    flash(_("Signed in: you can record rounds now."))
    return redirect(safe_next(form.next.data))


@bp.post("/signout")
def sign_out() -> ResponseReturnValue:
    """Forget this browser's sign-in."""
    forget_sign_in()
    flash(_("Signed out."))
    return redirect(url_for("web.index"))


@bp.app_errorhandler(CSRFError)
def lapsed_token(error: CSRFError) -> ResponseReturnValue:
    """Answer a form whose CSRF token lapsed (its session cookie ended with the sign-in): live.js
    gets 403 and what to do so the entry is kept; a plain form gets the usual 400 page."""
    if not is_live():
        return render_template("error.html", error=error), 400
    needed = "sign-in" if not can_write() else "token"
    response = jsonify(error={"code": "csrf", "again": needed, "message": error.description})
    return response, 403, {AGAIN: needed}
