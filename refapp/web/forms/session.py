"""The new-session form: the session's name, its players in seat order and its house rules.

The rules start from a preset or one of the table's saved sets (the ``preset`` choice); the
house-rule fields are filled with that choice's values, and only a field the player changed is
sent as an explicit rule. ``filled_from`` says which choice the fields were filled from (the
page's script refills them when the choice changes; without it they keep the first fill), so a
field still at that fill's value, or at the chosen one's, is not a change.

Some options apply only at some seat counts (``RuleOption.seats``) and some defaults depend on
the count (``Game.seat_defaults``): the page's script shows an option only when the players
entered match its seats and sets an untouched field to the count's default, and an option with
a seat default is sent whenever its field differs from that default, so the rules the table
gets are the ones the form shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget, html_params

from ...games.errors import Refusal
from ...games.game import AnyGame
from ...games.options import RuleOption
from ...services.rule_sets import SavedRules
from .common import add_error, options
from .seating import Seating
from .voice import AppForm

WHOLE = re.compile(r"-?[0-9]{1,9}")
#: a number with a decimal point or comma ("2.5", Hungarian "2,5")
DECIMAL = re.compile(r"-?[0-9]{1,9}[.,][0-9]{1,9}")
#: how the preset choice names a saved set (a preset's key never holds a colon)
SAVED = "saved:"


class CheckList(ListWidget):  # type: ignore[misc]  # WTForms ships no type hints
    """A list of checkboxes, each inside its label: the whole line is the 44 px target."""

    def __call__(self, field: Field, **kwargs: Any) -> Markup:
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
    whole = option.kind == "int" and option.minimum is not None and option.minimum >= 0
    keypad = {"inputmode": "numeric"} if whole else {}  # a phone offers its number keypad
    return StringField(
        label, default=default, description=_(option.description) + hint, render_kw=keypad
    )


def rule_from_field(option: RuleOption, data: Any) -> Any:
    """Turn a submitted field value into the option's JSON value (checked later by the rules)."""
    if option.kind in ("bool", "choice", "choices"):
        return data
    text = (data or "").strip()
    if option.kind == "int_list":
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        return [int(part) if WHOLE.fullmatch(part) else part for part in parts]
    if not text:
        return None
    if DECIMAL.fullmatch(text):
        return float(text.replace(",", "."))
    return int(text) if WHOLE.fullmatch(text) else text


def field_data(option: RuleOption, value: Any) -> Any:
    """Return what an option's field holds for a rule value (the inverse of ``rule_from_field``)."""
    if option.kind == "bool":
        return bool(value)
    if option.kind == "choice":
        return str(value)
    if option.kind == "choices":
        return [str(item) for item in value or []]
    if option.kind == "int_list":
        return ", ".join(str(item) for item in value or [])
    return "" if value is None else str(value)


def seats_text(seats: Sequence[int]) -> str:
    """Return seat counts as the page's script reads them: "6 7" ("" for every count)."""
    return " ".join(str(count) for count in seats)


def option_seats(option: RuleOption) -> str:
    """Return the seat counts an option applies at, as the page reads them ("" for every one)."""
    return seats_text(option.seats)


def same_rule(option: RuleOption, data: Any, value: Any) -> bool:
    """Return True when a field's data means the rule value (a field refused later differs)."""
    try:
        return bool(option.check(rule_from_field(option, data)) == value)
    except Refusal:
        return False


