"""Where the hand form shows the refusals the rules give at a whole part of the hand.

The rules refuse a duplicate or missing place at ``finish_order`` and a tax after a revolution
at ``tribute``; the form puts each by the control that mends it (a link to it heads the page's
list of refusals): the place that repeats a name (or the first one left empty), and "Tax paid as
due" or the first tribute entered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wtforms import Field

from ...errors import Refusal


def place_refused(places: Sequence[Field]) -> Field | None:
    """Return the place that names a player a second time, else the first place left empty."""
    seen: set[Any] = set()
    for field in places:
        if field.data and field.data in seen:
            return field
        seen.add(field.data)
    empty = [field for field in places if not field.data]
    return empty[0] if empty else None


def tax_refused(paid: Field | None, tributes: Sequence[Field]) -> Field | None:
    """Return the tax control a refused tribute came from: "paid as due", else cards typed."""
    if paid is not None and paid.data:
        return paid
    typed = [field for field in tributes if (field.data or "").strip()]
    return typed[0] if typed else paid


def field_refused(
    error: Refusal, places: Sequence[Field], paid: Field | None, tributes: Sequence[Field]
) -> Field | None:
    """Return the field a refusal at a whole part stands by, or None to leave it to the form."""
    if error.code == "finish_order_invalid" and error.field == "finish_order":
        return place_refused(places)
    if error.code == "tribute_not_allowed" and error.field == "tribute":
        return tax_refused(paid, tributes)
    return None
