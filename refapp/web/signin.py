"""Signing in to (and out of) a table that has a password."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField
from wtforms.validators import InputRequired

from ..access import (
    attempt,
    forget_sign_in,
    password_matches,
    remember_sign_in,
    retry_after,
    safe_next,
    table_password,
)
from . import bp


class SignInForm(FlaskForm):
    """The table password, and where to go back to."""

    password = PasswordField(
        _l("Table password"), [InputRequired(message=_l("Type the password."))]
    )
    next = HiddenField()


def refuse(form: SignInForm, message: str, wait: int = 0):
    """Show the form again with its error: 401, still not signed in (and when to try again)."""
    form.password.errors = [message]
    headers = {"Retry-After": str(wait)} if wait else {}
    return render_template("signin.html", form=form), 401, headers


@bp.route("/signin", methods=["GET", "POST"])
def sign_in():
    """Ask for the table password; remember the sign-in in this browser for a while."""
    form = SignInForm(next=request.args.get("next", ""))
    if table_password() is None:
        return redirect(url_for("web.index"))
    if not form.validate_on_submit():
        status = 401 if request.method == "POST" else 200
        return render_template("signin.html", form=form), status
    wait = retry_after()
    if wait:
        return refuse(
            form,
            _("Too many wrong passwords: wait %(seconds)d seconds and try again.", seconds=wait),
            wait,
        )
    if not attempt(form.password.data, password_matches):
        return refuse(form, _("That is not the table's password."))
    remember_sign_in()
    flash(_("Signed in: you can record rounds now."))
    return redirect(safe_next(form.next.data))


@bp.post("/signout")
def sign_out():
    """Forget this browser's sign-in."""
    forget_sign_in()
    flash(_("Signed out."))
    return redirect(url_for("web.index"))
