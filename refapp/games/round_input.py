"""A game's round input declared once: each path, the words that name it, the kind of its value.

The history of changes names a changed path with these words, the pages write its value by its
kind, and the forms' and the API's round fields are checked against the same list. A path is
written with placeholders - ``"votes.{player}.{n}"`` - for a player's name, a number from 1 (``n``,
``m``), or what the game adds in its ``input_places``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

#: what the shared placeholders match: a player's name (any text), a number from 1
PLACES = {"player": ".+", "n": "[0-9]+", "m": "[0-9]+"}


@dataclass(frozen=True)
class InputPath:
    """One path of a round input, the words naming it (``%(player)s`` style) and its value's kind.

    kind is how a page writes the value: ``plain``, ``name``, ``names``, or a kind the game's
    pages word (a trump, a card, a holder ...).
    """

    spec: str
    words: str
    kind: str = "plain"

    def pattern(self, places: Mapping[str, str]) -> re.Pattern[str]:
        """Return the regular expression a concrete path of this spec matches."""
        return compiled(self.spec, tuple(sorted(places.items())))


@lru_cache(maxsize=512)
def compiled(spec: str, places: tuple[tuple[str, str], ...]) -> re.Pattern[str]:
    """Compile a path spec once per set of placeholders (the history reads it per change)."""
    known = dict(places)
    parts = []
    for segment in spec.split("."):
        name = segment[1:-1] if segment.startswith("{") and segment.endswith("}") else None
        parts.append(f"(?P<{name}>{known[name]})" if name else re.escape(segment))
    return re.compile(r"\.".join(parts))


def find_path(
    declared: tuple[InputPath, ...], places: Mapping[str, str], where: str
) -> tuple[InputPath, dict[str, str]] | None:
    """Return the first declared path that ``where`` matches, with its placeholders' text."""
    for entry in declared:
        found = entry.pattern({**PLACES, **places}).fullmatch(where)
        if found:
            return entry, found.groupdict()
    return None
