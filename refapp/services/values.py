"""Plain values every writer checks the same way (session ids, names) and the limits on them."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TypeVar, overload

from ..games.errors import MalformedInput, NotFound, quote

NAME_MAX = 40
#: a round body's own key for where the phone meant the round to go, not part of the round
EXPECTED_ROUND = "expected_round"
#: ids are INTEGER columns: 32 bits on PostgreSQL, so a larger id cannot exist (nor be queried)
ID_MAX = 2**31 - 1
SESSION_NAME_MAX = 100
#: the most rounds a session holds (``too_many_rounds``); the import size limit fits it. Read
#: as ``values.MAX_ROUNDS`` where it is checked, so a test may lower it in one place.
MAX_ROUNDS = 10_000
#: Unicode categories a name must not hold: controls, surrogates, format characters (bidi
#: overrides, zero-width spaces: they reorder or hide text), line and paragraph separators
HIDDEN_CATEGORIES = frozenset(("Cc", "Cs", "Cf", "Zl", "Zp"))
#: Unicode's Default_Ignorable_Code_Point property: characters a font draws as nothing (Hangul
#: fillers, joiners, variation selectors, tags). Python's unicodedata does not expose it: these
#: ranges are from DerivedCoreProperties.txt of Unicode 14.0, the version of Python 3.11's
#: unicodedata.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero width space, joiners, direction marks
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1 to 16
    (0xFEFF, 0xFEFF),  # zero width no-break space
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical beam and phrase controls
    (0xE0000, 0xE0FFF),  # tags and variation selectors 17 to 256
)
#: characters that are not default-ignorable but still show as a blank: the braille blank, the
#: musical null notehead, the Khitan filler (a name of them alone looks empty)
BLANK = frozenset("\u2800\U0001d159\U00016fe4")
#: text and emoji presentation selectors: allowed right after a symbol ("\u2764\ufe0f" is the
#: red heart a phone types), refused anywhere else
PRESENTATION = frozenset("\ufe0e\ufe0f")


def stored_id(session_id: object) -> int:
    """Return session_id if a stored session could have it, else raise ``not_found``."""
    if isinstance(session_id, bool) or not isinstance(session_id, int) or session_id > ID_MAX:
        raise not_found(session_id)  # beyond the id column's range: cannot exist
    return session_id


def not_found(session_id: object) -> NotFound:
    """Return the error for a session that does not exist."""
    return NotFound("There is no session {value}.", None, value=quote(session_id))


def player_name(value: object, where: str) -> str:
    """Return one player's name trimmed and NFC (1..40 printable characters), or raise at where.

    A name must show what it holds: a character drawn as nothing (a Hangul filler, a braille
    blank, a joiner) is refused, and so is a name with no letter, digit or sign.
    """
    if not isinstance(value, str):
        raise MalformedInput(
            "missing_field" if value is None else "invalid_value",
            "A player's name must be text, not {value}.",
            where,
            value=quote(value),
        )
    name = unicodedata.normalize("NFC", value.strip())
    if not 1 <= len(name) <= NAME_MAX or has_control(name):
        raise MalformedInput(
            "invalid_value",
            "A player's name has 1 to {most} printable characters after trimming; "
            "{value} does not.",
            where,
            most=NAME_MAX,
            value=quote(value),
        )
    hidden = invisible_character(name)
    if hidden is not None:
        raise MalformedInput(
            "invalid_value",
            "A player's name may not hold {char}, which shows as nothing; {value} does.",
            where,
            char=character_name(hidden),
            value=quote(value),
        )
    if not any(shows(char) for char in name):
        raise MalformedInput(
            "invalid_value",
            "A player's name needs a letter, digit or sign that shows; {value} has none.",
            where,
            value=quote(value),
        )
    return name


def shown_name(raw: object, most: int) -> str | None:
    """Return a name (a season's, saved house rules') trimmed and NFC when it is text of 1 to
    ``most`` characters that all show, else None: its caller refuses it in its own words."""
    name = unicodedata.normalize("NFC", raw.strip()) if isinstance(raw, str) else None
    if name is None or not 1 <= len(name) <= most or has_control(name):
        return None
    return name if invisible_character(name) is None else None


def player_names(raw: object, *, at_one_table: bool = True) -> list[str]:
    """Return the seat list as trimmed names, or raise naming the bad entry.

    Names at one table must differ even after NFKC ("Ann" and fullwidth "Ａｎｎ" are one name
    there); a roster of players from many tables (a backup's) only refuses the same name twice.
    """
    if not isinstance(raw, list):
        raise MalformedInput(
            "missing_field" if raw is None else "invalid_value",
            "players must be a list of names in seat order, not {value}.",
            "players",
            value=quote(raw),
        )
    names: list[str] = []
    for index, value in enumerate(raw):
        where = f"players.{index}"
        name = player_name(value, where)
        refuse_same_name(name, names if at_one_table else [], where)
        if name in names:
            raise MalformedInput(
                "duplicate_player",
                "{value} is seated twice; names must differ.",
                where,
                value=quote(name),
            )
        names.append(name)
    return names


def refuse_same_name(name: str, seated: Iterable[str], where: str) -> None:
    """Refuse a name that reads as one already seated (``duplicate_player``, quoting both)."""
    key = name_key(name)
    for other in seated:
        if other != name and name_key(other) == key:
            raise MalformedInput(
                "duplicate_player",
                "{value} reads as {other}, who is already seated; names must differ.",
                where,
                value=quote(name),
                other=quote(other),
            )


def name_key(name: str) -> str:
    """Return what a name reads as: NFKC, characters drawn as nothing removed, spaces collapsed.

    Case still counts: "Ann" and "ann" look different on the scoreboard.
    """
    shown = "".join(char for char in name if not ignorable(char))
    return " ".join(unicodedata.normalize("NFKC", shown).split())


def ignorable(char: str) -> bool:
    """Return True if char is default-ignorable in Unicode: a font draws it as nothing."""
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def shows(char: str) -> bool:
    """Return True if char is a letter, digit, punctuation or symbol that a font draws."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK and not ignorable(char)


def invisible_character(name: str) -> str | None:
    """Return the first character of name that shows as nothing, or None.

    A presentation selector (VS15, VS16) right after a symbol is part of an emoji and allowed.
    """
    for index, char in enumerate(name):
        after_symbol = index > 0 and unicodedata.category(name[index - 1])[0] == "S"
        if char in PRESENTATION and after_symbol:
            continue
        if char in BLANK or ignorable(char):
            return char
    return None


def character_name(char: str) -> str:
    """Return a character as U+XXXX and its Unicode name, for a message."""
    return f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()


def has_control(text: str) -> bool:
    """Return True if text holds a character a name must not: a control or an invisible one.

    Controls are NUL, newlines and the like; the invisible ones hide or reorder text (U+202E,
    U+200B ...).
    """
    return any(unicodedata.category(char) in HIDDEN_CATEGORIES for char in text)


def session_name(raw: object) -> str:
    """Return a session's optional display name, trimmed."""
    if raw is None:
        return ""
    if not isinstance(raw, str) or has_control(raw) or len(raw.strip()) > SESSION_NAME_MAX:
        raise MalformedInput(
            "invalid_value",
            "A session name is text of at most {most} printable characters, not {value}.",
            "name",
            most=SESSION_NAME_MAX,
            value=quote(raw),
        )
    return raw.strip()


#: the values of a round body's keys, kept as they are
V = TypeVar("V")


@overload
def without_expected(body: dict[str, V]) -> dict[str, V]: ...
@overload
def without_expected(body: object) -> object: ...
def without_expected(body: object) -> object:
    """Return a round body without ``expected_round`` (anything else as it is)."""
    if not isinstance(body, dict):
        return body
    return {key: value for key, value in body.items() if key != EXPECTED_ROUND}
