"""Forms shared by every game: a new session with its house rules, and the one-button forms."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from ..games.base import Game, RuleOption, RuleViolation

WHOLE = re.compile(r"-?[0-9]{1,9}")
#: a player's line when the first ranks come from a draw: the name, then the card drawn
DRAW_LINE = re.compile(r"(?P<name>.*?\S)[\s:=,-]+(?P<draw>[0-9]{1,2}|[jJ])")


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
    """Return the form field that edits one house-rule option, labelled with its name.

    Words are the reader's language (the option's label, description and choices' labels);
    a choice's value stays its code.
    """
    label = _(option.label) if option.label else option.key.replace("_", " ")
    kwargs: dict[str, Any] = {"description": _(option.description)}
    if option.kind in ("choice", "choices"):
        words = [_(option.choice_label(choice)) for choice in option.choices]
        field = SelectField if option.kind == "choice" else MultiCheckboxField
        return field(
            label, choices=options(option.choices, words), default=option.default, **kwargs
        )
    if option.kind == "bool":
        return BooleanField(label, default=option.default, **kwargs)
    if option.kind == "int_list":
        default = ", ".join(str(v) for v in option.default or [])
        return StringField(label, default=default, **kwargs)
    default = "" if option.default is None else str(option.default)
    hint = " " + _("Leave empty for none.") if option.nullable else ""
    return StringField(label, default=default, description=_(option.description) + hint)


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

    name = StringField(
        _l("Session name"), [Length(max=100)], description=_l("Optional, e.g. Friday table")
    )
    players = TextAreaField(
        _l("Players"),
        [InputRequired(message=_l("Write the players' names, one per line."))],
        description=_l("One name per line, in seat order (clockwise)."),
        render_kw={"rows": 6, "autocapitalize": "words"},
    )
    game = HiddenField()

    rule_options: tuple[RuleOption, ...] = ()
    #: True for a game whose first ranks may come from a draw (Dalmuti's ``initial_draw``)
    takes_draw = False

    @classmethod
    def for_game(cls, game: Game, **kwargs: Any) -> NewSessionForm:
        """Build the form with one field per house-rule option of the game."""
        fields: dict[str, Field] = {
            f"rule_{option.key}": rule_field(option) for option in game.options
        }
        if "initial_draw" in game.setup_keys:
            fields["first_ranks"] = RadioField(
                _("First ranks"),
                choices=options(
                    ["order", "draw"],
                    [
                        _(
                            "As listed: the first name is the Greater Dalmuti, the last the "
                            "Greater Peasant."
                        ),
                        _(
                            "By draw: write the card each player drew after their name, "
                            "e.g. \u201cAnn 7\u201d (1 to 12, J for a jester, the worst)."
                        ),
                    ],
                ),
                default="order",
            )
        form_class = type(f"NewSessionForm_{game.slug}", (cls,), fields)
        form_class.rule_options = game.options
        form_class.takes_draw = "first_ranks" in fields
        return form_class(game=game.slug, **kwargs)

    def by_draw(self) -> bool:
        """Return True when the first ranks are to follow the draws written after the names."""
        return self.takes_draw and self["first_ranks"].data == "draw"

    def lines(self) -> list[str]:
        """Return the non-empty lines of the players field, trimmed."""
        return [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]

    def validate_players(self, field: Field) -> None:
        """With a draw, check that every line ends in the card drawn."""
        if not self.by_draw():
            return
        for line in self.lines():
            if not DRAW_LINE.fullmatch(line):
                raise ValidationError(
                    _(
                        "Write the card %(name)s drew after the name, e.g. \u201c%(name)s 7\u201d "
                        "(1 to 12, or J).",
                        name=line,
                    )
                )

    def rule_fields(self) -> list[Field]:
        """Return the house-rule fields in the game's order."""
        return [self[f"rule_{option.key}"] for option in self.rule_options]

    def body(self) -> dict[str, Any]:
        """Return the API-shaped body for ``create_session``."""
        names = self.lines()
        draws: dict[str, int | str] = {}
        if self.by_draw():
            names = []
            for line in self.lines():
                found = DRAW_LINE.fullmatch(line)
                name = found["name"] if found else line
                draw = found["draw"].upper() if found else ""
                names.append(name)
                key = unicodedata.normalize("NFC", name.strip())
                draws[key] = int(draw) if draw.isdigit() else draw
        rules = {}
        for option in self.rule_options:
            value = rule_value(option, self[f"rule_{option.key}"].data)
            if value != option.default:
                rules[option.key] = value
        body = {"game": self.game.data, "name": self.name.data, "players": names, "rules": rules}
        if draws:
            body["initial_draw"] = draws
        return body

    def show_violation(self, error: RuleViolation) -> None:
        """Put a refused session's message next to the field it concerns."""
        path = error.field or ""
        if path.startswith("rules."):
            field = self._fields.get("rule_" + path.split(".", 1)[1])
        elif path.startswith(("players", "initial_draw")):
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
