"""What every form of the pages shares: select choices, a message on a field, one-button forms."""

from __future__ import annotations

from collections.abc import Iterable

from flask_wtf import FlaskForm
from wtforms import Field, SelectChoice

from .voice import AppForm


def options(values: Iterable[object], labels: Iterable[object] | None = None) -> list[SelectChoice]:
    """Return select choices whose value and label are the given values (or labels)."""
    items = list(values)
    words = items if labels is None else list(labels)
    pairs = zip(items, words, strict=True)
    return [SelectChoice(str(value), str(label)) for value, label in pairs]


def add_error(form: FlaskForm, field: Field | None, message: str) -> None:
    """Attach a message to a field, or to the form as a whole when no field fits."""
    if field is None:
        form.form_errors.append(message)
    else:
        field.errors = [*field.errors, message]


class ButtonForm(AppForm):
    """A form that is only a button (undo, finish): CSRF-protected, no fields."""
