"""Stored figures kept up to date by the writes, in the write's own transaction (a running
session's by the next read: services/owed.py).

Each seat keeps the counters its session's rounds add to the player's figures (``tally``) and
whether they won it (``won``); ``PlayerFigures`` keeps the sum of those parts per player and
game. A write calls one function here after it changed the session (its totals, finished or
not) and before it commits: the rounds it added or took out are counted once each, so a round
costs the same whatever the session's or the player's history. The rows a write changes are
locked (PostgreSQL ``FOR UPDATE``, in player order; SQLite: the write transaction), so two
sessions of one player never lose each other's counts. ``rebuild`` counts everything again.

While a session runs - it counts neither before nor after the write - no figures row is
written: each seat keeps the part its player's figures were last given (``paid``; ``owe``), the
session is marked due and the next read adds the difference (services/owed.py), so a round
recorded at the table writes its seats alone; a write that counts or un-counts the session adds
the difference with its own change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from datetime import datetime
from typing import Protocol

from sqlalchemy import delete, inspect, select
from sqlalchemy.orm.attributes import flag_modified

from ..extensions import Base, db
from ..games.standings import counts, gap_seconds, places
from ..games.stats import seat_tallies, session_part
from ..games.tally import Tally, added
from ..models import GameSession, PlayerFigures, SessionPlayer, utcnow
from ..models import aware as aware  # the writes' and the recount's time helper
from . import marks, ratings, standings
from .keyed_rows import keyed_rows, locked
from .rows import FiguresLike, PairLike, SeatLike, SessionLike

#: a round's result as stored (any game's)
Result = Mapping[str, object]
Key = tuple[int, str]
#: rows a rebuild reads or writes at a time
CHUNK = 500


# -- the writes' calls -----------------------------------------------------------------------------


def session_created(session: GameSession) -> None:
    """Count a new session (flushed, seats and all) as played by everyone seated; its players'
    figures rows are made now, while their rows are locked (``rows_made``)."""
    rows_made(session)
    settle(session)


def round_recorded(session: SessionLike, result: Result, store: Store | None = None) -> None:
    """Add a recorded round (the session's totals and end already updated)."""
    settle(session, [result], store=store)


def round_undone(session: SessionLike, result: Result, store: Store | None = None) -> None:
    """Take out the round an undo removed (the session's totals, end and last round time
    already updated)."""
    settle(session, removed=[result], store=store, retimed=True)


def rounds_replaced(
    session: SessionLike, old: Iterable[Result], new: Iterable[Result], store: Store | None = None
) -> None:
    """Take out the replayed rounds' old results and add their new ones (after a correction)."""
    settle(session, new, old, store)


def round_added(session: SessionLike, at: datetime) -> None:
    """Move a session's round times and playing time on by a round recorded at ``at``."""
    session.played_seconds += gap_seconds(stored_time(session.last_round_at), at)
    session.first_round_at = session.first_round_at or at
    session.last_round_at = at


def round_taken(session: SessionLike, undone: datetime, previous: datetime | None) -> None:
    """Take the last round (recorded at ``undone``) out of the session's times; ``previous`` is
    when the round before it was recorded (None: it was the only one)."""
    if previous is None:
        session.first_round_at = session.last_round_at = None
        session.played_seconds = 0
        return
    session.played_seconds -= gap_seconds(stored_time(previous), aware(undone))
    session.last_round_at = previous


def session_finished(session: GameSession) -> None:
    """Count the winners of a session the table finished."""
    settle(session)


def session_imported(session: GameSession, results: Iterable[Result]) -> None:
    """Count an imported or restored session (flushed, seats and all) with its rounds' results.

    ``results`` is read once, in any order, so it may stream from the import's spool.
    """
    rows_made(session)
    settle(session, results)


def rows_made(session: GameSession) -> None:
    """Make the figures rows of a new session's players that are missing, in the write that
    seats them (their players' rows locked): a later write to the session, or the read that
    adds what it left (``pay``), then only updates them - inserting one under the session's lock
    would take its player's row too and could deadlock with a rename holding that row."""
    rows_for([(seat.player_id, session.game) for seat in seats_of(session)])


def player_merged(source_id: int, target_id: int) -> None:
    """Add a merged player's figures and head-to-head to the player they were merged into, drop
    theirs, and mark the target's streaks due (their seats are the target's now)."""
    query = select(PlayerFigures).where(PlayerFigures.player_id == source_id)
    theirs = {
        (row.player_id, row.game): row for row in locked(PlayerFigures, FIGURES_KEY, query).values()
    }
    # none when every session of theirs runs (their figures wait for a read: ``owe``); the
    # merge moves their seats, and what the figures lack with them, to the target
    into = rows_for([(target_id, game) for _, game in theirs])
    # the figures rows first, then the pairs (the order every write takes them in)
    standings.merge_pairs(source_id, target_id)
    marks.player_merged(source_id, target_id)
    for (_, game), row in theirs.items():
        target = into[(target_id, game)]
        target.tally = added(target.tally or {}, row.tally or {})
        target.last_played = latest(target.last_played, row.last_played)
    db.session.execute(delete(PlayerFigures).where(PlayerFigures.player_id == source_id))
    for row in into.values():  # their seats are the target's now: counted by the next read
        row.streaks_due = True


# -- the one counting step -------------------------------------------------------------------------


class Store(Protocol):
    """Where a settle reads the figures and pairs rows it counts in and writes what it changed:
    the ORM (``OrmRows``: flushed at the commit) or Core (``hot_rows.CoreRows``)."""

    def figures(self, keys: Sequence[Key]) -> Mapping[Key, FiguresLike]:
        """Return the figures rows of these (player, game) keys, locked, missing ones added."""

    def pairs(self, keys: Sequence[standings.PairKey]) -> Mapping[standings.PairKey, PairLike]:
        """Return the pairs' rows of these keys, locked, missing ones added."""

    def settled(self, seats: Sequence[SeatLike], figures: Sequence[FiguresLike]) -> None:
        """Write (or mark for the commit) what the settle changed in these rows."""


class OrmRows:
    """The ORM's rows: each changed once, in one UPDATE per table at the commit."""

    def figures(self, keys: Sequence[Key]) -> Mapping[Key, FiguresLike]:
        """Return the figures rows of these keys (``rows_for``)."""
        return rows_for(keys)

    def pairs(self, keys: Sequence[standings.PairKey]) -> Mapping[standings.PairKey, PairLike]:
        """Return the pairs' rows of these keys (``standings.pair_rows``)."""
        return standings.pair_rows(keys)

    def settled(self, seats: Sequence[SeatLike], figures: Sequence[FiguresLike]) -> None:
        """Make each row's update set every column any of them changed (``one_update``)."""
        one_update([seat for seat in seats if isinstance(seat, SessionPlayer)], SEAT_COLUMNS)
        rows = [row for row in figures if isinstance(row, PlayerFigures)]
        one_update(rows, FIGURES_COLUMNS)


def settle(
    session: SessionLike,
    results: Iterable[Result] = (),
    removed: Iterable[Result] = (),
    store: Store | None = None,
    retimed: bool = False,
) -> None:
    """Move each seat's part of the session to what it is now, and its player's sums with it
    (while the session runs, the sums wait: ``owe``).

    A seat's part is its tally (plus ``results``, minus ``removed``), the session's playing time,
    and, once the session counts (finished, or idle: games/standings.py), the player's place and
    whether they won. A seat never counted (tally None) had no part. When places change, each
    pair's head-to-head and each player's streaks move with them, and the rounds added or taken
    out move the pairs' own counters (services/standings.py). ``store``: where its rows are read
    and written (the ORM's by default); ``retimed``: the session's last round time moved back.
    """
    rows_store = store_or_orm(store)
    seats = seats_of(session)
    names = [seat.player.name for seat in seats]
    more, less, pairs = rounds_counted(session.game, seats, results, removed)
    last_round_at = stored_time(session.last_round_at)
    counted = counts(session.round_count, session.finished, last_round_at, utcnow())
    if not (counted or session.counted):  # it runs: its players' figures wait for a read
        owe(session, seats, names, more, less)
        standings.move_pairs(session.game, [], pairs, rows_store.pairs)
        rows_store.settled(seats, [])
        return
    placed = places(names, session.totals or {}) if counted else {}
    rows = rows_store.figures([(seat.player_id, session.game) for seat in seats])
    moves: list[standings.Placed] = []
    changes: list[tuple[FiguresLike, dict[str, int]]] = []
    for seat, name in zip(seats, names, strict=True):
        moves.append(standings.Placed(seat.player_id, seat.place, placed.get(name)))
        change = seat_moved(seat, more[name], less[name], placed.get(name), session.played_seconds)
        changes.append((rows[(seat.player_id, session.game)], change))
    # each figures row is changed once, in one UPDATE at the commit: a second UPDATE of a row
    # this transaction changed would check its player again and wait for a rename holding it
    with db.session.no_autoflush if db.session.registry.has() else nullcontext():
        by_player = {key[0]: row for key, row in rows.items()}
        standings.move_streaks(session, moves, by_player, retimed)
        started = aware(session.created_at)
        for row, change in changes:
            if change:
                row.tally = added(row.tally or {}, change)
            played_since(row, started)
        was_counted = bool(session.counted)
        session.counted = counted
        marks.total_settled(session, was_counted, last_round_at)
        standings.move_pairs(session.game, moves, pairs, rows_store.pairs)
        ratings.session_settled(session, was_counted, moved(more, less))
        rows_store.settled(seats, list(rows.values()))


def seat_moved(
    seat: SeatLike, more: Tally, less: Tally, place: int | None, seconds: int
) -> dict[str, int]:
    """Move a seat's part on - its tally by the rounds added (``more``) and taken out
    (``less``), its place, win and playing time - and return how its player's sums move: from
    the part they hold (``given``) to the part now."""
    before = given(seat)
    seat.tally = added(added(seat.tally or {}, more), less, -1)
    seat.place, seat.won, seat.seconds, seat.paid = place, place == 1, seconds, None
    return added(part_of(seat), before, -1)


def owe(
    session: SessionLike,
    seats: Sequence[SeatLike],
    names: Sequence[str],
    more: Mapping[str, Tally],
    less: Mapping[str, Tally],
) -> None:
    """Move each seat's part on while the session runs (it counts neither before nor after
    the write: no place, no win) and leave its player's figures as they are: the seat keeps the
    part they were given (``paid``) and the next read adds the difference (services/owed.py)."""
    for seat, name in zip(seats, names, strict=True):
        if seat.paid is None:  # they hold its part as it is: that is what they were given
            seat.paid = given(seat)
        seat.tally = added(added(seat.tally or {}, more[name]), less[name], -1)
        seat.seconds = session.played_seconds
    if not session.figures_due:
        session.figures_due = True


def given(seat: SeatLike) -> Tally:
    """Return the part of a seat its player's figures hold: the one they were last given while
    its session ran (``paid``), else its part as stored (none before it first counted)."""
    if seat.paid is not None:
        return seat.paid
    return {} if seat.tally is None else part_of(seat)


def pay(session: GameSession) -> None:
    """Give a running session's players' figures what its seats' parts changed since they were
    last given them (``owe``), the rows locked in player order as every write takes them."""
    seats = [seat for seat in seats_of(session) if seat.paid is not None]
    rows = rows_for([(seat.player_id, session.game) for seat in seats]) if seats else {}
    started = aware(session.created_at)
    for seat in seats:
        row = rows[(seat.player_id, session.game)]
        row.tally = added(row.tally or {}, added(part_of(seat), seat.paid or {}, -1))
        seat.paid = None
        played_since(row, started)
    session.figures_due = False


def played_since(row: FiguresLike, started: datetime) -> None:
    """Move a player's last session played on to one started at ``started`` if it is later."""
    if row.last_played is None or aware(row.last_played) < started:
        row.last_played = started


def store_or_orm(store: Store | None) -> Store:
    """Return the store given, or the ORM's."""
    return OrmRows() if store is None else store


def seats_of(session: SessionLike) -> list[SeatLike]:
    """Return a session's seats, in seat order."""
    return [seat for seat in session.seats]


#: the columns a settle may change in a seat, and in a figures row
SEAT_COLUMNS = ("tally", "place", "won", "seconds", "paid")
FIGURES_COLUMNS = (
    "tally",
    "last_played",
    "streak_current",
    "streak_longest",
    "streak_longest_session",
    "last_counted_at",
    "last_counted_session",
    "streaks_due",
)


def one_update(rows: Sequence[Base], columns: Sequence[str]) -> None:
    """Make every row's update set each of these columns that any of them changed: the ORM
    sends rows changing the same columns in one statement (else one a set of columns)."""
    for column in columns:
        if any(inspect(row).attrs[column].history.has_changes() for row in rows):
            for row in rows:
                flag_modified(row, column)


def moved(*tallies: Mapping[str, Tally]) -> bool:
    """Return True if any seat's tally moved: a round was added or taken out."""
    return any(tally for seats in tallies for tally in seats.values())


def rounds_counted(
    game: str, seats: Sequence[SeatLike], results: Iterable[Result], removed: Iterable[Result]
) -> tuple[dict[str, Tally], dict[str, Tally], dict[standings.PairKey, Tally]]:
    """Return each seated player's tally of the rounds added and of those taken out (each read
    once), and what they move in the pairs of seated players."""
    ids = {seat.player.name: seat.player_id for seat in seats}
    names = list(ids)
    pairs: dict[standings.PairKey, Tally] = {}
    more = seat_tallies(game, names, standings.paired(game, ids, results, pairs))
    less = seat_tallies(game, names, standings.paired(game, ids, removed, pairs, -1))
    return more, less, pairs


def part_of(seat: SeatLike) -> dict[str, int]:
    """Return a seat's part in its player's figures as it was last added."""
    return session_part(seat.tally or {}, seat.won, seat.place, seat.seconds)


#: the columns a figures row is keyed by
FIGURES_KEY = standings.FIGURES_KEY


def rows_for(keys: Sequence[Key]) -> dict[Key, PlayerFigures]:
    """Return the figures rows of these (player, game) pairs, locked, adding the missing ones."""
    found = keyed_rows(PlayerFigures, FIGURES_KEY, keys, {"tally": {}})
    return {(row.player_id, row.game): row for row in found.values()}


def latest(first: datetime | None, second: datetime | None) -> datetime | None:
    """Return the later of two stored times (either may be missing, or stored without a zone)."""
    times = [aware(time) for time in (first, second) if time is not None]
    return max(times, default=None)


def stored_time(moment: datetime | None) -> datetime | None:
    """Return a stored time with its zone, or None."""
    return None if moment is None else aware(moment)
