"""Print the "Every module" section of docs/ARCHITECTURE.md: each module of refapp with the
first line of its docstring, grouped by package (``python docs/module_map.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "refapp"
INTRO = (
    "Each module of `refapp/` with the first line of its docstring, by package "
    "(`python docs/module_map.py` prints this section; `tests/test_architecture_map.py` "
    "fails when it is not current)."
)


def modules() -> list[Path]:
    """Return every module of refapp, relative to it, packages before their modules."""
    found = [path.relative_to(ROOT) for path in ROOT.rglob("*.py")]
    return sorted(
        found, key=lambda path: (path.parent.parts, path.name != "__init__.py", path.stem)
    )


def first_line(path: Path) -> str:
    """Return the first line of a module's docstring (empty when it has none)."""
    doc = ast.get_docstring(ast.parse((ROOT / path).read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0].strip() if doc.strip() else ""


def section() -> str:
    """Return the section's markdown: one line per module."""
    lines = ["## Every module", "", INTRO, ""]
    package = None
    for path in modules():
        if path.parent != package:
            package = path.parent
            lines += ["", f"**`refapp/{package.as_posix()}/`**".replace("/./", "/"), ""]
        lines.append(f"- `{path.as_posix()}`: {first_line(path)}")
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


if __name__ == "__main__":
    print(section(), end="")
