"""The sessions list's filters: a GET form read from the query string by the page and the API."""

from __future__ import annotations

import unicodedata
from datetime import date
from typing import Any

from wtforms import StringField
from wtforms.validators import ValidationError

from ...games.errors import MalformedInput, quote
from ...games.inputs import digits_number
from ...services.listing import SessionFilter
from ...services.values import has_control
from .voice import AppForm

#: the statuses a list may be narrowed to (``status``, or ``finished`` as the API first named it)
STATUSES = {"active": False, "false": False, "finished": True, "true": True}


def bad_parameter(key: str, value: str, wanted: str) -> MalformedInput:
    """Return the refusal of a query parameter, quoting it."""
    return MalformedInput(
        "invalid_value",
        "The filter {key} must be {wanted}, not {value}.",
        key,
        key=key,
        wanted=wanted,
        value=quote(value),
    )


class Parameter(StringField):
    """A query parameter as text; its refusal is a MalformedInput naming the parameter."""

    @property
    def text(self) -> str:
        """Return the parameter's first value, trimmed ("" when absent)."""
        return (self.data or "").strip()

    def refuse(self, value: str, wanted: str) -> None:
        """Refuse the parameter's value, saying what was wanted."""
        raise ValidationError(bad_parameter(self.name, value, wanted))


class TextParameter(Parameter):
    """Text to match: printable (a NUL cannot even be sent to PostgreSQL)."""

    def pre_validate(self, form) -> None:
        """Refuse controls and invisible characters."""
        if has_control(self.text):
            self.refuse(self.text, "printable text")


class DateParameter(Parameter):
    """A day in ISO 8601 (2026-11-27), or nothing."""

    def pre_validate(self, form) -> None:
        """Refuse text that is not a date."""
        try:
            self.day()
        except ValueError:
            self.refuse(self.text, "a date like 2026-11-27")

    def day(self) -> date | None:
        """Return the day asked for, or None."""
        return date.fromisoformat(self.text) if self.text else None


class WholeParameter(Parameter):
    """A whole number from 1 to ``most``, or nothing."""

    def __init__(self, *args: Any, most: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.most = most

    def pre_validate(self, form) -> None:
        """Refuse anything but a whole number in range."""
        if self.text and not 1 <= (self.number() or 0) <= self.most:
            self.refuse(self.text, f"a whole number from 1 to {self.most}")

    def number(self) -> int | None:
        """Return the number asked for (ASCII digits only), or None."""
        return digits_number(self.text)


class SessionFilterForm(AppForm):
    """Narrow the sessions list by game, player, status and dates, and page through it.

    Pass the query string as ``formdata``. Bad values are refused by name (``invalid_value``,
    field = the parameter), the first one in this order.
    """

    class Meta:
        """A GET form changes nothing, so it carries no CSRF token."""

        csrf = False

    game = TextParameter()
    player = TextParameter()
    status = Parameter()
    finished = Parameter()
    date_from = DateParameter(name="from")
    date_to = DateParameter(name="to")
    page = WholeParameter(most=100_000)
    per_page = WholeParameter(most=500)

    def status_text(self) -> str:
        """Return the status asked for, lowercased: ``status``, else ``finished``."""
        return (self.status.data or self.finished.data or "").strip().lower()

    def validate_status(self, field: Parameter) -> None:
        """Refuse a status other than active or finished."""
        status = self.status_text()
        if status and status not in STATUSES:
            field.refuse(status, "active or finished")

    def session_filter(self, **defaults: Any) -> SessionFilter:
        """Return the filter asked for over ``defaults``, or raise the first bad parameter."""
        self.validate()
        for field in self:
            if field.errors:
                raise field.errors[0]
        wanted = SessionFilter(**defaults)
        wanted.game = self.game.text or None
        wanted.player = unicodedata.normalize("NFC", self.player.text) or None
        if status := self.status_text():
            wanted.finished = STATUSES[status]
        wanted.date_from = self.date_from.day() or wanted.date_from
        wanted.date_to = self.date_to.day() or wanted.date_to
        wanted.page = self.page.number() or wanted.page
        wanted.per_page = self.per_page.number() or wanted.per_page
        return wanted
