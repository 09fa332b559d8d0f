"""How a game seats its players on the new-session form: one name per line, or its own way.

A game's pages may give a `Seating` of their own (``GamePages.seating``): extra fields, a part
of the form laid out above the names, a hint for the names, a check of each line and what the
lines give the new session besides the names (e.g. Dalmuti's first-hand draw).
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_wtf import FlaskForm
from wtforms import Field


class Seating:
    """The plain way: one name per line, in seat order; nothing else is read."""

    #: the names of the fields ``fields()`` adds to the form
    field_names: tuple[str, ...] = ()
    #: the form's part above the names (a template of the game's), None for none
    template: str | None = None
    #: the input paths of what ``read`` adds, whose refusals stand by the names
    setup_paths: tuple[str, ...] = ()

    def fields(self) -> dict[str, Field]:
        """Return the extra fields of the form (unbound)."""
        return {}

    def players_hint(self, form: FlaskForm) -> str | None:
        """Return the hint over the names field, or None for the plain one."""
        return None

    def check(self, form: FlaskForm, lines: Sequence[str]) -> None:
        """Refuse a line the seating cannot read (raise ``ValidationError``)."""

    def read(self, form: FlaskForm, lines: Sequence[str]) -> tuple[list[str], dict[str, object]]:
        """Return the players' names and what else the new session's body carries."""
        return list(lines), {}
