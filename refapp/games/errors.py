"""The rules' errors and their words: every refusal is a RuleViolation with a stable code.

Three kinds are told apart, as python-chess tells invalid, illegal and ambiguous moves apart:
``MalformedInput`` (a field missing or of the wrong type), ``RuleViolation`` itself (a broken
rule of the game) and ``NotFound`` (no such session, round or player). The codes the API
answers stay the same whatever the kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _untranslated(text: str) -> str:
    return text


def N_(text: str) -> str:
    """Mark a word for translation where it is defined; it is translated where it is shown."""
    return text


#: turns an English message template into the reader's language; the app installs gettext
#: here, so the rules stay free of Flask while every message can still be translated
translate: Callable[[str], str] = _untranslated


def install_translator(function: Callable[[str], str]) -> None:
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


class MalformedInput(RuleViolation):
    """Input that is not even a round: a field missing, of the wrong type or out of shape."""


class NotFound(RuleViolation):
    """A session, round or player that does not exist (the API's 404)."""

    def __init__(self, message: str, field: str | None = None, **params: Any) -> None:
        super().__init__("not_found", message, field, **params)
