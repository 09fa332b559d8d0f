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

from collections.abc import Mapping, Sequence
from typing import ClassVar, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from wtforms import (
    Field,
    HiddenField,
    RadioField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, ValidationError

from ...games.errors import Refusal
from ...games.game import AnyGame
from ...games.options import RuleOption, RuleValue
from ...services.rule_sets import SavedRules
from .common import add_error
from .rule_fields import FieldData, field_data, rule_field, rule_from_field, same_rule
from .seating import Seating
from .voice import AppForm

#: how the preset choice names a saved set (a preset's key never holds a colon)
SAVED = "saved:"


def seats_text(seats: Sequence[int]) -> str:
    """Return seat counts as the page's script reads them: "6 7" ("" for every count)."""
    return " ".join(str(count) for count in seats)


def option_seats(option: RuleOption) -> str:
    """Return the seat counts an option applies at, as the page reads them ("" for every one)."""
    return seats_text(option.seats)


class NewSessionForm(AppForm):
    """Name the session, seat the players (one per line, clockwise) and set the house rules."""

    name = StringField(
        _l("Session name"), [Length(max=100)], description=_l("Optional, e.g. Friday table")
    )
    location = StringField(
        _l("Where you play"),
        [Length(max=60)],
        description=_l("Optional, e.g. Ann's flat"),
        render_kw={"autocomplete": "off", "list": "known-locations", "maxlength": 60},
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
        cls, game: AnyGame, saved: list[SavedRules] | None = None, **kwargs: object
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

    def baseline(self, choice: str | None, seats: int | None = None) -> dict[str, RuleValue]:
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

    def load_rules(self, rules: Mapping[str, object]) -> None:
        """Fill the house-rule fields with a session's own rules (an option it lacks: as is)."""
        for option in self.rule_options:
            if option.key in rules:
                self[f"rule_{option.key}"].data = field_data(option, rules[option.key])

    def fills(self) -> dict[str, dict[str, FieldData]]:
        """Return every choice's field values, by field name, for the page's script."""
        fills: dict[str, dict[str, FieldData]] = {}
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

    def changed_rules(self) -> dict[str, object]:
        """Return the rules the player changed: fields neither at the fill's nor the choice's
        value (the choice's being what the session gets anyway); an option the seat count
        gives a default to is sent unless its field holds that default."""
        filled = self.baseline(self.filled_from.data or self.preset.data)
        chosen = self.baseline(self.preset.data)
        count = len(self.lines())
        by_seats = self.the_game.seat_defaults(count)
        seated = self.baseline(self.preset.data, count) if by_seats else {}
        rules: dict[str, object] = {}
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

    def seat_fills(self) -> dict[str, dict[str, dict[str, FieldData]]]:
        """Return, for each choice and each seat count with defaults of its own, the fields'
        values there (the options those defaults touch), for the page's script."""
        game = self.the_game
        fills: dict[str, dict[str, dict[str, FieldData]]] = {}
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

    def rules_body(self) -> dict[str, object]:
        """Return the body's rules part: the preset or saved set, and the changed rules."""
        choice = self.preset.data or ""
        body: dict[str, object] = {"rules": self.changed_rules()}
        if choice.startswith(SAVED):
            body["rule_set"] = choice[len(SAVED) :]
        elif choice:
            body["preset"] = choice
        return body

    def to_save(self) -> dict[str, object]:
        """Return a saved set's body for these choices: a preset and every change to it."""
        choice = self.preset.data or ""
        changes = self.changed_rules()
        preset: str | None = choice
        base: dict[str, object] = {}
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

    def body(self) -> dict[str, object]:
        """Return the API-shaped body for ``create_session``."""
        names, setup = self.seating.read(self, self.lines())
        body: dict[str, object] = {"game": self.game.data, "name": self.name.data, "players": names}
        body["location"] = self.location.data or None
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
        elif path in ("name", "location"):
            field = self.name if path == "name" else self.location
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


class LocationForm(AppForm):
    """Where a session was played, set or changed on its page (empty: not said)."""

    location = StringField(
        _l("Where you play"),
        [Length(max=60)],
        description=_l("Optional, e.g. Ann's flat"),
        # no list of the places used here: the session page reads no more rows for it (the
        # new-session form offers them, and the same table again keeps its place)
        render_kw={"autocomplete": "off", "maxlength": 60},
    )
