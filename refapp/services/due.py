"""What a read of the statistics brings up to date first: the sessions that ended by time
(services/idle.py), what running sessions' writes left owed to the players' figures
(services/owed.py), the streaks writes left due (services/standings.py) and the sessions whose
ratings writes left due (services/ratings.py).

The figures that hang on a player's whole history (streaks counted again, ratings replayed
from an event on) are not worked out by the write that changed it: a correction at the table
costs what it costs in a session being played, and several corrections are worked out once.
Nor are a running session's rounds added to its players' figures by each write at the table:
the next read adds what they changed, once.
Each step reads one indexed query when nothing is due.
"""

from __future__ import annotations

from contextlib import suppress

from . import idle, owed, ratings, standings, writes


def figures_current() -> None:
    """Count the sessions that ended by time, then add what running sessions owe the figures
    (while another write holds the database past its timeout, the figures as they stand: a
    read is not refused for a table's last rounds)."""
    idle.count_idle()
    with suppress(writes.Busy):
        owed.pay_owed()


def catch_up() -> None:
    """Bring the figures up to date (``figures_current``), then the due streaks, then the due
    ratings."""
    figures_current()
    standings.count_due()
    ratings.rate_due()
