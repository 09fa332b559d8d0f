"""What makes an app per test cheap: its files in memory, its templates and routes compiled once.

A test builds a fresh app (``create_app``) on a fresh database. Three costs of that are the same
in every test and none of them is what a test checks, so they are paid once per process:

- SQLite syncs its log to the disk at each commit (3-4 ms on a CI disk, 0.06 ms on tmpfs): the
  tests' temporary folders live on ``/dev/shm`` where there is one (``use_memory_for_tmp_path``);
- each app's Jinja environment compiles every template it renders again (40-60% of a page
  test's time): the test apps share one cache of the compiled code (``TEMPLATE_CODE``), checked
  against each template's source, so an edited template is compiled again;
- each app compiles the URL builders of its ~56 routes (25 of the 30 ms ``create_app`` takes):
  ``Rule._compile_builder`` is remembered per route and its defaults (``remember_url_builders``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

from jinja2.bccache import Bucket, BytecodeCache
from werkzeug.routing.rules import Rule

#: where tmp_path lives when the machine has a memory file system (Linux); elsewhere the default
MEMORY_ROOT = Path("/dev/shm")


def use_memory_for_tmp_path() -> None:
    """Root pytest's temporary folders on /dev/shm unless the caller chose a root already."""
    if "PYTEST_DEBUG_TEMPROOT" in os.environ or not MEMORY_ROOT.is_dir():
        return
    if os.access(MEMORY_ROOT, os.W_OK | os.X_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_ROOT)


class TemplateCode(BytecodeCache):
    """The compiled code of every template, kept in this process for each new app's Jinja."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Give the bucket the code compiled from the same source, if any."""
        found = self.kept.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the code just compiled, with the checksum of its source."""
        if bucket.code is not None:
            self.kept[bucket.key] = (bucket.checksum, bucket.code)


#: one cache for every test app of the process (tests/conftest.py ``make_test_app``)
TEMPLATE_CODE = TemplateCode()

Builder = Callable[..., tuple[str, str]]


def remember_url_builders() -> None:
    """Compile each route's URL builder once per process instead of once per app."""
    original: Callable[[Rule, bool], Builder] | None = getattr(Rule, "_compile_builder", None)
    if original is None or getattr(original, "remembered", False):
        return  # another Werkzeug: nothing to remember, every app compiles its own
    built: dict[tuple[Any, ...], Builder] = {}

    def compile_once(rule: Rule, append_unknown: bool = True) -> Builder:
        """Return the builder compiled for an equal route (same path, host and defaults)."""
        key = (
            rule.rule,
            rule.subdomain,
            rule.host,
            rule.merge_slashes,
            repr(list((rule.defaults or {}).items())),
            tuple(rule._trace),
            append_unknown,
        )
        if key not in built:
            built[key] = original(rule, append_unknown)
        return built[key]

    compile_once.remembered = True  # type: ignore[attr-defined]
    Rule._compile_builder = compile_once  # type: ignore[method-assign]
