"""The shape of the code: pure rules, shared code that names no game, small modules.

A game's rules (``refapp/games/<game>/`` outside its ``web/``) import neither Flask nor the
database; shared code (everything outside a game's package) names no game, so a game is added
or removed in its own folder; every module stays under 400 lines; no function reaches radon's
cyclomatic complexity 15 (radon counts ``and``/``or`` and conditional expressions, which ruff's
C901 does not).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from radon.complexity import cc_visit

from refapp.games import GAMES

REFAPP = Path(__file__).parent.parent / "refapp"
GAME_DIRS = {REFAPP / "games" / slug for slug in GAMES}
#: what a game's rules may never import: the web, the database, the app's other layers
IMPURE = (
    "flask",
    "flask_babel",
    "flask_wtf",
    "flask_sqlalchemy",
    "flask_migrate",
    "wtforms",
    "werkzeug",
    "jinja2",
    "markupsafe",
    "sqlalchemy",
    "refapp.web",
    "refapp.api",
    "refapp.services",
    "refapp.models",
    "refapp.extensions",
    "refapp.access",
    "refapp.i18n",
)


def modules() -> list[Path]:
    """Every Python module of the app."""
    return sorted(REFAPP.rglob("*.py"))


def module_name(path: Path) -> str:
    """Return a module's dotted name (a package's __init__ is the package)."""
    parts = path.relative_to(REFAPP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Return the absolute names a module imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.add(name)
            found |= {f"{name}.{alias.name}" for alias in node.names}
    return found


def is_rules(path: Path) -> bool:
    """Return True for a module of the games' pure rules (not a game's web part)."""
    inside = (
        path.relative_to(REFAPP / "games").parts if path.is_relative_to(REFAPP / "games") else ()
    )
    return bool(inside) and "web" not in inside[:-1]


def test_the_rules_import_no_flask_and_no_database():
    rules = [path for path in modules() if is_rules(path)]
    assert len(rules) > 40
    for path in rules:
        bad = {name for name in imported(path) for impure in IMPURE
               if name == impure or name.startswith(impure + ".")}  # fmt: skip
        assert not bad, f"{path.relative_to(REFAPP)} imports {sorted(bad)}"


#: the layers that never reach the serving machinery: it is operations, built around the app
BELOW_SERVING = ("games", "services", "web")


def test_the_domain_never_imports_the_serving_package():
    layers = [path for path in modules() if path.relative_to(REFAPP).parts[0] in BELOW_SERVING]
    assert REFAPP / "services" / "answers.py" in layers
    for path in layers:
        bad = {name for name in imported(path)
               if name == "refapp.serving" or name.startswith("refapp.serving.")}  # fmt: skip
        assert not bad, f"{path.relative_to(REFAPP)} imports {sorted(bad)}"


def names_a_game(text: str) -> bool:
    """Return True when a string names a registered game: its slug, a path or endpoint of it."""
    for slug in GAMES:
        if text == slug or text.startswith((f"{slug}/", f"{slug}.", f"/api/{slug}")):
            return True
        if f"/{slug}/" in text or f"games/{slug}" in text:
            return True
    return False


def shared_modules() -> list[Path]:
    """Every module outside the games' own packages."""
    return [path for path in modules() if not any(path.is_relative_to(d) for d in GAME_DIRS)]


def test_shared_code_names_no_game():
    shared = shared_modules()
    assert REFAPP / "web" / "sessions.py" in shared
    for path in shared:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and names_a_game(node.value)
        ]  # fmt: skip
        assert not named, f"{path.relative_to(REFAPP)} names {named}"


@pytest.mark.parametrize("folder", ["templates", "static"])
def test_shared_templates_and_scripts_name_no_game_file_or_page(folder):
    for path in sorted((REFAPP / folder).rglob("*")):
        if path.suffix not in (".html", ".js", ".css"):
            continue
        text = path.read_text(encoding="utf-8")
        for slug in GAMES:
            named = re.search(rf"\b{slug}\b", text, re.IGNORECASE)
            assert named is None, f"{path.relative_to(REFAPP)} names {named.group()}"


def test_every_module_stays_under_400_lines():
    long = {
        str(path.relative_to(REFAPP)): lines
        for path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) >= 400
    }
    assert long == {}


#: the radon complexity no function may reach (14 is the most a function keeps)
TOO_COMPLEX = 15


def too_complex(source: str) -> list[str]:
    """Return the blocks of a module's source whose radon complexity reaches TOO_COMPLEX."""
    return [
        f"{block.fullname} ({block.complexity})"
        for block in cc_visit(source)
        if block.complexity >= TOO_COMPLEX
    ]


def test_no_function_reaches_complexity_15():
    found = {
        str(path.relative_to(REFAPP)): blocks
        for path in modules()
        if "migrations" not in path.parts
        and (blocks := too_complex(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_complexity_check_sees_a_tangled_function():
    branches = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(14))
    assert too_complex(f"def tangled(x):\n{branches}    return -1\n") == ["tangled (15)"]
    assert too_complex(f"def fine(x):\n{branches[: branches.rindex('    if')]}") == []


def test_the_checks_see_real_violations():
    """The purity and naming checks are not vacuous: they flag what they must."""
    assert names_a_game("mighty") and names_a_game("mighty/form.html")
    assert names_a_game("/api/mighty/trick") and not names_a_game("the mighty card")
    assert "refapp.games.registry.get_game" in imported(REFAPP / "games" / "stats.py")
    assert "flask_babel.gettext" in imported(REFAPP / "games" / "mighty" / "web" / "words.py")
    assert not is_rules(REFAPP / "games" / "mighty" / "web" / "forms.py")
    assert is_rules(REFAPP / "games" / "mighty" / "scoring.py")
