"""Value types every rules engine shares: rule violations, house-rule options, the table, outcomes.

Nothing here (or anywhere under ``refapp.games``) imports Flask or the database: a game is a pure
function of the table, its house rules, the state before a round and the round's input.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def _untranslated(text: str) -> str:
    return text


def N_(text: str) -> str:
    """Mark a word for translation where it is defined; it is translated where it is shown."""
    return text


#: turns an English message template into the reader's language; the app installs gettext
#: here, so the rules stay free of Flask while every message can still be translated
translate = _untranslated


def install_translator(function) -> None:
    """Use function (e.g. Flask-Babel's gettext) to translate message templates."""
    global translate
    translate = function


def fill(template: str, params: dict[str, Any]) -> str:
    """Translate a message template and fill in its values (words marked ``_t`` translated)."""
    values = {
        key: translate(value) if key.endswith("_t") and isinstance(value, str) else value
        for key, value in params.items()
    }
    return translate(template).format(**values) if params else translate(template)


class Account:
    """A score's explanation, kept twice: English sentences, and templates with their values.

    The English lines are the result's ``explanation`` (the API's); the parts let a page show
    the same sentences in the reader's language. Values whose key ends in ``_t`` are words
    (a trump, a title) translated too.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.parts: list[list[Any]] = []

    def say(self, template: str, **params: Any) -> None:
        """Add one sentence of the explanation."""
        self.parts.append([template, params])
        self.lines.append(template.format(**params) if params else template)

    def result(self) -> dict[str, Any]:
        """Return the result fields that carry the explanation."""
        return {"explanation": self.lines, "explanation_parts": self.parts}


class RuleViolation(ValueError):
    """A broken rule or bad input: a stable ``code``, a message quoting the value, a field path.

    ``message`` is a template filled from ``params`` so that a translation can reuse the same
    values; ``field`` is the input path (``"votes.Ben"``) or None.
    """

    def __init__(self, code: str, message: str, field: str | None = None, **params: Any) -> None:
        self.code = code
        self.template = message
        self.field = field
        self.params = params
        self.round: int | None = None
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """Return the message in the reader's language with its values filled in."""
        return fill(self.template, self.params)

    def as_dict(self) -> dict[str, Any]:
        """Return the API's error body contents."""
        body: dict[str, Any] = {"code": self.code, "message": self.message, "field": self.field}
        if self.round is not None:
            body["round"] = self.round
        return body


def quote(value: Any) -> str:
    """Quote a player's input for an error message the way JSON would show it."""
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class RuleOption:
    """One house-rule option: its key, kind, default, allowed values and a one-line description.

    kind is ``bool``, ``int``, ``choice`` (one of ``choices``), ``choices`` (a list drawn from
    ``choices``) or ``int_list`` (a list of whole numbers between ``minimum`` and ``maximum``).
    """

    key: str
    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def check(self, value: Any) -> Any:
        """Return the value normalised, or raise ``invalid_rules`` quoting it."""
        where = f"rules.{self.key}"
        if value is None:
            if self.nullable:
                return None
            raise RuleViolation(
                "invalid_rules", "House rule {key} may not be null.", where, key=self.key
            )
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise self._bad(value, "House rule {key} must be true or false, not {value}.")
        if self.kind == "int":
            return self._int(value)
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise self._bad(value, "House rule {key} must be one of {choices}, not {value}.")
        if self.kind in ("choices", "int_list"):
            if not isinstance(value, list):
                raise self._bad(value, "House rule {key} must be a list, not {value}.")
            items = [self._item(item) for item in value]
            if len(set(items)) != len(items):
                raise self._bad(
                    value, "House rule {key} must be a list without repeats, not {value}."
                )
            return sorted(items, key=self._order)
        raise AssertionError(f"unknown option kind {self.kind!r}")  # a programming error

    def _item(self, item: Any) -> Any:
        if self.kind == "int_list":
            return self._int(item)
        if isinstance(item, str) and item in self.choices:
            return item
        raise self._bad(item, "House rule {key} takes values from {choices}, not {value}.")

    def _order(self, item: Any) -> Any:
        return self.choices.index(item) if self.kind == "choices" else item

    def _int(self, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._bad(value, "House rule {key} must be a whole number, not {value}.")
        if self.minimum is not None and value < self.minimum:
            raise self._bad(value, "House rule {key} must be at least {minimum}, not {value}.")
        if self.maximum is not None and value > self.maximum:
            raise self._bad(value, "House rule {key} must be at most {maximum}, not {value}.")
        return value

    def _bad(self, value: Any, template: str) -> RuleViolation:
        """Return ``invalid_rules`` for this option, quoting the value (template marked N_)."""
        return RuleViolation(
            "invalid_rules",
            N_(template),
            f"rules.{self.key}",
            key=self.key,
            value=quote(value),
            choices=", ".join(map(quote, self.choices)),
            minimum=self.minimum,
            maximum=self.maximum,
        )


def resolve_rules(options: Sequence[RuleOption], overrides: Any) -> dict[str, Any]:
    """Return every option's effective value: the defaults with the table's overrides checked in."""
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise RuleViolation(
            "invalid_rules",
            "House rules must be an object, not {value}.",
            "rules",
            value=quote(overrides),
        )
    by_key = {option.key: option for option in options}
    for key in overrides:
        if key not in by_key:
            raise RuleViolation(
                "invalid_rules",
                "There is no house rule {key} in this game; known rules: {known}.",
                f"rules.{key}",
                key=quote(key),
                known=", ".join(by_key),
            )
    effective = {}
    for option in options:
        value = overrides.get(option.key, option.default)
        effective[option.key] = option.check(value)
    return effective


@dataclass(frozen=True)
class Table:
    """The seated players in clockwise order and the house rules in force."""

    players: tuple[str, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """Return the number of seated players."""
        return len(self.players)

    def seat(self, name: str) -> int:
        """Return the seat index of a seated player."""
        return self.players.index(name)

    def left_of(self, name: str) -> str:
        """Return the player in the next seat clockwise (to the left)."""
        return self.players[(self.seat(name) + 1) % self.size]

    def player(self, value: Any, where: str) -> str:
        """Return value as a seated player's name (trimmed, NFC) or raise ``unknown_player``."""
        if not isinstance(value, str):
            raise RuleViolation(
                "invalid_value",
                "{where} must be a player's name, not {value}.",
                where,
                where=where,
                value=quote(value),
            )
        name = unicodedata.normalize("NFC", value.strip())
        if name not in self.players:
            raise RuleViolation(
                "unknown_player",
                "{value} is not seated at this table (players: {players}).",
                where,
                value=quote(value),
                players=", ".join(self.players),
            )
        return name


@dataclass
class Outcome:
    """What a round produced: the input as stored, its result, and the game state after it."""

    input: dict[str, Any]
    result: dict[str, Any]
    state: dict[str, Any]


def require(raw: Mapping[str, Any], key: str, where: str | None = None) -> Any:
    """Return raw[key] or raise ``missing_field`` naming the path."""
    if key not in raw or raw[key] is None:
        path = where or key
        raise RuleViolation("missing_field", "The field {path} is required.", path, path=path)
    return raw[key]


def whole_number(value: Any, where: str) -> int:
    """Return value as an int (JSON numbers like 3.0 too) or raise ``invalid_value``."""
    if isinstance(value, bool):
        raise RuleViolation(
            "invalid_value",
            "{where} must be a whole number, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,9}\s*", value):
        return int(value)
    raise RuleViolation(
        "invalid_value",
        "{where} must be a whole number, not {value}.",
        where,
        where=where,
        value=quote(value),
    )


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    """Return value if it is a JSON object, else raise ``invalid_value``."""
    if not isinstance(value, Mapping):
        raise RuleViolation(
            "invalid_value",
            "{where} must be an object, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    return value


def sequence(value: Any, where: str) -> list[Any]:
    """Return value if it is a JSON list, else raise ``invalid_value``."""
    if not isinstance(value, list):
        raise RuleViolation(
            "invalid_value",
            "{where} must be a list, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    return value


def leaders(totals: Mapping[str, int]) -> list[str]:
    """Return every player on the highest total (all of them share the win)."""
    if not totals:
        return []
    best = max(totals.values())
    return [name for name, total in totals.items() if total == best]


def signed(points: int) -> str:
    """Write a score change with its sign: +3, -2, 0."""
    return f"+{points}" if points > 0 else str(points)


class Game:
    """A game's published facts and its rules engine; subclasses override the hooks below."""

    slug: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 10
    options: tuple[RuleOption, ...] = ()
    #: extra keys a new session may carry (e.g. Dalmuti's ``initial_draw``)
    setup_keys: tuple[str, ...] = ()

    def resolve_rules(self, overrides: Any) -> dict[str, Any]:
        """Return the effective house rules for a new session, or raise ``invalid_rules``."""
        return resolve_rules(self.options, overrides)

    def player_range(self, rules: Mapping[str, Any]) -> tuple[int, int]:
        """Return the allowed (fewest, most) players under these rules."""
        return self.min_players, self.max_players

    def check_players(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        """Raise ``bad_player_count`` unless the table size fits the game and its rules."""
        low, high = self.player_range(rules)
        if not low <= len(players) <= high:
            raise RuleViolation(
                "bad_player_count",
                "{title_t} is played by {low} to {high} players, not {count}.",
                "players",
                title_t=self.title,
                low=low,
                high=high,
                count=len(players),
            )

    def start(
        self, players: Sequence[str], rules: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        """Return the seat order and the state before the first round."""
        return tuple(players), {}

    def play(
        self, table: Table, state: Mapping[str, Any], raw: Any, *, partial: bool = False
    ) -> Outcome:
        """Check one round's input against the rules and score it.

        With ``partial`` (a dry run) the parts sent may be incomplete and only they are checked.
        Raises RuleViolation.
        """
        raise NotImplementedError

    def public_state(
        self, table: Table, state: Mapping[str, Any], totals: Mapping[str, int]
    ) -> dict[str, Any]:
        """Return what the table needs to know about the next round (the API's ``state``)."""
        return dict(state)

    def is_over(self, table: Table, state: Mapping[str, Any], totals: Mapping[str, int]) -> bool:
        """Return True when the game has reached its natural end."""
        return False

    def describe_path(self, path: str) -> str:
        """Name an input path in words for the audit trail ("votes.Dee" -> "Dee's vote")."""
        return path.replace("_", " ").replace(".", " › ")