class NewSessionForm(AppForm):
    """Name the session, seat the players (one per line, clockwise) and set the house rules."""

    name = StringField(
        _l("Session name"), [Length(max=100)], description=_l("Optional, e.g. Friday table")
    )
    players = TextAreaField(
        _l("Players"),
        [InputRequired(message=_l("Write the players' names, one per line."))],
        description=_l(
            "One name per line, in the order they play - many tables play counter-clockwise: "
            "enter the seats that way."
        ),
        render_kw={"rows": 6, "autocapitalize": "words"},
    )
    game = HiddenField()
    preset = RadioField(_l("Rules to start from"), validate_choice=False)
    filled_from = HiddenField()

    rule_options: tuple[RuleOption, ...] = ()
    #: the game whose rules the form edits
    the_game: AnyGame
    #: the table's saved sets for this game, by name
    saved_sets: ClassVar[dict[str, SavedRules]] = {}
    #: how the game seats its players (its pages' own, or one name per line)
    seating: Seating = Seating()

    @classmethod
    def for_game(
        cls, game: AnyGame, saved: list[SavedRules] | None = None, **kwargs: Any
    ) -> NewSessionForm:
        """Build the form with one field per house-rule option of the game.

        saved are the table's saved sets as ``list_rule_sets`` gives them (other games' are
        left out); the preset choice offers the game's presets, then those sets.
        """
        fields: dict[str, Field] = {
            f"rule_{option.key}": rule_field(option) for option in game.options
        }
        from ..game_pages import PAGES  # the games' pages import these forms

        seating = PAGES[game.slug].seating if game.slug in PAGES else None
        seating = seating or Seating()
        fields.update(seating.fields())
        made = type(f"NewSessionForm_{game.slug}", (cls,), fields)
        form_class = cast(type[NewSessionForm], made)  # type() makes a subclass of cls
        form_class.rule_options = game.options
        form_class.seating = seating
        form_class.the_game = game
        form_class.saved_sets = {
            item["name"]: item for item in saved or [] if item["game"] == game.slug
        }
        form = form_class(game=game.slug, **kwargs)
        form.preset.choices = [(preset.key, _(preset.label)) for preset in game.presets] + [
            (SAVED + name, _("Saved: %(name)s", name=name)) for name in form_class.saved_sets
        ]
        if not form.preset.data or form.preset.data == "None":
            form.preset.data = game.default_preset or ""
        return form

    # -- the presets and saved sets ---------------------------------------------------------

    def choice_keys(self) -> list[str]:
        """Return the values of the preset choice: the presets' keys, then the saved sets'."""
        return [str(value) for value, _label in self.preset.choices or []]

    def baseline(self, choice: str | None, seats: int | None = None) -> dict[str, Any]:
        """Return the rules a choice gives (a preset's, or a saved set's preset and changes),
        at a seat count when one is given (its defaults under the choice's own values)."""
        game = self.the_game
        if choice and choice.startswith(SAVED) and choice[len(SAVED) :] in self.saved_sets:
            saved = self.saved_sets[choice[len(SAVED) :]]
            try:
                return game.resolve_rules(dict(saved["rules"] or {}), saved["preset"], seats=seats)
            except Refusal:
                return game.resolve_rules({}, None, seats=seats)
        known = choice in {preset.key for preset in game.presets}
        return game.resolve_rules({}, choice if known else None, seats=seats)

    def load_choice(self, choice: str | None = None) -> None:
        """Fill the house-rule fields with a choice's values (the chosen one unless given)."""
        choice = choice if choice is not None else self.preset.data
        if choice not in self.choice_keys():
            choice = self.the_game.default_preset or ""
        self.preset.data = choice
        self.filled_from.data = choice
        rules = self.baseline(choice)
        for option in self.rule_options:
            self[f"rule_{option.key}"].data = field_data(option, rules[option.key])

    def load_rules(self, rules: Mapping[str, Any]) -> None:
        """Fill the house-rule fields with a session's own rules (an option it lacks: as is)."""
        for option in self.rule_options:
            if option.key in rules:
                self[f"rule_{option.key}"].data = field_data(option, rules[option.key])

    def fills(self) -> dict[str, dict[str, Any]]:
        """Return every choice's field values, by field name, for the page's script."""
        fills = {}
        for choice in self.choice_keys():
            rules = self.baseline(choice)
            fills[choice] = {
                f"rule_{option.key}": field_data(option, rules[option.key])
                for option in self.rule_options
            }
        return fills

    def choice_description(self, choice: str) -> str:
        """Return the one-line description of a preset, or a saved set's preset and changes."""
        game = self.the_game
        if choice.startswith(SAVED):
            saved = self.saved_sets.get(choice[len(SAVED) :])
            if saved is None:
                return ""
            preset = game.preset(saved["preset"]) if saved["preset"] in self.choice_keys() else None
            label = _(preset.label) if preset else ""
            return str(
                ngettext(
                    "%(preset)s with %(num)d change.",
                    "%(preset)s with %(num)d changes.",
                    len(saved["rules"] or {}),
                    preset=label,
                )
            )
        for preset in game.presets:
            if preset.key == choice:
                return str(_(preset.description))
        return ""

    def changed_rules(self) -> dict[str, Any]:
        """Return the rules the player changed: fields neither at the fill's nor the choice's
        value (the choice's being what the session gets anyway); an option the seat count
        gives a default to is sent unless its field holds that default."""
        filled = self.baseline(self.filled_from.data or self.preset.data)
        chosen = self.baseline(self.preset.data)
        count = len(self.lines())
        by_seats = self.the_game.seat_defaults(count)
        seated = self.baseline(self.preset.data, count) if by_seats else {}
        rules = {}
        for option in self.rule_options:
            data = self[f"rule_{option.key}"].data
            key = option.key
            if key in by_seats:  # the table gets the seated value unless the field differs
                if not same_rule(option, data, seated[key]):
                    rules[key] = rule_from_field(option, data)
                continue
            if same_rule(option, data, filled[key]) or same_rule(option, data, chosen[key]):
                continue
            rules[key] = rule_from_field(option, data)
        return rules

    #: the seat counts an option applies at, as the page's script reads them
    option_seats = staticmethod(option_seats)

    def preset_seats(self, choice: str) -> str:
        """Return the seat counts a preset is for (``Preset.seats`` where a game gives one, as
        the page's script reads them; "" for every count and for a saved set)."""
        found = next((p for p in self.the_game.presets if p.key == choice), None)
        return seats_text(found.seats) if found else ""

    def seat_fills(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Return, for each choice and each seat count with defaults of its own, the fields'
        values there (the options those defaults touch), for the page's script."""
        game = self.the_game
        fills: dict[str, dict[str, dict[str, Any]]] = {}
        for choice in self.choice_keys():
            for count in range(game.min_players, game.max_players + 1):
                keys = game.seat_defaults(count)
                if not keys:
                    continue
                rules = self.baseline(choice, count)
                fills.setdefault(choice, {})[str(count)] = {
                    f"rule_{option.key}": field_data(option, rules[option.key])
                    for option in self.rule_options
                    if option.key in keys
                }
        return fills

    def rules_body(self) -> dict[str, Any]:
        """Return the body's rules part: the preset or saved set, and the changed rules."""
        choice = self.preset.data or ""
        body: dict[str, Any] = {"rules": self.changed_rules()}
        if choice.startswith(SAVED):
            body["rule_set"] = choice[len(SAVED) :]
        elif choice:
            body["preset"] = choice
        return body

    def to_save(self) -> dict[str, Any]:
        """Return a saved set's body for these choices: a preset and every change to it."""
        choice = self.preset.data or ""
        changes = self.changed_rules()
        preset, base = choice, {}
        if choice.startswith(SAVED) and choice[len(SAVED) :] in self.saved_sets:
            saved = self.saved_sets[choice[len(SAVED) :]]
            preset, base = saved["preset"], dict(saved["rules"] or {})
        return {"game": self.the_game.slug, "preset": preset, "rules": {**base, **changes}}

    def validate_preset(self, field: Field) -> None:
        """Refuse a preset or saved set this game does not offer."""
        if field.data not in self.choice_keys():
            raise ValidationError(_("Choose one of the presets or saved rules."))

    def lines(self) -> list[str]:
        """Return the non-empty lines of the players field, trimmed."""
        return [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]

    def validate_players(self, field: Field) -> None:
        """Refuse a line the game's seating cannot read (e.g. a draw missing)."""
        self.seating.check(self, self.lines())

    def seating_fields(self) -> list[Field]:
        """Return the fields the game's seating adds."""
        return [self[name] for name in self.seating.field_names]

    def rule_fields(self) -> list[Field]:
        """Return the house-rule fields in the game's order."""
        return [self[f"rule_{option.key}"] for option in self.rule_options]

    def body(self) -> dict[str, Any]:
        """Return the API-shaped body for ``create_session``."""
        names, setup = self.seating.read(self, self.lines())
        body = {"game": self.game.data, "name": self.name.data, "players": names}
        body.update(self.rules_body())
        body.update(setup)
        return body

    def show_violation(self, error: Refusal) -> None:
        """Put a refused session's message next to the field it concerns."""
        path = error.field or ""
        if path.startswith("rules."):
            field = self._fields.get("rule_" + path.split(".", 1)[1])
        elif path.startswith(("players", *self.seating.setup_paths)):
            field = self.players
        elif path == "name":
            field = self.name
        elif path in ("preset", "rule_set"):
            field = self.preset
        else:
            field = None
        add_error(self, field, error.message)


class SaveRulesForm(AppForm):
    """The name to save the new-session form's rules under (the rules come from that form)."""

    set_name = StringField(
        _l("Save these rules as"),
        [InputRequired(message=_l("Write a name for these rules.")), Length(max=60)],
        description=_l("e.g. Friday club"),
    )
