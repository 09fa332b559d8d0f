"""The forms' own refusals in the app's voice: each names its field, in the reader's language.

WTForms words a field it cannot read in its own tone and translations ("Not a valid choice.",
"This field is required.") without naming the field. Every form of the pages derives from
``AppForm``: WTForms keeps its English defaults (no translations of its own), and after
validation each default it raised is replaced by the app's sentence naming the field's label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import Field

from ...games.errors import Refusal

#: WTForms' English defaults (3.x), each with the app's sentence for it: (pattern, words)
Words = Callable[[str, re.Match[str]], str]
DEFAULTS: tuple[tuple[re.Pattern[str], Words], ...] = (
    (
        re.compile(r"This field is required\."),
        lambda field, _found: _("%(field)s: fill this in.", field=field),
    ),
    (
        re.compile(
            r"Not a valid choice\.?|Invalid [Cc]hoice.*|'.*' (is not a valid choice|are not "
            r"valid choices) for this field\."
        ),
        lambda field, _found: _("%(field)s: pick one of the choices.", field=field),
    ),
    (
        re.compile(r"Not a valid integer value\."),
        lambda field, _found: _("%(field)s: enter a whole number.", field=field),
    ),
    (
        re.compile(r"Not a valid (decimal|float) value\."),
        lambda field, _found: _("%(field)s: enter a number.", field=field),
    ),
    (
        re.compile(r"Field cannot be longer than (\d+) characters?\."),
        lambda field, found: ngettext(
            "%(field)s: at most %(num)d character.",
            "%(field)s: at most %(num)d characters.",
            int(found.group(1)),
            field=field,
        ),
    ),
)


def in_app_voice(field: Field, message: object) -> object:
    """Return the app's sentence for one of WTForms' default messages; others as they are."""
    if not isinstance(message, str):
        return message
    for pattern, words in DEFAULTS:
        found = pattern.fullmatch(message)
        if found:
            return words(str(field.label.text), found)
    return message


def refusal_words(field: Field | None, refusal: Refusal) -> str:
    """Return a refusal's message for the page: a missing value names the field by its label.

    The API's ``missing_field`` names the input path ("The field contract is required."); the
    page says it with the label of the field that holds it.
    """
    if refusal.code == "missing_field" and field is not None and field.type != "HiddenField":
        return str(_("%(field)s: fill this in.", field=str(field.label.text)))
    return refusal.message


class AppForm(FlaskForm):  # type: ignore[misc]  # Flask-WTF ships no type hints
    """Base of the pages' forms: WTForms' own refusals reworded in the app's voice."""

    class Meta:
        """WTForms speaks English to the app, which says it in the reader's language."""

        def get_translations(self, form: FlaskForm) -> None:
            """Keep WTForms' messages in English, so the app can recognise and reword them."""
            return None

    def validate(
        self, extra_validators: Mapping[str, Sequence[Callable[..., object]]] | None = None
    ) -> bool:
        """Validate, then reword WTForms' default messages so that each names its field."""
        valid: bool = super().validate(extra_validators)
        for field in self:
            if isinstance(field.errors, list):
                field.errors = [in_app_voice(field, message) for message in field.errors]
        return valid
