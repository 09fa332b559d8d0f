"""The pages' forms: the round forms' base and the new session (the list's filters are read by
``services.listing.read_filter``).

Each game's round form lives with the game and is registered with its pages (``game_pages``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...services import SessionView
from .base import RoundForm
from .common import ButtonForm, add_error, options
from .session import NewSessionForm

__all__ = [
    "ButtonForm",
    "NewSessionForm",
    "RoundForm",
    "add_error",
    "options",
    "round_form",
]


def round_form(
    view: SessionView,
    entered: Mapping[str, object] | None = None,
    correcting: int | None = None,
    **kwargs: object,
) -> RoundForm:
    """Build the round form of the session's game, for its next round or round ``correcting``
    (prefilled from that round's stored input ``entered``)."""
    from ..game_pages import pages_of  # the games' pages import these forms

    return pages_of(view.session.game).round_form.build(view, entered, correcting, **kwargs)
