"""Each game's round input is declared once, and the forms and the worked cases keep to it.

Every path a round form writes (its field map, at a real table) and every path of every worked
round in tests/golden/ is a path the game declares (``Game.round_input``), so the history, the
docs' tables and the forms cannot drift apart.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from refapp import services
from refapp.games import GAMES
from refapp.web.forms.base import dotted
from refapp.web.game_pages import pages_of
from refapp.web.path_words import words_of

GOLDEN = Path(__file__).parent / "golden"
SEATS = {"dalmuti": 5, "mighty": 5, "dixit": 5}


def leaves(value: Any, path: str = "") -> Iterator[str]:
    """Yield the path of every value in an input (a list's items count from 1)."""
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield from leaves(inner, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        for number, inner in enumerate(value, 1):
            yield from leaves(inner, f"{path}.{number}")
    elif path:
        yield path


def declared(slug: str, path: str) -> bool:
    """Return True when the path, or a path above it, is declared by the game."""
    parts = path.split(".")
    return any(words_of(GAMES[slug], ".".join(parts[:end])) for end in range(len(parts), 0, -1))


def golden_inputs() -> list[Any]:
    """Every worked round's input, with its game."""
    found = []
    for path in sorted(GOLDEN.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            for played in case.get("rounds", []):
                if isinstance(played.get("input"), dict):
                    found.append(pytest.param(case["game"], played["input"], id=case["id"]))
    return found


@pytest.mark.parametrize(("slug", "entered"), golden_inputs())
def test_every_worked_round_keeps_to_the_declared_input(slug, entered):
    undeclared = [path for path in leaves(entered) if not declared(slug, path)]
    assert undeclared == []


def test_the_worked_rounds_cover_every_game():
    assert {param.values[0] for param in golden_inputs()} == {"dalmuti", "mighty", "dixit"}


@pytest.mark.parametrize("slug", ["dalmuti", "mighty", "dixit"])
def test_every_field_of_the_round_form_writes_a_declared_path(app, api, slug):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"][: SEATS[slug]]
    sid = api.create(players, game=slug)["id"]
    with app.test_request_context():
        view = services.describe(services.load_session(sid, with_rounds=False), 0)
        form_class = type(pages_of(slug).round_form.build(view))
        paths = [dotted(path) for path, _at in form_class.field_paths().values()]
    assert len(paths) >= 2
    assert [path for path in paths if not declared(slug, path)] == []


def test_an_undeclared_path_is_caught():
    assert not declared("dixit", "storytellers")
    assert declared("dixit", "votes.Ann.2") and declared("mighty", "contract.trump")
