"""Standings kept by every write: each pair's head-to-head and partners, and each player's win
streaks, moved in the write's own transaction when a session's places or rounds change
(``figures.settle``).

A pair's row sums the parts of the counted sessions both sat at; a change of places takes the
old part out and puts the new one in. It also sums what each stored round adds to the pair (the
game's ``RoleBook.pair_tallies``: Mighty's boss and friend), counted sessions or not.

A streak moves on by one session when a session is counted after the player's latest counted
one (the usual end of an evening); any other change (a session un-counted by a new round, a
corrected place, a session counted out of order, a merge) marks the player's streaks due, and
the next read of the statistics (``count_due``, services/due.py) counts them again from their
counted seats, one narrow row per session: the write reads none of the player's history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from sqlalchemy import select, tuple_

from ..extensions import db
from ..games import get_game
from ..games.roles import seen_from
from ..games.standings import Streaks, pair_part, streaks
from ..games.tally import Tally, added
from ..models import GameSession, PairFigures, PlayerFigures, SessionPlayer
from . import writes
from .keyed_rows import keyed_rows, locked
from .rows import FiguresLike, PairLike, SessionLike

#: a pair's key: the game, then the lower and the higher player id
PairKey = tuple[str, int, int]
#: the columns a player's figures row is keyed by
FIGURES_KEY = ("player_id", "game")
#: the most players' rows whose due streaks one read counts; more wait for the next read
BATCH = 200


@dataclass(frozen=True)
class Placed:
    """A seat's place before and after a write (None: the session did not count)."""

    player_id: int
    before: int | None
    after: int | None

    @property
    def moved(self) -> bool:
        """Return True when the write changed whether the seat counts or won."""
        return (self.before is None) != (self.after is None) or (self.before == 1) != (
            self.after == 1
        )


# -- head-to-head ----------------------------------------------------------------------------------


def paired(
    game: str,
    ids: Mapping[str, int],
    results: Iterable[Mapping[str, object]],
    into: dict[PairKey, Tally],
    sign: int = 1,
) -> Iterator[Mapping[str, object]]:
    """Yield the results, adding (sign 1) or taking out (-1) what each adds to the pairs of
    seated players (``ids``: by name) into ``into``, keyed lower id first."""
    counted = get_game(game)
    for result in results:
        for first, second, tally in counted.role_book.pair_tallies(result):
            if first in ids and second in ids and first != second:
                low, high = sorted((ids[first], ids[second]))
                key = (game, low, high)
                into[key] = added(into.get(key, {}), seen_from(tally, low == ids[first]), sign)
        yield result


def move_pairs(
    game: str,
    seats: Sequence[Placed],
    rounds: Mapping[PairKey, Tally],
    rows_of: Callable[[Sequence[PairKey]], Mapping[PairKey, PairLike]] | None = None,
) -> None:
    """Move each pair's head-to-head from the places before the write to the places after, and
    add what the write's rounds changed (``rounds``: ``paired``), each row changed once
    (``rows_of``: where they are read, ``pair_rows`` by default)."""
    changes: dict[PairKey, Tally] = {key: dict(tally) for key, tally in rounds.items() if tally}
    for key, change in pairs_moved(game, seats):
        changes[key] = added(changes.get(key, {}), change)
    changes = {key: change for key, change in changes.items() if change}
    if not changes:
        return
    rows = (rows_of or pair_rows)(sorted(changes))
    for key, change in changes.items():
        rows[key].tally = added(rows[key].tally or {}, change)


def pairs_moved(game: str, seats: Sequence[Placed]) -> Iterator[tuple[PairKey, Tally]]:
    """Yield how each pair's head-to-head moves from the places before to those after (none
    moves while no one is placed before or after: the session did not count, nor does it)."""
    if all(seat.before is None and seat.after is None for seat in seats):
        return
    ordered = sorted(seats, key=lambda seat: seat.player_id)
    for index, first in enumerate(ordered):
        for second in ordered[index + 1 :]:
            after = pair_of(first.after, second.after)
            change = added(after, pair_of(first.before, second.before), -1)
            if change:
                yield (game, first.player_id, second.player_id), change


def pair_of(first: int | None, second: int | None) -> Tally:
    """Return a pair's part of one session from their places (none unless it counted)."""
    if first is None or second is None:
        return {}
    return pair_part(first, second)


def pair_rows(keys: Sequence[PairKey]) -> dict[PairKey, PairFigures]:
    """Return the pairs' rows, locked in key order, adding the missing ones."""
    found = keyed_rows(PairFigures, ("game", "first_id", "second_id"), keys, {"tally": {}})
    return {(row.game, row.first_id, row.second_id): row for row in found.values()}


def merge_pairs(source_id: int, target_id: int) -> None:
    """Add a merged player's head-to-head rows to the player they were merged into.

    The two never sat at one session (a merge refuses that), so no pair holds both.
    """
    theirs = db.session.scalars(
        select(PairFigures)
        .where((PairFigures.first_id == source_id) | (PairFigures.second_id == source_id))
        .order_by(PairFigures.game, PairFigures.first_id, PairFigures.second_id)
        .with_for_update()
    ).all()
    moved: dict[PairKey, Tally] = {}
    for row in theirs:
        other = row.second_id if row.first_id == source_id else row.first_id
        tally = row.tally or {}
        if (target_id < other) != (source_id < other):  # the target sits on the other side
            tally = swapped(tally)
        key = (row.game, min(target_id, other), max(target_id, other))
        moved[key] = added(moved.get(key, {}), tally)
        db.session.delete(row)
    db.session.flush()
    if moved:
        rows = pair_rows(sorted(moved))
        for key, tally in moved.items():
            rows[key].tally = added(rows[key].tally or {}, tally)


