"""The organizer's right, where seasons and public views need it: a request without it is
refused ``403 organizer_required`` (the API's body, or the 403 page)."""

from __future__ import annotations

from . import club
from .games.errors import AccessDenied


def require_organizer() -> None:
    """Refuse a request that does not carry the group's organizer right."""
    if not club.is_organizer():
        raise AccessDenied(
            "organizer_required",
            "Only the group's organizer may do this: send the organizer's password "
            "(X-Organizer-Password), or sign in as the organizer.",
        )
