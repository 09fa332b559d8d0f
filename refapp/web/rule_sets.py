"""Pages for the table's saved house rules: save the new-session form's rules under a name, list
the saved sets, rename one (in place: a full table can still rename) and delete one."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length

from ..games import GAMES, AnyGame, get_game
from ..games.options import Preset, RuleOption
from ..services import rule_sets as saved_rules
from . import bp
from .forms import NewSessionForm, add_error
from .forms.session import SAVED, SaveRulesForm
from .forms.voice import AppForm
from .helpers import FORM_REFUSALS
from .sessions import new_session_page


class RenameRuleSetForm(AppForm):
    """A saved set's new name (the old one rides along hidden)."""

    name = HiddenField()
    new_name = StringField(
        _l("New name"),
        [InputRequired(message=_l("Write a name for these rules.")), Length(max=60)],
    )


class DeleteRuleSetForm(AppForm):
    """Delete one saved set, named in a hidden field."""

    name = HiddenField()


class Described(saved_rules.SavedRules):
    """A saved set as its page shows it: its game, its preset and its changes besides."""

    the_game: AnyGame
    the_preset: Preset | None
    changes: list[tuple[RuleOption, object]]


def described(saved: saved_rules.SavedRules) -> Described:
    """Return a saved set with what the page shows: its game, preset and changes in words."""
    game = get_game(saved["game"])
    by_key = {option.key: option for option in game.options}
    preset = None
    if saved["preset"] in {item.key for item in game.presets}:
        preset = game.preset(saved["preset"])
    changes = [(by_key[key], value) for key, value in saved["rules"].items() if key in by_key]
    return {**saved, "the_game": game, "the_preset": preset, "changes": changes}


def rule_sets_page(
    status: int = 200, errors: dict[str, list[str]] | None = None
) -> ResponseReturnValue:
    """Render the saved sets, each with its rename and delete forms."""
    found = [described(saved) for saved in saved_rules.list_rule_sets()]
    forms = {
        saved["name"]: (
            RenameRuleSetForm(formdata=None, name=saved["name"], new_name=saved["name"]),
            DeleteRuleSetForm(formdata=None, name=saved["name"]),
        )
        for saved in found
    }
    elsewhere = []
    for name, messages in (errors or {}).items():
        if name in forms:
            forms[name][0].new_name.errors = messages
        else:
            elsewhere.extend(messages)
    return render_template(
        "rule_sets.html",
        sets=found,
        forms=forms,
        errors=elsewhere,
        saved_prefix=SAVED,
        most=saved_rules.MAX_RULE_SETS,
    ), status


@bp.get("/rule-sets")
def rule_sets() -> ResponseReturnValue:
    """List the table's saved house rules, with rename and delete."""
    return rule_sets_page()


@bp.post("/rule-sets/save")
def save_rules() -> ResponseReturnValue:
    """Save the new-session form's preset and changed rules under a name, then show the form
    again with that set chosen (the names written so far kept)."""
    slug = request.values.get("game", "")
    if slug not in GAMES:
        abort(404)
    game = get_game(slug)
    form = NewSessionForm.for_game(game, saved_rules.list_rule_sets())
    save_form = SaveRulesForm()
    form.validate()
    save_form.validate()
    for field in (form.name, form.players, *form.seating_fields()):
        field.errors = []  # the session's own fields do not matter for its rules
    blocked = any(field.errors for field in form) or form.form_errors or save_form.errors
    if not blocked:
        try:
            stored = saved_rules.save_rule_set(save_form.set_name.data, form.to_save())
        except FORM_REFUSALS as error:
            if error.field == "name":
                add_error(save_form, save_form.set_name, error.message)
            else:
                form.show_violation(error)
        else:
            name = stored.name
            flash(_("The rules are saved as %(name)s.", name=name))
            form = NewSessionForm.for_game(game, saved_rules.list_rule_sets())
            form.load_choice(SAVED + name)
            return new_session_page(form, game, 200, SaveRulesForm(formdata=None))
    return new_session_page(form, game, 422, save_form)


@bp.post("/rule-sets/rename")
def rename_rule_set() -> ResponseReturnValue:
    """Give a saved set a new name (a taken name is refused)."""
    form = RenameRuleSetForm()
    old = form.name.data or ""
    if not form.validate():
        refused = [*form.new_name.errors, *form.errors.get("csrf_token", [])]
        return rule_sets_page(422, {old: refused})
    try:
        saved = saved_rules.find_rule_set(old)
        new = saved_rules.rule_set_name(form.new_name.data)
        if new != saved.name:
            if any(item["name"] == new for item in saved_rules.list_rule_sets()):
                message = _("There are already saved house rules called %(name)s.", name=new)
                return rule_sets_page(422, {old: [message]})
            saved_rules.rename_rule_set(old, new)  # checks the name again, under the lock
            flash(_("Renamed %(old)s to %(new)s.", old=old, new=new))
    except FORM_REFUSALS as error:
        return rule_sets_page(422, {old: [error.message]})
    return redirect(url_for("web.rule_sets"))


@bp.post("/rule-sets/delete")
def delete_rule_set() -> ResponseReturnValue:
    """Delete a saved set; sessions made from it keep their rules."""
    form = DeleteRuleSetForm()
    if not form.validate():
        return rule_sets_page(422, {form.name.data or "": list(form.errors.get("csrf_token", []))})
    try:
        saved_rules.delete_rule_set(form.name.data)
    except FORM_REFUSALS as error:
        return rule_sets_page(422, {form.name.data or "": [error.message]})
    flash(_("Deleted the saved rules %(name)s.", name=form.name.data))
    return redirect(url_for("web.rule_sets"))
