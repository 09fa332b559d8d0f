"""What every game's round form offers the pages: build, read input, check a step, show errors."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_wtf import FlaskForm
from wtforms import HiddenField

from ..games.base import RuleViolation
from ..services import SessionView
from .forms import add_error


class RoundForm(FlaskForm):
    """Base of the per-game round forms (``refapp/web/<game>_form.py`` exports ``RoundForm``).

    The page posts ``action=record`` to store the round; any other action (``check``, or a
    game's own step such as a bid) is a dry run whose result the form shows via ``checked``.
    """

    expected_round = HiddenField()

    #: the round object of the last successful check (a dry run), for the template
    checked: dict[str, Any] | None = None

    @classmethod
    def build(cls, view: SessionView, entered: dict[str, Any] | None = None, **kwargs: Any):
        """Return the form for this session, prefilled from a stored round's input if given."""
        raise NotImplementedError

    def round_input(self) -> dict[str, Any]:
        """Return the API-shaped round input from the submitted fields."""
        raise NotImplementedError

    def is_check(self) -> bool:
        """Return True when the table asked to check a step rather than store the round."""
        return request.form.get("action", "record") != "record"

    def show_check(self, checked: dict[str, Any]) -> None:
        """Keep a successful check's round object for the page to show."""
        self.checked = checked

    def field_for(self, path: str):
        """Return the field an input path points at, or None for the form as a whole."""
        return None

    def show_violation(self, error: RuleViolation) -> None:
        """Put a refusal's message next to the field it concerns."""
        add_error(self, self.field_for(error.field or ""), error.message)

    def expected(self) -> int | None:
        """Return the round number this device believes it is recording, if it said."""
        value = (self.expected_round.data or "").strip()
        return int(value) if value.isdigit() and len(value) < 9 else None
