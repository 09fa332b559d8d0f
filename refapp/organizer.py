"""The organizer's right, where seasons and public views need it: a request without it is
refused ``403 organizer_required`` (the API's body, or the 403 page)."""

from __future__ import annotations

from . import club
from .access import organizer_required


def require_organizer() -> None:
    """Refuse a request that does not carry the group's organizer right."""
    if not club.is_organizer():
        raise organizer_required()
