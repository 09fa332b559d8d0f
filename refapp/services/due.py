"""What a read of the statistics brings up to date first: the sessions that ended by time
(services/idle.py), the streaks writes left due (services/standings.py) and the sessions whose
ratings writes left due (services/ratings.py).

The figures that hang on a player's whole history (streaks counted again, ratings replayed
from an event on) are not worked out by the write that changed it: a correction at the table
costs what it costs in a session being played, and several corrections are worked out once.
Each step reads one indexed query when nothing is due, which is nearly always.
"""

from __future__ import annotations

from . import idle, ratings, standings


def catch_up() -> None:
    """Count the sessions that ended by time, then the due streaks, then the due ratings."""
    idle.count_idle()
    standings.count_due()
    ratings.rate_due()
