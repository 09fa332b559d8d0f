"""What pages share beyond their forms: the refusals a form shows, and what the games' own pages
(refapp/games/*/web) take from the web layer, so none of them imports a view module."""

from __future__ import annotations

from ..games.errors import AccessDenied, Conflict, MalformedInput, NotFound, RuleViolation

#: the refusals a page shows by its field or in a flash; ``busy`` (a write that could not get
#: its turn) is none of them: on every route it is the app's 503 page with ``Retry-After``
FORM_REFUSALS = (MalformedInput, RuleViolation, NotFound, Conflict, AccessDenied)

__all__ = ["FORM_REFUSALS"]
