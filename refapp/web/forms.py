"""Forms shared by every game: a new session with its house rules, and the one-button forms."""

from __future__ import annotations

import re
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length
from wtforms.widgets import CheckboxInput, ListWidget

from ..games.base import Game, RuleOption, RuleViolation

WHOLE = re.compile(r"-?[0-9]{1,9}")


def options(values: Any, labels: Any = None) -> list[SelectChoice]:
    """Return select choices whose value and label are the given values (or labels)."""
    values = list(values)
    labels = values if labels is None else list(labels)
    pairs = zip(values, labels, strict=True)
    return [SelectChoice(str(value), str(label)) for value, label in pairs]


class ButtonForm(FlaskForm):
    """A form that is only a button (undo, finish): CSRF-protected, no fields."""


class MultiCheckboxField(SelectMultipleField):
    """A list of checkboxes for an option that takes several values."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def rule_field(option: RuleOption) -> Field:
    """Return the form field that edits one house-rule option, labelled with its description."""
    label = option.key.replace("_", " ")
    kwargs: dict[str, Any] = {"description": option.description}
    if option.kind == "bool":
        return BooleanField(label, default=option.default, **kwargs)
    if option.kind == "choice":
        return SelectField(label, choices=options(option.choices), default=option.default, **kwargs)
    if option.kind == "choices":
        return MultiCheckboxField(
            label, choices=options(option.choices), default=option.default, **kwargs
        )
    if option.kind == "int_list":
        default = ", ".join(str(v) for v in option.default or [])
        return StringField(label, default=default, **kwargs)
    default = "" if option.default is None else str(option.default)
    hint = " Leave empty for none." if option.nullable else ""
    return StringField(label, default=default, description=option.description + hint)


def rule_value(option: RuleOption, data: Any) -> Any:
    """Turn a submitted field value into the option's JSON value (checked later by the rules)."""
    if option.kind in ("bool", "choice", "choices"):
        return data
    text = (data or "").strip()
    if option.kind == "int_list":
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        return [int(part) if WHOLE.fullmatch(part) else part for part in parts]
    if not text:
        return None
    return int(text) if WHOLE.fullmatch(text) else text


class NewSessionForm(FlaskForm):
    """Name the session, seat the players (one per line, clockwise) and set the house rules."""

    name = StringField("Session name", [Length(max=100)], description="Optional, e.g. Friday table")
    players = TextAreaField(
        "Players",
        [InputRequired(message="Write the players' names, one per line.")],
        description="One name per line, in seat order (clockwise).",
        render_kw={"rows": 6, "autocapitalize": "words"},
    )
    game = HiddenField()

    rule_options: tuple[RuleOption, ...] = ()

    @classmethod
    def for_game(cls, game: Game, **kwargs: Any) -> NewSessionForm:
        """Build the form with one field per house-rule option of the game."""
        fields = {f"rule_{option.key}": rule_field(option) for option in game.options}
        form_class = type(f"NewSessionForm_{game.slug}", (cls,), fields)
        form_class.rule_options = game.options
        return form_class(game=game.slug, **kwargs)

    def rule_fields(self) -> list[Field]:
        """Return the house-rule fields in the game's order."""
        return [self[f"rule_{option.key}"] for option in self.rule_options]

    def body(self) -> dict[str, Any]:
        """Return the API-shaped body for ``create_session``."""
        names = [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]
        rules = {}
        for option in self.rule_options:
            value = rule_value(option, self[f"rule_{option.key}"].data)
            if value != option.default:
                rules[option.key] = value
        return {"game": self.game.data, "name": self.name.data, "players": names, "rules": rules}

    def show_violation(self, error: RuleViolation) -> None:
        """Put a refused session's message next to the field it concerns."""
        path = error.field or ""
        if path.startswith("rules."):
            field = self._fields.get("rule_" + path.split(".", 1)[1])
        elif path.startswith("players"):
            field = self.players
        elif path == "name":
            field = self.name
        else:
            field = None
        add_error(self, field, error.message)


def add_error(form: FlaskForm, field: Field | None, message: str) -> None:
    """Attach a message to a field, or to the form as a whole when no field fits."""
    if field is None:
        form.form_errors.append(message)
    else:
        field.errors = [*field.errors, message]
