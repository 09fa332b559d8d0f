"""A session's standing and what a run of sessions says: when a session counts, its places, who
is ahead of whom, win streaks and playing time (pure: no Flask, no database).

A session **counts** once it is finished, or when no round has been recorded in it for
``IDLE`` (it is then ended at its last round); a session without a round never counts. In a
counted session a player's **place** is 1 + the number of players on a strictly higher total
(ties share the better place) and a **win** is place 1. A **streak** is a player's counted
sessions of one game in the order of their last round. **Playing time** runs from a session's
first round to its last, leaving out every gap longer than ``GAP`` between two rounds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from .tally import Tally

#: a session nobody has recorded a round in for this long counts, ended at its last round
IDLE = timedelta(hours=12)
#: a gap between two rounds longer than this is a break, not playing time
GAP = timedelta(minutes=30)


def counts(rounds: int, finished: bool, last_round: datetime | None, now: datetime) -> bool:
    """Return True when a session counts: it has a round, and is finished or idle long enough."""
    if rounds == 0 or last_round is None:
        return False
    return finished or now - last_round >= IDLE


def places(players: Sequence[str], totals: Mapping[str, int]) -> dict[str, int]:
    """Return each player's place: 1 + the players on a strictly higher total."""
    scores = {name: totals.get(name, 0) for name in players}
    return {
        name: 1 + sum(1 for other in players if scores[other] > scores[name]) for name in players
    }


def gap_seconds(before: datetime | None, after: datetime) -> int:
    """Return the playing time between two rounds in whole seconds (0: a break, or no round)."""
    if before is None:
        return 0
    gap = after - before
    return int(gap.total_seconds()) if timedelta(0) <= gap <= GAP else 0


def playing_seconds(times: Iterable[datetime]) -> int:
    """Return a session's playing time from its rounds' times, in order."""
    total, before = 0, None
    for moment in times:
        total += gap_seconds(before, moment)
        before = moment
    return total


def pair_part(first: int, second: int) -> Tally:
    """Return one counted session's part in a pair's head-to-head, from the two places."""
    if first < second:
        return {"sessions": 1, "a_ahead": 1}
    if second < first:
        return {"sessions": 1, "b_ahead": 1}
    return {"sessions": 1, "tied": 1}


@dataclass(frozen=True)
class Streaks:
    """A player's win streaks: the current one, the longest, and where the longest first ended."""

    current: int = 0
    longest: int = 0
    #: the session that ended the longest streak first (None: no win yet)
    longest_session: int | None = None

    def after(self, won: bool, session: int) -> Streaks:
        """Return the streaks after one more counted session."""
        current = self.current + 1 if won else 0
        if current > self.longest:
            return Streaks(current, current, session)
        return Streaks(current, self.longest, self.longest_session)


def streaks(sessions: Iterable[tuple[int, bool]]) -> Streaks:
    """Return the streaks of counted sessions (id, won) in the order of their last round."""
    found = Streaks()
    for session, won in sessions:
        found = found.after(won, session)
    return found
