"""Stored figures kept up to date by every write, in the write's own transaction.

Each seat keeps the counters its session's rounds add to the player's figures (``tally``) and
whether they won it (``won``); ``PlayerFigures`` keeps the sum of those parts per player and
game. A write calls one function here after it changed the session (its totals, finished or
not) and before it commits: the rounds it added or took out are counted once each, so a round
costs the same whatever the session's or the player's history. The rows a write changes are
locked (PostgreSQL ``FOR UPDATE``, in player order; SQLite: the write transaction), so two
sessions of one player never lose each other's counts. ``rebuild`` counts everything again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Insert, Select, delete, insert, select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..extensions import db
from ..games.stats import seat_tallies, session_part, winners
from ..games.tally import added
from ..models import GameSession, Player, PlayerFigures, Round, SessionPlayer, utcnow
from . import writes

#: a round's result as stored (any game's)
Result = Mapping[str, object]
Key = tuple[int, str]
#: rows a rebuild reads or writes at a time
CHUNK = 500


# -- the writes' calls -----------------------------------------------------------------------------


def session_created(session: GameSession) -> None:
    """Count a new session (flushed, seats and all) as played by everyone seated."""
    settle(session)


def round_recorded(session: GameSession, result: Result) -> None:
    """Add a recorded round (the session's totals and end already updated)."""
    settle(session, [result])


def round_undone(session: GameSession, result: Result) -> None:
    """Take out the round an undo removed (the session's totals and end already updated)."""
    settle(session, removed=[result])


def rounds_replaced(session: GameSession, old: Iterable[Result], new: Iterable[Result]) -> None:
    """Take out the replayed rounds' old results and add their new ones (after a correction)."""
    settle(session, new, old)


def session_finished(session: GameSession) -> None:
    """Count the winners of a session the table finished."""
    settle(session)


def session_imported(session: GameSession, results: Iterable[Result]) -> None:
    """Count an imported or restored session (flushed, seats and all) with its rounds' results.

    ``results`` is read once, in any order, so it may stream from the import's spool.
    """
    settle(session, results)


def player_merged(source_id: int, target_id: int) -> None:
    """Add a merged player's figures to the player they were merged into, and drop theirs."""
    theirs = locked_rows(select(PlayerFigures).where(PlayerFigures.player_id == source_id))
    if not theirs:
        return
    into = rows_for([(target_id, game) for _, game in theirs])
    for (_, game), row in theirs.items():
        target = into[(target_id, game)]
        target.tally = added(target.tally or {}, row.tally or {})
        target.last_played = latest(target.last_played, row.last_played)
    db.session.execute(delete(PlayerFigures).where(PlayerFigures.player_id == source_id))


# -- the one counting step -------------------------------------------------------------------------


def settle(
    session: GameSession, results: Iterable[Result] = (), removed: Iterable[Result] = ()
) -> None:
    """Move each seat's part of the session to what it is now, and its player's sums with it.

    A seat's part is its tally (plus ``results``, minus ``removed``) and whether the player is
    among the winners of the session as it stands. A seat never counted (tally None) had no part.
    """
    seats = list(session.seats)
    names = [seat.player.name for seat in seats]
    more = seat_tallies(session.game, names, results)
    less = seat_tallies(session.game, names, removed)
    won = winners(names, session.totals or {}, session.finished)
    rows = rows_for([(seat.player_id, session.game) for seat in seats])
    for seat, name in zip(seats, names, strict=True):
        before = {} if seat.tally is None else session_part(seat.tally, seat.won)
        seat.tally = added(added(seat.tally or {}, more[name]), less[name], -1)
        seat.won = name in won
        row = rows[(seat.player_id, session.game)]
        change = added(session_part(seat.tally, seat.won), before, -1)
        if change:
            row.tally = added(row.tally or {}, change)
        newest = latest(row.last_played, session.created_at)
        if newest != latest(row.last_played, None):
            row.last_played = newest


def rows_for(keys: Sequence[Key]) -> dict[Key, PlayerFigures]:
    """Return the figures rows of these (player, game) pairs, locked, adding the missing ones."""
    wanted = sorted(set(keys))
    query = select(PlayerFigures).where(
        tuple_(PlayerFigures.player_id, PlayerFigures.game).in_(wanted)
    )
    rows = locked_rows(query)
    missing = [key for key in wanted if key not in rows]
    if missing:
        db.session.execute(new_rows(missing))
        rows = locked_rows(query)
    return rows


def locked_rows(query: Select[PlayerFigures]) -> dict[Key, PlayerFigures]:
    """Run a query of figures rows, locked for this write in player order, read fresh."""
    found = db.session.scalars(
        query.order_by(PlayerFigures.player_id, PlayerFigures.game)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {(row.player_id, row.game): row for row in found}


def new_rows(keys: Sequence[Key]) -> Insert:
    """Return the insert of empty figures rows that leaves a row another write added alone."""
    rows = [{"player_id": player_id, "game": game, "tally": {}} for player_id, game in keys]
    unique = ["player_id", "game"]
    if db.session.connection().dialect.name == "postgresql":
        return (
            postgresql_insert(PlayerFigures)
            .values(rows)
            .on_conflict_do_nothing(index_elements=unique)
        )
    return sqlite_insert(PlayerFigures).values(rows).on_conflict_do_nothing(index_elements=unique)


def latest(first: datetime | None, second: datetime | None) -> datetime | None:
    """Return the later of two stored times (either may be missing, or stored without a zone)."""
    times = [aware(time) for time in (first, second) if time is not None]
    return max(times, default=None)


def aware(moment: datetime) -> datetime:
    """Return a stored time with its zone (SQLite gives UTC times back without one)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


# -- counting everything again ---------------------------------------------------------------------


@dataclass
class Rebuilt:
    """What a rebuild counted: sessions, their rounds and seats, and the figures rows written."""

    sessions: int = 0
    rounds: int = 0
    seats: int = 0
    rows: int = 0


def rebuild() -> Rebuilt:
    """Count every seat's tally and win and every player's sums again from the stored rounds.

    One transaction that holds the write lock (SQLite: the write transaction; PostgreSQL: the
    sessions, seats and figures locked against writers, readers go on), reading a session at a
    time and its rounds ``CHUNK`` at a time, so memory stays bounded by the players and games.
    """
    writes.begin_write()
    if db.session.connection().dialect.name == "postgresql":
        db.session.execute(
            text("LOCK TABLE game_session, session_player, player_figures IN EXCLUSIVE MODE")
        )
    done = Rebuilt()
    sums: dict[Key, dict[str, int]] = {}
    newest: dict[Key, datetime | None] = {}
    for session_id in db.session.scalars(select(GameSession.id).order_by(GameSession.id)).all():
        session = db.session.execute(
            select(
                GameSession.game, GameSession.finished, GameSession.totals, GameSession.created_at
            ).where(GameSession.id == session_id)
        ).one()
        seats = db.session.execute(
            select(SessionPlayer.id, SessionPlayer.player_id, Player.name)
            .join(Player, Player.id == SessionPlayer.player_id)
            .where(SessionPlayer.session_id == session_id)
            .order_by(SessionPlayer.seat)
        ).all()
        names = [seat.name for seat in seats]
        counter = [0]
        tallies = seat_tallies(session.game, names, results_of(session_id, counter))
        won = winners(names, session.totals or {}, session.finished)
        if seats:
            db.session.execute(
                update(SessionPlayer),
                [
                    {"id": seat.id, "tally": tallies[seat.name], "won": seat.name in won}
                    for seat in seats
                ],
            )
        for seat in seats:
            key = (seat.player_id, session.game)
            part = session_part(tallies[seat.name], seat.name in won)
            sums[key] = added(sums.get(key, {}), part)
            newest[key] = latest(newest.get(key), session.created_at)
        done.sessions += 1
        done.rounds += counter[0]
        done.seats += len(seats)
    db.session.execute(delete(PlayerFigures))
    rows = [
        {
            "player_id": player_id,
            "game": game,
            "tally": tally,
            "last_played": newest[(player_id, game)],
        }
        for (player_id, game), tally in sorted(sums.items())
    ]
    for start in range(0, len(rows), CHUNK):
        db.session.execute(insert(PlayerFigures), rows[start : start + CHUNK])
    done.rows = len(rows)
    writes.commit()
    return done


def results_of(session_id: int, counter: list[int]) -> Iterator[Result]:
    """Yield a session's stored results in order, ``CHUNK`` rounds read at a time, counting them."""
    after = 0
    while True:
        chunk = db.session.execute(
            select(Round.number, Round.result)
            .where(Round.session_id == session_id, Round.number > after)
            .order_by(Round.number)
            .limit(CHUNK)
        ).all()
        for row in chunk:
            counter[0] += 1
            yield row.result or {}
        if len(chunk) < CHUNK:
            return
        after = chunk[-1].number
