"""The rules' errors and their words: every refusal is a ``Refusal`` with a stable code.

Its kinds are siblings, as python-chess tells invalid, illegal and ambiguous moves apart:
``MalformedInput`` (a field missing or of the wrong type), ``RuleViolation`` (a broken rule),
``NotFound`` (no such session, round or player), ``Conflict`` (another write came first, or the
session's state forbids it) and ``AccessDenied`` (a table password). Each code has one kind and
one status in ``codes.CODES``; catch ``Refusal`` to catch them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from .codes import Kind


def _untranslated(text: str) -> str:
    return text


#: gettext's separator between a word's context and the word in a catalog key
CONTEXT_SEPARATOR = "\x04"


def N_(text: str) -> str:
    """Mark a word for translation where it is defined; it is translated where it is shown."""
    return text


#: turns an English message template into the reader's language; the app installs gettext
#: here, so the rules stay free of Flask while every message can still be translated
translate: Callable[[str], str] = _untranslated
#: fits a filled-in message's particles to its words (Korean 이/가, Hungarian a/az)
finish: Callable[[str], str] = _untranslated
#: writes a number with a fraction in the reader's way (1.5; Hungarian 1,5)
decimal: Callable[[float], str] = str


def _and(items: Sequence[str]) -> str:
    """Join names in English: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


#: joins the names a message lists in the reader's language ("Ann and Bob"; Korean 철과 Anna)
join: Callable[[Sequence[str]], str] = _and


def install_translator(
    function: Callable[[str], str],
    fitter: Callable[[str], str] = _untranslated,
    numbers: Callable[[float], str] = str,
    joiner: Callable[[Sequence[str]], str] = _and,
) -> None:
    """Use function (e.g. Flask-Babel's gettext) to translate templates, fitter to finish them,
    numbers to write a fraction and joiner to list names."""
    global translate, finish, decimal, join
    translate = function
    finish = fitter
    decimal = numbers
    join = joiner


class Word(str):
    """A fixed word inside a value (a card's name, marked for translation), translated where
    the message is shown; ``typed`` is how an entry writes it ("J")."""

    typed: str

    def __new__(cls, word: str, typed: str | None = None) -> Word:
        """Keep the word and how it is typed (the word itself unless told)."""
        made = super().__new__(cls, word)
        made.typed = word if typed is None else typed
        return made


class Series(str):
    """Items written for a sentence: comma-separated ("2, 4, J"), or listed as the reader's
    language lists names ("Ann and Bob") when ``listed``. A message shows its ``Word`` items in
    the reader's words; the plain string keeps every item as typed, comma-separated."""

    items: tuple[object, ...]
    listed: bool

    def __new__(cls, items: Iterable[object], listed: bool = False) -> Series:
        """Keep the items; the string itself is each item as typed, joined by commas."""
        kept = tuple(items)
        made = super().__new__(cls, ", ".join(getattr(item, "typed", str(item)) for item in kept))
        made.items = kept
        made.listed = listed
        return made

    def said(self) -> str:
        """Return the items in the reader's words, listed or comma-separated."""
        words = [translate(item) if isinstance(item, Word) else str(item) for item in self.items]
        return join(words) if self.listed else ", ".join(words)


def fill(template: str, params: Mapping[str, object]) -> str:
    """Translate a message template and fill in its values (words marked ``_t`` translated, a
    number with a fraction written the reader's way)."""
    values = {key: _shown(key, value) for key, value in params.items()}
    return finish(translate(template).format(**values) if params else translate(template))


def _shown(key: str, value: object) -> object:
    """Return one value of a message as the reader's language writes it."""
    if isinstance(value, Series):
        return value.said()
    if isinstance(value, Word) or (key.endswith("_t") and isinstance(value, str)):
        # a word in a context is stored as gettext's key ("context\x04word"): never show the context
        return translate(value).rpartition(CONTEXT_SEPARATOR)[2]
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        # a plain list; a list type of its own formats itself
        if value and all(isinstance(item, str) for item in value):
            return join([str(_shown("", item)) for item in value])  # names: "Ann and Bob"
        return json.dumps(value, ensure_ascii=False, default=str)  # an entry's JSON as sent: [2]
    if isinstance(value, float) and not value.is_integer():
        return decimal(value)
    return value


class Refusal(ValueError):
    """A refused request: a stable ``code``, a message quoting the value, a field path.

    ``message`` is a template filled from ``params`` so that a translation can reuse the same
    values; ``field`` is the input path (``"votes.Ben"``) or None. ``kind`` is the kind of every
    code this type is raised with (``codes.CODES``).
    """

    kind: ClassVar[Kind]

    def __init__(self, code: str, message: str, field: str | None = None, **params: object) -> None:
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


def quote(value: object) -> str:
    """Quote a player's input for an error message the way JSON would show it; a list of texts
    listed as the reader's language lists names (Ann and Bob), never in Python's brackets."""
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        if value and all(isinstance(item, str) for item in value):
            return Series((_bare(item) for item in value), listed=True)  # Ann and Bob
        return json.dumps(value, ensure_ascii=False, default=str)  # numbers and the rest: [2, 1]
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _bare(item: str) -> str:
    """Return one text of a listed input as written, quoted only where its edges would be lost
    (empty, or blank at either end)."""
    return item if item and item == item.strip() else repr(item)


class MalformedInput(Refusal):
    """Input that is not even a round: a field missing, of the wrong type or out of shape."""

    kind = Kind.MALFORMED


class RuleViolation(Refusal):
    """A broken rule: of the game, or of the referee's own limits (rounds, sizes, names)."""

    kind = Kind.RULE


class Conflict(Refusal):
    """A write that lost a race or meets a state that forbids it (the API's 409)."""

    kind = Kind.CONFLICT


class AccessDenied(Refusal):
    """A table password missing or wrong, or too many wrong ones (the API's 401 and 429)."""

    kind = Kind.ACCESS


class NotFound(Refusal):
    """A session, round or player that does not exist (the API's 404)."""

    kind = Kind.NOT_FOUND

    def __init__(self, message: str, field: str | None = None, **params: object) -> None:
        super().__init__("not_found", message, field, **params)
