"""Plain values every writer checks the same way (session ids, names) and the limits on them."""

from __future__ import annotations

import unicodedata
from typing import Any

from ..games.errors import NotFound, RuleViolation, quote

NAME_MAX = 40
#: ids are INTEGER columns: 32 bits on PostgreSQL, so a larger id cannot exist (nor be queried)
ID_MAX = 2**31 - 1
SESSION_NAME_MAX = 100
#: the most rounds a session holds (``too_many_rounds``); the import size limit fits it. Read
#: as ``values.MAX_ROUNDS`` where it is checked, so a test may lower it in one place.
MAX_ROUNDS = 10_000
#: Unicode categories a name must not hold: controls, surrogates, format characters (bidi
#: overrides, zero-width spaces: they reorder or hide text), line and paragraph separators
HIDDEN_CATEGORIES = frozenset(("Cc", "Cs", "Cf", "Zl", "Zp"))


def stored_id(session_id: Any) -> int:
    """Return session_id if a stored session could have it, else raise ``not_found``."""
    if isinstance(session_id, bool) or not isinstance(session_id, int) or session_id > ID_MAX:
        raise not_found(session_id)  # beyond the id column's range: cannot exist
    return session_id


def not_found(session_id: Any) -> NotFound:
    """Return the error for a session that does not exist."""
    return NotFound("There is no session {value}.", None, value=quote(session_id))


def player_name(value: Any, where: str) -> str:
    """Return one player's name trimmed and NFC (1..40 printable characters), or raise at where."""
    if not isinstance(value, str):
        raise RuleViolation(
            "missing_field" if value is None else "invalid_value",
            "A player's name must be text, not {value}.",
            where,
            value=quote(value),
        )
    name = unicodedata.normalize("NFC", value.strip())
    if not 1 <= len(name) <= NAME_MAX or has_control(name):
        raise RuleViolation(
            "invalid_value",
            "A player's name has 1 to {most} printable characters after trimming; "
            "{value} does not.",
            where,
            most=NAME_MAX,
            value=quote(value),
        )
    return name


def player_names(raw: Any) -> list[str]:
    """Return the seat list as trimmed names, or raise naming the bad entry."""
    if not isinstance(raw, list):
        raise RuleViolation(
            "missing_field" if raw is None else "invalid_value",
            "players must be a list of names in seat order, not {value}.",
            "players",
            value=quote(raw),
        )
    names: list[str] = []
    for index, value in enumerate(raw):
        where = f"players.{index}"
        name = player_name(value, where)
        if name in names:
            raise RuleViolation(
                "duplicate_player",
                "{value} is seated twice; names must differ.",
                where,
                value=quote(name),
            )
        names.append(name)
    return names


def has_control(text: str) -> bool:
    """Return True if text holds a character a name must not: a control or an invisible one.

    Controls are NUL, newlines and the like; the invisible ones hide or reorder text (U+202E,
    U+200B ...).
    """
    return any(unicodedata.category(char) in HIDDEN_CATEGORIES for char in text)


def session_name(raw: Any) -> str:
    """Return a session's optional display name, trimmed."""
    if raw is None:
        return ""
    if not isinstance(raw, str) or has_control(raw) or len(raw.strip()) > SESSION_NAME_MAX:
        raise RuleViolation(
            "invalid_value",
            "A session name is text of at most {most} printable characters, not {value}.",
            "name",
            most=SESSION_NAME_MAX,
            value=quote(raw),
        )
    return raw.strip()
