"""The organizer's seasons page (``/seasons``): name a season by its first and last day, see
the group's seasons with their statistics and review, forget one. Every season is also offered
beside the periods on the statistics, player and review pages (``?season=``)."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length

from .. import club
from ..organizer import require_organizer
from ..services import seasons
from . import bp
from .forms import add_error
from .forms.voice import AppForm
from .helpers import FORM_REFUSALS


class SeasonForm(AppForm):
    """A season's name and its first and last day (a name taken: its days are moved)."""

    name = StringField(
        _l("Name"),
        [InputRequired(message=_l("Name the season.")), Length(max=seasons.NAME_MAX)],
    )
    first = StringField(_l("First day"), [InputRequired(message=_l("Choose its first day."))])
    last = StringField(_l("Last day"), [InputRequired(message=_l("Choose its last day."))])


class ForgetSeasonForm(AppForm):
    """Forget one season, named in a hidden field."""

    name = HiddenField()


def seasons_page(form: SeasonForm | None = None, status: int = 200) -> ResponseReturnValue:
    """Render the group's seasons with the form that names one."""
    found = seasons.list_seasons(club.current_group_id())
    return render_template(
        "seasons.html",
        seasons=found,
        form=form or SeasonForm(formdata=None),
        forget={
            season["name"]: ForgetSeasonForm(formdata=None, name=season["name"]) for season in found
        },
    ), status


@bp.get("/seasons")
def list_seasons() -> ResponseReturnValue:
    """Show the organizer the group's seasons and the form that names one."""
    require_organizer()
    return seasons_page()


@bp.post("/seasons")
def save_season() -> ResponseReturnValue:
    """Name a season (or move the days of one so named); a refusal stands by its field."""
    require_organizer()
    form = SeasonForm()
    if not form.validate():
        return seasons_page(form, 422)
    body = {"from": form.first.data, "to": form.last.data}
    try:
        found, created = seasons.put_season(club.current_group_id(), form.name.data, body)
    except FORM_REFUSALS as error:
        fields = {"name": form.name, "from": form.first, "to": form.last}
        add_error(form, fields.get(error.field or ""), error.message)
        return seasons_page(form, 422)
    if created:
        flash(_("Season %(name)s named.", name=found["name"]))
    else:
        flash(_("Season %(name)s moved to its new days.", name=found["name"]))
    return redirect(url_for("web.list_seasons"))


@bp.post("/seasons/forget")
def forget_season() -> ResponseReturnValue:
    """Forget a season; its sessions and figures stay as they are."""
    require_organizer()
    form = ForgetSeasonForm()
    if not form.validate():
        return seasons_page(status=400)
    try:
        seasons.delete_season(club.current_group_id(), form.name.data)
    except FORM_REFUSALS as error:
        flash(error.message)
        return redirect(url_for("web.list_seasons"))
    flash(_("Season %(name)s forgotten.", name=form.name.data))
    return redirect(url_for("web.list_seasons"))
