"""Signing in to (and out of) a table that has a password."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField
from wtforms.validators import InputRequired

from ..access import password_matches, table_password
from . import bp


class SignInForm(FlaskForm):
    """The table password, and where to go back to."""

    password = PasswordField(
        _l("Table password"), [InputRequired(message=_l("Type the password."))]
    )
    next = HiddenField()


def safe_next(target: str | None) -> str:
    """Return a same-site path to go back to (never another site)."""
    if (
        target
        and target.startswith("/")
        and not target.startswith("//")
        and target.isprintable()  # no newlines or other controls in a Location header
    ):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("web.index")


@bp.route("/signin", methods=["GET", "POST"])
def sign_in():
    """Ask for the table password; remember the sign-in in this browser."""
    form = SignInForm(next=request.args.get("next", ""))
    if table_password() is None:
        return redirect(url_for("web.index"))
    if form.validate_on_submit():
        if password_matches(form.password.data):
            session.clear()
            session["table_signed_in"] = True
            session.permanent = True
            flash(_("Signed in: you can record rounds now."))
            return redirect(safe_next(form.next.data))
        form.password.errors = [_("That is not the table's password.")]
    status = 401 if request.method == "POST" else 200
    return render_template("signin.html", form=form), status


@bp.post("/signout")
def sign_out():
    """Forget this browser's sign-in."""
    session.pop("table_signed_in", None)
    flash(_("Signed out."))
    return redirect(url_for("web.index"))
