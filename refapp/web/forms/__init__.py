"""The pages' forms: one round form per game (on one base), the new session, the list's filters.

``ROUND_FORMS`` is the registry of the games' round forms, by the game's slug.
"""

from __future__ import annotations

from typing import Any

from ...services import SessionView
from .base import RoundForm
from .common import ButtonForm, add_error, options
from .dalmuti import DalmutiHandForm
from .dixit import DixitTurnForm
from .filters import SessionFilterForm
from .mighty import MightyHandForm
from .session import NewSessionForm

#: each game's round form, by the game's slug
ROUND_FORMS: dict[str, type[RoundForm]] = {
    "dalmuti": DalmutiHandForm,
    "mighty": MightyHandForm,
    "dixit": DixitTurnForm,
}

__all__ = [
    "ROUND_FORMS",
    "ButtonForm",
    "NewSessionForm",
    "RoundForm",
    "SessionFilterForm",
    "add_error",
    "options",
    "round_form",
]


def round_form(
    view: SessionView,
    entered: dict[str, Any] | None = None,
    correcting: int | None = None,
    **kwargs: Any,
) -> RoundForm:
    """Build the round form of the session's game, for its next round or round ``correcting``
    (prefilled from that round's stored input ``entered``)."""
    return ROUND_FORMS[view.session.game].build(view, entered, correcting, **kwargs)
