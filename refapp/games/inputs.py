"""Readers of a round's plain input: required fields, whole numbers, objects and lists.

Each returns the value or raises ``MalformedInput`` naming the input path, so a game's checks
read as a list of what the table entered.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from .errors import MalformedInput, quote


def missing(path: str) -> MalformedInput:
    """Return the refusal of a required field left out or sent as null (``missing_field``)."""
    return MalformedInput("missing_field", "The field {path} is required.", path, path=path)


def require(raw: Mapping[str, object], key: str, where: str | None = None) -> object:
    """Return raw[key] or raise ``missing_field`` naming the path."""
    if key not in raw or raw[key] is None:
        raise missing(where or key)
    return raw[key]


def whole_number(value: object, where: str) -> int:
    """Return value as an int (a JSON number; 3.0 counts as 3) or raise ``invalid_value``.

    The API does not guess: a number sent as text ("15") is refused; the pages' forms convert
    what a person types before it reaches the rules.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise MalformedInput(
        "invalid_value",
        "{where} must be a whole number, not {value}.",
        where,
        where=where,
        value=quote(value),
    )


def digits_number(text: object, most_digits: int = 9) -> int | None:
    """Return text as a whole number when it is 1..most_digits ASCII digits, else None.

    The one reading of typed digits: ``str.isdigit`` also takes superscripts and other
    scripts' digits ('¹', '²', '٣'), which ``int`` refuses or a person never meant.
    """
    if not isinstance(text, str) or not 1 <= len(text) <= most_digits:
        return None
    return int(text) if text.isascii() and text.isdigit() else None


def mapping(value: object, where: str) -> Mapping[str, Any]:
    """Return value if it is a JSON object, else raise ``invalid_value``."""
    if not isinstance(value, (dict, Mapping)):
        raise MalformedInput(
            "invalid_value",
            "{where} must be an object, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    return value


def sequence(value: object, where: str) -> list[Any]:
    """Return value if it is a JSON list, else raise ``invalid_value``."""
    if not isinstance(value, list):
        raise MalformedInput(
            "invalid_value",
            "{where} must be a list, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    return value


def name_given(value: object, where: str) -> str:
    """Return value as a name, trimmed and NFC, or raise ``invalid_value`` (text, not empty)."""
    name = unicodedata.normalize("NFC", value.strip()) if isinstance(value, str) else ""
    if not name:
        raise MalformedInput(
            "invalid_value",
            "{where} must be a player's name, not {value}.",
            where,
            where=where,
            value=quote(value),
        )
    return name
