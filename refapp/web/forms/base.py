"""The one round-form base: every game's round form reads, refills and refuses through one map.

A game's form declares ``paths``: each of its fields and where the field's value sits in the
round input, e.g. ``{"storyteller": "storyteller", "pos_{n}": "positions.{n}",
"vote_{seat}": "votes.{player}"}``. A ``{placeholder}`` stands for each value a family of
``slots()`` takes at this table (the positions, the seats with their players); a number as the
last part of a path is a place in a list, and the places filled, in order, make the list. The
same map

- reads the submitted fields into the API-shaped round input (``read``),
- writes a stored round's input back into the fields, for the correction page (``data_from``),
- and finds the field a refusal's input path names (``field_for``), helped by ``refusals``
  for paths no field holds (``"contract": "boss"``) and ``groups`` for refusals shown above a
  group of fields.

What a map cannot say (a friend named one of three ways, the merchants' pairs) the game's form
adds by hand in ``compose`` and ``data_from``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import Formatter
from typing import ClassVar

from flask import request
from wtforms import Field, HiddenField
from wtforms.fields.core import UnboundField

from ...games.errors import Refusal
from ...games.inputs import digits_number
from ...services import SessionView
from .common import add_error
from .voice import AppForm, refusal_words

#: an input path: keys (text) and, last, maybe a place in a list (a number, from 1)
Path = tuple[str | int, ...]
#: a round's input as a form sends it: the API's body, unchecked until the rules read it
RoundBody = dict[str, object]
#: the values one family of placeholders takes at a table: ``{"seat": 0, "player": "Ann"}``
Slot = dict[str, str | int]


def as_entered(data: object) -> object:
    """Read a field as entered; blank (empty, unset) is None, so the input leaves it out."""
    return data or None


@dataclass(frozen=True)
class At:
    """Where one field's value sits in the round input, and how it is read and written back.

    ``read`` turns the field's data into the input's value (None: blank, left out); ``show``
    turns a stored value into the field's data (None: leave the field as it starts).
    """

    path: str
    read: Callable[[object], object] = as_entered
    show: Callable[[object], object] = str


def placeholders(pattern: str) -> list[str]:
    """Return the names of a pattern's {placeholders}, in order."""
    return [name for _text, name, _spec, _conv in Formatter().parse(pattern) if name]


def split(pattern: str, values: Mapping[str, object]) -> Path:
    """Fill a path pattern part by part (a player's name may hold a dot, or be a number).

    A part that is a number, or a placeholder whose value is one, is a place in a list.
    """
    path: list[str | int] = []
    for part in pattern.split("."):
        names = placeholders(part)
        value = values[names[0]] if names and part == f"{{{names[0]}}}" else None
        if digits_number(part) is not None or isinstance(value, int):
            path.append(int(part.format(**values)))
        else:
            path.append(part.format(**values))
    return tuple(path)


def dotted(path: Path) -> str:
    """Write a path as a refusal names it: "votes.Ben", "positions.3"."""
    return ".".join(map(str, path))


def put(body: RoundBody, path: Path, value: object) -> None:
    """Write value at path in body; a place in a list appends (the places filled, in order)."""
    *heads, last = path
    listed = isinstance(last, int)
    if listed:
        *heads, last = heads
    node = body
    for key in heads:
        node = branch(node, str(key))
    if not listed:
        node[str(last)] = value
        return
    items = node.setdefault(str(last), [])
    if isinstance(items, list):
        items.append(value)


def branch(node: RoundBody, key: str) -> RoundBody:
    """Return the part of a body under key, made empty if there is none yet."""
    child = node.setdefault(key, {})
    return child if isinstance(child, dict) else {}


def get(stored: object, path: Path) -> object:
    """Return the value at path in a stored input (None if absent); a place in a list counts
    from 1 (a single value is a list of one)."""
    node = stored
    for key in path:
        if isinstance(key, int):
            items = node if isinstance(node, list) else [node]
            return items[key - 1] if 1 <= key <= len(items) else None
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def under(path: Path, parts: tuple[str, ...]) -> bool:
    """Return True when path is one of the given parts (dotted) or lies below one of them."""
    keys = tuple(map(str, path))
    return any(keys[: len(part.split("."))] == tuple(part.split(".")) for part in parts)


def matcher(path: Path) -> re.Pattern[str]:
    """Return a regular expression for a refusal pattern: ``*`` is any one part, and every path
    below the pattern matches too."""
    parts = "\\.".join("[^.]+" if part == "*" else re.escape(str(part)) for part in path)
    return re.compile(rf"{parts}(\..*)?", re.S)


