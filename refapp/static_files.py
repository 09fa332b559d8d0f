"""Static files addressed by their content: ``url_for("static")`` (and a game's ``<game>.static``)
adds ``?v=<hash>``, so a phone keeps a file for a day yet fetches a new one as soon as the server
has it."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, current_app


@lru_cache(maxsize=256)
def content_version(folder: str, filename: str, stamp: float) -> str:
    """Return a short hash of a static file's bytes (read again when its time stamp changes)."""
    return hashlib.sha256((Path(folder) / filename).read_bytes()).hexdigest()[:10]


def static_folder(endpoint: str) -> str | None:
    """Return the folder behind a static endpoint: the app's, or a blueprint's (a game's)."""
    if endpoint == "static":
        return current_app.static_folder
    name, _dot, last = endpoint.rpartition(".")
    blueprint = current_app.blueprints.get(name) if last == "static" else None
    return blueprint.static_folder if blueprint is not None else None


def add_version(endpoint: str, values: dict[str, Any]) -> None:
    """Give a static file's address its content version, when the file exists."""
    folder = static_folder(endpoint)
    if folder is None or "filename" not in values or "v" in values:
        return
    path = Path(folder) / values["filename"]
    try:
        values["v"] = content_version(folder, values["filename"], path.stat().st_mtime)
    except OSError:
        return  # no such file: the address stays as asked and answers 404


def init_app(app: Flask) -> None:
    """Version every static address the app builds."""
    app.url_defaults(add_version)
