"""The version of the stored figures' definitions (every figure, mark and rating): a refapp whose
definitions are newer than the stored ones counts them all again at its next migrate."""

from __future__ import annotations

from ..extensions import db
from ..models import Projection

#: the figures' name in ``projection``
FIGURES = "figures"
#: raise it when what a round, a session or an event adds to the figures changes
#: (games/stats.py, games/*/stats.py, games/records.py, games/ratings.py)
VERSION = 2


def stale() -> bool:
    """Return True when the stored figures were counted by older definitions (or never)."""
    stored = db.session.get(Projection, FIGURES)
    return stored is None or stored.version != VERSION


def mark_current() -> None:
    """Note that the stored figures follow today's definitions (in the caller's transaction)."""
    stored = db.session.get(Projection, FIGURES)
    if stored is None:
        db.session.add(Projection(name=FIGURES, version=VERSION))
    else:
        stored.version = VERSION