class RoundForm(AppForm):
    """Base of the games' round forms (each game registers its own with its ``GamePages``).

    The page posts ``action=record`` to store the round; any other action (``check``, or a
    game's own step such as a bid) is a dry run whose result the form shows via ``checked``.
    """

    expected_round = HiddenField()
    #: the entry's Idempotency-Key (services/idempotency.py): kept by every resend of it
    idempotency_key = HiddenField()

    #: each field (name pattern) and where its value sits in the round input (path or At)
    paths: ClassVar[Mapping[str, str | At]] = {}
    #: refusals at paths no field holds (a pattern, ``*`` for any part): the field to show them at
    refusals: ClassVar[Mapping[str, str]] = {}
    #: input paths whose refusals stand above their group of fields when no field holds them
    groups: ClassVar[tuple[str, ...]] = ()
    #: the template that lays the form out
    template: ClassVar[str] = ""
    #: the buttons (``action`` values) that store the round; any other is a dry run. The one
    #: list: the page hands it to live.js (the round form's ``data-storing``)
    storing_actions: ClassVar[tuple[str, ...]] = ("record",)

    #: the round object of the last successful check (a dry run), for the template
    checked: Mapping[str, object] | None = None
    #: True when another phone recorded the round this form was entering (the input is kept)
    stale: bool = False

    @classmethod
    def build(
        cls,
        view: SessionView,
        entered: Mapping[str, object] | None = None,
        correcting: int | None = None,
        **kwargs: object,
    ) -> RoundForm:
        """Return the form for this session's next round, or for round ``correcting`` prefilled
        from its stored input ``entered``."""
        raise NotImplementedError

    @classmethod
    def subclass(cls, fields: Mapping[str, Field], **facts: object) -> type[RoundForm]:
        """Return this form with a table's fields and facts (its players, ranks, ...)."""
        return type(f"{cls.__name__}_", (cls,), {**fields, **facts})

    # -- the map, at this table ------------------------------------------------------------

    @classmethod
    def slots(cls) -> dict[str, list[Slot]]:
        """Return the families of values the placeholders take at this table (none here)."""
        return {}

    @classmethod
    def expand(cls, pattern: str) -> list[Slot]:
        """Return the values a pattern's placeholders take: the rows of the family naming them."""
        names = placeholders(pattern)
        if not names:
            return [{}]
        for rows in cls.slots().values():
            if rows and set(names) <= set(rows[0]):
                return rows
        return []

    @classmethod
    def field_paths(cls) -> dict[str, tuple[Path, At]]:
        """Return every field the form has, in the map's order, with its input path."""
        found = {}
        for pattern, at in cls.paths.items():
            at = at if isinstance(at, At) else At(at)
            for values in cls.expand(pattern):
                name = pattern.format(**values)
                if isinstance(getattr(cls, name, None), UnboundField):
                    found[name] = (split(at.path, values), at)
        return found

    # -- reading the submitted fields ------------------------------------------------------

    def read(self, *parts: str, blanks: bool = False) -> RoundBody:
        """Return the filled fields (under the given input paths, else all) as round input.

        With ``blanks``, a blank field is written as null instead of left out.
        """
        body: RoundBody = {}
        for name, (path, at) in self.field_paths().items():
            if parts and not under(path, parts):
                continue
            value = at.read(self[name].data)
            if value is not None or blanks:
                put(body, path, value)
        return body

    def filled(self, *parts: str) -> bool:
        """Return True when any field under the given input paths holds something."""
        fields = self.field_paths().items()
        return any(self[name].data for name, (path, _at) in fields if under(path, parts))

    def compose(self) -> RoundBody:
        """Return the round input the fields make (a game adds what its map cannot say)."""
        return self.read()

    def round_input(self) -> RoundBody:
        """Return the API-shaped round input from the submitted fields."""
        body = self.compose()
        if self.expected() is not None:
            body["expected_round"] = self.expected()
        return body

    def expected(self) -> int | None:
        """Return the round number this device believes it is recording, if it said."""
        return digits_number((self.expected_round.data or "").strip(), 8)

    # -- writing a stored input back -------------------------------------------------------

    @classmethod
    def data_from(cls, stored: Mapping[str, object]) -> dict[str, object]:
        """Return form data that shows a stored round's input (for correcting it)."""
        data: dict[str, object] = {}
        for name, (path, at) in cls.field_paths().items():
            value = get(stored, path)
            shown = None if value is None else at.show(value)
            if shown is not None:
                data[name] = shown
        return data

    # -- a dry run, a refusal ----------------------------------------------------------------

    def is_check(self) -> bool:
        """Return True when the table asked to check a step rather than store the round."""
        return request.form.get("action", "record") not in self.storing_actions

    def show_check(self, checked: Mapping[str, object]) -> None:
        """Keep a successful check's round object for the page to show."""
        self.checked = checked

    def field_for(self, path: str) -> Field | None:
        """Return the field a refusal's input path names, or None for the form as a whole.

        The field whose path it is, else the first of ``refusals`` it matches (or lies below).
        """
        for name, (held, _at) in self.field_paths().items():
            if dotted(held) == path:
                return self[name]
        for pattern, target in self.refusals.items():
            for values in self.expand(pattern):
                if matcher(split(pattern, values)).fullmatch(path):
                    return self._fields.get(target.format(**values))
        return None

    def group_of(self, path: str) -> str | None:
        """Return the group of fields a refusal at path stands above, if it has one."""
        head = path.split(".", 1)[0]
        return head if head in self.groups else None

    @property
    def group_errors(self) -> dict[str, list[str]]:
        """Return the messages about a group of fields as a whole (the positions, the order...)."""
        if not hasattr(self, "_group_errors"):
            self._group_errors: dict[str, list[str]] = {group: [] for group in self.groups}
        return self._group_errors

    def refusals_found(self) -> list[tuple[str, str | None]]:
        """Return every refusal the form shows, with the id of the field it stands by (None
        for the form as a whole or a group): the list announced at the form's top."""
        found: list[tuple[str, str | None]] = [(message, None) for message in self.form_errors]
        found += [
            (message, None) for messages in self.group_errors.values() for message in messages
        ]
        for field in self:
            found += [(str(message), field.id) for message in field.errors]
        return found

    def show_violation(self, error: Refusal) -> None:
        """Put a refusal's message next to its field, above its group, or on the form."""
        path = error.field or ""
        field = self.field_for(path)
        group = self.group_of(path)
        if field is None and group is not None:
            self.group_errors[group].append(error.message)
        else:
            add_error(self, field, refusal_words(field, error))