def swapped(tally: Tally) -> Tally:
    """Return a pair's tally seen from the other side (a_ahead and b_ahead exchanged, and the
    rounds' ``first_`` and ``second_`` counters)."""
    mirror = {"a_ahead": "b_ahead", "b_ahead": "a_ahead"}
    return {mirror.get(key, key): value for key, value in seen_from(tally, False).items()}


# -- streaks ---------------------------------------------------------------------------------------


def move_streaks(
    session: SessionLike,
    seats: Sequence[Placed],
    rows: Mapping[int, FiguresLike],
    retimed: bool = False,
) -> None:
    """Move each seated player's win streaks after the session's places changed.

    rows are the players' figures rows in the session's game (locked by the write). A session
    counted after the player's latest counted one moves their streaks on by one; any other
    change marks them due, to be counted again by the next read (``count_due``). ``retimed``:
    the session's last round time moved back (an undo), which can move a session that still
    counts before others of its players: their streaks are due too.
    """
    last = session.last_round_at
    for seat in seats:
        reordered = retimed and seat.before is not None and seat.after is not None
        if not seat.moved and not reordered:
            continue
        row = rows[seat.player_id]
        if seat.moved and goes_on(seat, row, session) and last is not None:
            kept = Streaks(row.streak_current, row.streak_longest, row.streak_longest_session)
            keep_streaks(row, kept.after(seat.after == 1, session.id))
            row.last_counted_at, row.last_counted_session = last, session.id
        elif not row.streaks_due:
            row.streaks_due = True


def goes_on(seat: Placed, row: FiguresLike, session: SessionLike) -> bool:
    """Return True when a newly counted session comes after the player's last counted one (and
    their streaks are not due: counting them again takes the new session in)."""
    last = session.last_round_at
    if seat.before is not None or seat.after is None or last is None or row.streaks_due:
        return False
    return after_last(row, last, session.id)


@writes.transaction()
def count_due() -> int:
    """Count again the streaks writes left due, at most ``BATCH`` players' rows, in one write
    that takes those rows; return how many were due.

    Reads one indexed query when there are none, which is nearly always (and then leaves the
    read's transaction as it was).
    """
    due = db.session.execute(
        select(PlayerFigures.player_id, PlayerFigures.game)
        .where(PlayerFigures.streaks_due.is_(True))
        .order_by(PlayerFigures.player_id, PlayerFigures.game)
        .limit(BATCH)
    ).all()
    if not due:
        return 0
    db.session.rollback()  # the read's transaction ends: the counting is a write of its own
    writes.begin_write()
    keys = [tuple(key) for key in due]
    query = select(PlayerFigures).where(
        tuple_(PlayerFigures.player_id, PlayerFigures.game).in_(keys)
    )
    # counted by another read meanwhile: no longer due
    rows = [row for row in locked(PlayerFigures, FIGURES_KEY, query).values() if row.streaks_due]
    count_streaks(rows)
    for row in rows:
        row.streaks_due = False
    writes.commit()
    return len(due)


def keep_streaks(row: FiguresLike, found: Streaks) -> None:
    """Store a player's streaks in their figures row."""
    row.streak_current, row.streak_longest = found.current, found.longest
    row.streak_longest_session = found.longest_session


def after_last(row: FiguresLike, last: datetime, session_id: int) -> bool:
    """Return True when a session ending at last comes after the row's latest counted one."""
    if row.last_counted_at is None or row.last_counted_session is None:
        return True
    known = row.last_counted_at
    if known.tzinfo is None:
        last = last.replace(tzinfo=None)
    return (last, session_id) > (known, row.last_counted_session)


def count_streaks(rows: Iterable[PlayerFigures]) -> None:
    """Count players' streaks again from their counted seats in each row's game, in order (one
    query for all the rows)."""
    rows = list(rows)
    if not rows:
        return
    found = db.session.execute(
        select(
            SessionPlayer.player_id,
            GameSession.game,
            GameSession.last_round_at,
            GameSession.id,
            SessionPlayer.place,
        )
        .join(GameSession, GameSession.id == SessionPlayer.session_id)
        .where(
            SessionPlayer.player_id.in_({row.player_id for row in rows}),
            GameSession.game.in_({row.game for row in rows}),
            SessionPlayer.place.is_not(None),
        )
        .order_by(
            SessionPlayer.player_id, GameSession.game, GameSession.last_round_at, GameSession.id
        )
    ).all()
    seated = {key: list(seats) for key, seats in groupby(found, key=lambda seat: seat[:2])}
    for row in rows:
        mine = seated.get((row.player_id, row.game), [])
        keep_streaks(row, streaks((seat.id, seat.place == 1) for seat in mine))
        row.last_counted_at = mine[-1].last_round_at if mine else None
        row.last_counted_session = mine[-1].id if mine else None
