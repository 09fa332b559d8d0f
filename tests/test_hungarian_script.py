"""Hungarian pages are written in the Latin script: no Hangul (or other script) in a hu msgstr.

A Korean club word may gloss an English msgid ("Run (런)"), but a Hungarian player cannot read
it, and a suffix glued to Hangul ("a 6마-t") is no Hungarian word (docs/words.md: the game words).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

HU_CATALOG = Path(__file__).parent.parent / "refapp/translations/hu/LC_MESSAGES/messages.po"


def foreign_letters(text: str) -> str:
    """Return the letters of text that are not Latin (Hangul, Hanja, Cyrillic ...), in order."""
    return "".join(
        char
        for char in text
        if unicodedata.category(char).startswith("L")
        and not unicodedata.name(char, "").startswith("LATIN")
    )


def translations(path: Path) -> list[tuple[str, str]]:
    """Return (msgid, msgstr) for every translated form in the catalog, plural forms included."""
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale="hu")
    found = []
    for message in catalog:
        if not message.id:
            continue  # the header
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend((msgid, form) for form in forms if form)
    return found


@pytest.mark.parametrize(
    "text, foreign",
    [
        ("Hatan játsszák a 6마-t", "마"),
        ("barát nélküli játék bejelentése (노 프렌드)", "노프렌드"),
        ("Nagy bukás (백런) büntetése: -10 × {bid}", "백런"),
        ("Kiütve (6 vagy 7 játékosnál)", ""),
        ("A ♥K-t senki sem játszotta ki; 2,5 × ő, ű, Ödön", ""),
    ],
)
def test_the_check_finds_hangul_and_passes_hungarian(text, foreign):
    assert foreign_letters(text) == foreign


def test_no_hungarian_translation_holds_a_non_latin_letter():
    offending = [
        (msgid, msgstr) for msgid, msgstr in translations(HU_CATALOG) if foreign_letters(msgstr)
    ]
    assert offending == [], offending[:5]
