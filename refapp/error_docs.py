"""Find every error code the app raises or answers, and write the tables docs/ shows of them.

``python -m refapp.error_docs`` rewrites the generated parts of docs/errors.md and
docs/rules/<game>.md (between ``<!-- generated: NAME -->`` and ``<!-- end generated -->``) from
``games.codes.CODES``, each game's house-rule options and the codes its package raises;
tests/test_error_codes.py fails when a file is not current.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .games import GAMES
from .games.codes import CODES, Kind
from .games.options import RuleOption

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "refapp"
#: the error types raised with a code as first argument (NotFound's code is always not_found)
REFUSALS = ("Refusal", "MalformedInput", "RuleViolation", "NotFound", "Conflict", "AccessDenied")
#: functions that pass on a code they were given: the codes reach them from the sites found
FORWARDERS = {
    ("refapp/bodies.py", "violation_response"),
    ("refapp/__init__.py", "http_error"),
    ("refapp/serving/front.py", "refusal"),
}
#: the refusal types whose code is always ``busy`` (services/writes.py and its kinds)
BUSY = ("Busy", "Crowded")
#: the tables read with ``.get(status, "<fallback code>")`` (the HTTP errors' codes)
TABLES = ("codes", "HTTP_CODES")
GENERATED = re.compile(r"(<!-- generated: (\w+) -->\n).*?(<!-- end generated -->)", re.S)
KIND_ORDER = list(Kind)
#: what a code looks like (a mapping of statuses to reason phrases is not one of codes)
CODE_SHAPE = re.compile(r"[a-z]+(_[a-z]+)*")


@dataclass(frozen=True)
class Site:
    """One place a code is raised or answered: how (a type's name, a call, a mapping), where."""

    code: str
    how: str
    path: str
    line: int
    status: int | None = None


def constants(node: ast.expr | None) -> list[str] | None:
    """Return the codes a code argument can be (a literal or a choice of two), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = constants(node.body), constants(node.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def call_name(node: ast.Call) -> str | None:
    """Return the called name (``f`` or ``x.f``)."""
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def call_sites(node: ast.Call, where: str) -> Iterator[Site]:
    """Yield the codes one call raises or answers; a code not literal is ``<dynamic>``."""
    name = call_name(node)
    if name == "NotFound":
        yield Site("not_found", name, where, node.lineno)
        return
    argument, status = None, None  # a status written beside a code (none should be)
    if name in REFUSALS or name in ("error_response", "refusal"):  # refusal: the server front's
        argument = node.args[0] if node.args else None
    elif name in BUSY:  # a write (or a large answer) that could not get its turn
        yield Site("busy", name, where, node.lineno)
        return
    elif name == "get" and getattr(getattr(node.func, "value", None), "id", None) in TABLES:
        argument = node.args[1] if len(node.args) == 2 else None  # the HTTP errors' fallback
    else:
        return
    for code in constants(argument) or ["<dynamic>"]:
        yield Site(code, name or "", where, node.lineno, status)


def mapping_sites(node: ast.Dict, where: str) -> Iterator[Site]:
    """Yield the codes of a mapping from HTTP statuses to codes (``{404: "not_found"}``)."""
    pairs = [
        (key.value, value.value, value.lineno)
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant)
        and isinstance(key.value, int)
        and 100 <= key.value < 600
        and isinstance(value, ast.Constant)
        and isinstance(value.value, str)
        and CODE_SHAPE.fullmatch(value.value) is not None
    ]
    if pairs and len(pairs) == len(node.keys):
        for status, code, line in pairs:
            yield Site(code, "mapping", where, line, status)


def compared_sites(node: ast.Compare, where: str) -> Iterator[Site]:
    """Yield the codes an ``error.code == "..."`` (or ``in (...)``) test tells apart."""
    if not (isinstance(node.left, ast.Attribute) and node.left.attr == "code"):
        return
    for right in node.comparators:
        items = right.elts if isinstance(right, ast.Tuple | ast.List | ast.Set) else [right]
        for item in items:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                yield Site(item.value, "compared", where, item.lineno)


def file_sites(path: Path) -> Iterator[Site]:
    """Yield every code site of one module (a forwarder's own argument is not a site)."""
    where = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    forwarded = {
        id(inner)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef) and (where, function.name) in FORWARDERS
        for inner in ast.walk(function)
        if isinstance(inner, ast.Call) and call_name(inner) in ("error_response", "Refusal")
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in forwarded:
            yield from call_sites(node, where)
        elif isinstance(node, ast.Dict):
            yield from mapping_sites(node, where)
        elif isinstance(node, ast.Compare):
            yield from compared_sites(node, where)
        elif isinstance(node, ast.Assign):
            yield from listed_sites(node, where)


def listed_sites(node: ast.Assign, where: str) -> Iterator[Site]:
    """Yield the codes of a named tuple of codes (``HTTP_ERROR_CODES = ("not_found", ...)``)."""
    named = [target.id for target in node.targets if isinstance(target, ast.Name)]
    if not named or not named[0].endswith("_CODES") or not isinstance(node.value, ast.Tuple):
        return
    items = node.value.elts
    if items and all(
        isinstance(item, ast.Constant)
        and isinstance(item.value, str)
        and CODE_SHAPE.fullmatch(item.value) is not None
        for item in items
    ):
        for item in items:
            assert isinstance(item, ast.Constant)
            yield Site(str(item.value), "listed", where, item.lineno)


def all_sites(root: Path = APP) -> list[Site]:
    """Return every code site under refapp/."""
    return [site for path in sorted(root.rglob("*.py")) for site in file_sites(path)]


def errors_table() -> str:
    """Return docs/errors.md's table: every code with its status, kind and meaning."""
    rows = ["| code | status | kind | meaning |", "| --- | --- | --- | --- |"]
    ordered = sorted(CODES.items(), key=lambda item: (KIND_ORDER.index(item[1].kind), item[0]))
    for code, entry in ordered:
        rows.append(f"| `{code}` | {entry.status} | {entry.kind} | {entry.meaning} |")
    return "\n".join(rows) + "\n"


def shown(value: Any) -> str:
    """Return an option's value as JSON shows it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(shown(item) for item in value) + "]"
    return f'"{value}"' if isinstance(value, str) else str(value)


def bounds(option: RuleOption) -> str:
    """Return an option's range of numbers in words ("" when unbounded)."""
    low, high = option.minimum, option.maximum
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" from {low}"
    return f" up to {high}" if high is not None else ""


def values_of(option: RuleOption) -> str:
    """Return what an option takes, in a few words."""
    taken = {
        "bool": "true, false",
        "int": "a whole number" + bounds(option),
        "choice": ", ".join(f"`{choice}`" for choice in option.choices),
        "choices": "a list of " + ", ".join(f"`{choice}`" for choice in option.choices),
        "int_list": "a list of whole numbers" + bounds(option),
        "half": "a number in steps of 0.5" + bounds(option),
    }[option.kind]
    return taken + (", or null" if option.nullable else "")


def options_table(slug: str) -> str:
    """Return a game's house-rule options: key, default, values and meaning."""
    rows = ["| key | default | values | meaning |", "| --- | --- | --- | --- |"]
    for option in GAMES[slug].options:
        meaning = " ".join(option.description.split()).replace("|", "/")
        rows.append(
            f"| `{option.key}` | `{shown(option.default)}` | {values_of(option)} | {meaning} |"
        )
    presets = ", ".join(f"`{preset.key}`" for preset in GAMES[slug].presets)
    return "\n".join(rows) + (f"\n\nPresets: {presets} (the first is the default).\n")


#: what a declared input kind holds, for the docs
KINDS = {
    "plain": "a value as the API shows it",
    "name": "a seated player's name",
    "names": "seated players' names, in order",
    "card": "a card (`SA`, `H10`, `JK`)",
    "cards": "a list of cards",
    "trump": "a suit `S` `H` `D` `C`, or `NT`",
    "holder": "who held it: `boss`, `friend`, `opposition`, `kitty` (empty: the ruling side)",
    "revolution": "`plain` or `greater`",
}


def input_table(slug: str) -> str:
    """Return a game's round input as declared once: each path, its words and its value."""
    game = GAMES[slug]
    rows = ["| path | what it is | value |", "| --- | --- | --- |"]
    for entry in game.round_input:
        words = entry.words.replace("%(", "{").replace(")s", "}")
        rows.append(f"| `{entry.spec}` | {words} | {KINDS.get(entry.kind, entry.kind)} |")
    places = ", ".join(
        f"`{{{name}}}`: " + pattern.replace("|", ", ")
        for name, pattern in game.input_places.items()
    )
    note = "`{player}` is a seated player's name, `{n}` and `{m}` count from 1"
    return "\n".join(rows) + f"\n\n{note}{'; ' + places if places else ''}.\n"


def codes_table(package: str) -> str:
    """Return the codes raised in refapp/games/<package>/ (``shared``: refapp/games/*.py)."""
    prefix = "refapp/games/"
    raised = sorted(
        {
            site.code
            for site in all_sites(APP / "games")
            if site.path.startswith(prefix)
            and (
                "/" not in site.path[len(prefix) :]
                if package == "shared"
                else site.path.startswith(f"{prefix}{package}/")
            )
        }
        - {"<dynamic>"}
    )
    rows = ["| code | status | kind | meaning |", "| --- | --- | --- | --- |"]
    for code in raised:
        entry = CODES[code]
        rows.append(f"| `{code}` | {entry.status} | {entry.kind} | {entry.meaning} |")
    return "\n".join(rows) + "\n"


def generated_parts(name: str) -> str:
    """Return the text of one generated part by its name."""
    if name == "codes":
        return errors_table()
    what, _, slug = name.partition("_")
    if what == "options":
        return options_table(slug)
    if what == "input":
        return input_table(slug)
    return codes_table(slug)


def regenerate(text: str) -> str:
    """Return a document with every generated part written anew."""
    return GENERATED.sub(
        lambda match: match.group(1) + generated_parts(match.group(2)) + match.group(3), text
    )


def documents() -> list[Path]:
    """Return the documents with generated parts."""
    return [ROOT / "docs" / "errors.md"] + [
        ROOT / "docs" / "rules" / f"{slug}.md" for slug in GAMES
    ]


def main(argv: list[str]) -> int:
    """Rewrite the generated parts (``--check``: only report the files that are not current)."""
    stale = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        fresh = regenerate(text)
        if fresh != text:
            stale.append(path)
            if "--check" not in argv:
                path.write_text(fresh, encoding="utf-8")
    for path in stale:
        print(f"{'not current' if '--check' in argv else 'rewrote'}: {path.relative_to(ROOT)}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
