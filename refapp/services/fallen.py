"""The records that fell in a session: its marks that hold the record of their game today.

A session page asks once the session counts (finished, or idle 12 hours). Each of the game's
records is the first row of its index (``statistics.best_mark``), and the longest win streak
the first row of its own: one bounded query per record, whatever the history.
"""

from __future__ import annotations

from contextlib import suppress

from ..games import GAMES
from ..models import GameSession
from . import owed, standings, writes
from .statistics import best_mark, longest_streak
from .statistics_shapes import Record


def fallen(session: GameSession) -> list[Record]:
    """Return the records this session set that still stand, in the order the game lists them."""
    # the rounds running sessions left unmarked, and the longest streak: one indexed query each
    # when none is due; while another write holds the database, the marks and streaks as kept
    with suppress(writes.Busy):
        owed.pay_owed()
        standings.count_due()
    held = [best_mark(session.game, key) for key in GAMES[session.game].kept_records()]
    held.append(longest_streak(session.game))
    return [record for record in held if record is not None and record["session"] == session.id]
