"""What pages share beyond their forms: the refusals a form shows, and what the games' own pages
(refapp/games/*/web) take from the web layer, so none of them imports a view module."""

from __future__ import annotations

from flask import abort, request

from .. import services
from ..bodies import json_body
from ..games.errors import (
    AccessDenied,
    Conflict,
    MalformedInput,
    NotFound,
    Refusal,
    RuleViolation,
)
from ..models import GameSession
from ..services.archive.exports import read_snapshot

#: the refusals a page shows by its field or in a flash; ``busy`` (a write that could not get
#: its turn) is none of them: on every route it is the app's 503 page with ``Retry-After``
FORM_REFUSALS = (MalformedInput, RuleViolation, NotFound, Conflict, AccessDenied)

__all__ = ["FORM_REFUSALS", "json_body", "session_or_404", "stored_or_404"]


def stored_or_404(session_id: int) -> GameSession:
    """Load a session's row (its seats, not its rounds), or answer 404.

    A page that only reads (GET) reads the session as of one moment (``read_snapshot``): its
    seats, totals and stored states agree even when a rename or a round commits meanwhile.
    """
    if request.method in ("GET", "HEAD"):
        read_snapshot()
    try:
        return services.load_session(session_id, with_rounds=False)
    except Refusal:
        abort(404)


def session_or_404(session_id: int, last: int | None = None) -> services.SessionView:
    """Load and describe a session (with its last ``last`` rounds, None: all), or answer 404."""
    return services.describe(stored_or_404(session_id), last)
