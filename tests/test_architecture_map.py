"""docs/ARCHITECTURE.md names every module of refapp: its "Every module" section is current."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def module_map():
    """Import docs/module_map.py (a script beside the document, not a package)."""
    spec = importlib.util.spec_from_file_location("module_map", DOCS / "module_map.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def test_the_architecture_names_every_module_with_its_docstring():
    mapping = module_map()
    text = (DOCS / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [path.as_posix() for path in mapping.modules() if f"`{path.as_posix()}`" not in text]
    assert not missing, f"modules docs/ARCHITECTURE.md does not name: {missing}"
    assert mapping.section() in text, "run: python docs/module_map.py (and paste its section)"


def test_every_module_has_a_docstring_to_name_it_by():
    mapping = module_map()
    assert [path for path in mapping.modules() if not mapping.first_line(path)] == []
