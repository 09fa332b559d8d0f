"""One house-rule option's field on the new-session form: the field, and its data to and from
the option's JSON value."""

from __future__ import annotations

import re

from flask_babel import gettext as _
from markupsafe import Markup
from wtforms import BooleanField, Field, SelectField, SelectMultipleField, StringField
from wtforms.widgets import CheckboxInput, ListWidget, html_params

from ...games.errors import Refusal
from ...games.options import RuleOption
from .common import options

WHOLE = re.compile(r"-?[0-9]{1,9}")
#: a number with a decimal point or comma ("2.5", Hungarian "2,5")
DECIMAL = re.compile(r"-?[0-9]{1,9}[.,][0-9]{1,9}")
#: what a house-rule field holds: a flag, a choice's code or typed text, the codes checked
FieldData = str | bool | list[str]


class CheckList(ListWidget):  # type: ignore[misc]  # WTForms ships no type hints
    """A list of checkboxes, each inside its label: the whole line is the 44 px target."""

    def __call__(self, field: Field, **kwargs: object) -> Markup:
        kwargs.setdefault("id", field.id)
        items = [
            Markup('<li><label class="check">%s %s</label></li>') % (box(), box.label.text)
            for box in field
        ]
        return Markup("<ul %s>%s</ul>") % (html_params(**kwargs), Markup("").join(items))


class MultiCheckboxField(SelectMultipleField):  # type: ignore[misc]  # WTForms: no hints
    """A list of checkboxes for an option that takes several values."""

    widget = CheckList()
    option_widget = CheckboxInput()


def rule_field(option: RuleOption) -> Field:
    """Return the form field that edits one house-rule option, labelled with its name.

    Words are the reader's language (the option's label, description and choices' labels);
    a choice's value stays its code.
    """
    label = _(option.label) if option.label else option.key.replace("_", " ")
    about = _(option.description)
    if option.kind in ("choice", "choices"):
        words = [_(option.choice_label(choice)) for choice in option.choices]
        field = SelectField if option.kind == "choice" else MultiCheckboxField
        choices = options(option.choices, words)
        return field(label, choices=choices, default=option.default, description=about)
    if option.kind == "bool":
        return BooleanField(label, default=option.default, description=about)
    if option.kind == "int_list":
        default = ", ".join(str(v) for v in listed(option.default))
        return StringField(label, default=default, description=about)
    default = "" if option.default is None else str(option.default)
    hint = " " + _("Leave empty for none.") if option.nullable else ""
    whole = option.kind == "int" and option.minimum is not None and option.minimum >= 0
    keypad = {"inputmode": "numeric"} if whole else {}  # a phone offers its number keypad
    return StringField(
        label, default=default, description=_(option.description) + hint, render_kw=keypad
    )


def listed(value: object) -> list[object]:
    """Return the items of a list value (a rule's, a field's); none for anything else."""
    return list(value) if isinstance(value, list | tuple) else []


def rule_from_field(option: RuleOption, data: object) -> object:
    """Turn a submitted field value into the option's JSON value (checked later by the rules)."""
    if option.kind in ("bool", "choice", "choices"):
        return data
    text = data.strip() if isinstance(data, str) else ""
    if option.kind == "int_list":
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        return [int(part) if WHOLE.fullmatch(part) else part for part in parts]
    if not text:
        return None
    if DECIMAL.fullmatch(text):
        return float(text.replace(",", "."))
    return int(text) if WHOLE.fullmatch(text) else text


def field_data(option: RuleOption, value: object) -> FieldData:
    """Return what an option's field holds for a rule value (the inverse of ``rule_from_field``)."""
    if option.kind == "bool":
        return bool(value)
    if option.kind == "choice":
        return str(value)
    if option.kind == "choices":
        return [str(item) for item in listed(value)]
    if option.kind == "int_list":
        return ", ".join(str(item) for item in listed(value))
    return "" if value is None else str(value)


def same_rule(option: RuleOption, data: object, value: object) -> bool:
    """Return True when a field's data means the rule value (a field refused later differs)."""
    try:
        return bool(option.check(rule_from_field(option, data)) == value)
    except Refusal:
        return False
