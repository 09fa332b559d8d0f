"""Counting every stored figure again from the rounds (``flask rebuild-figures``): each session's
round times, playing time, whether it counts and its places, each seat's part, each player's
sums and streaks, each pair's head-to-head and partners, and every mark - what every write
keeps, from scratch."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Row, delete, insert, select, text, update

from ..extensions import db
from ..games.records import total_mark
from ..games.standings import counts, pair_part, places, playing_seconds, streaks
from ..games.stats import seat_tallies, session_part
from ..games.tally import Tally, added
from ..models import GameSession, PairFigures, Player, PlayerFigures, Round, SessionPlayer, utcnow
from ..models import Mark as MarkRow
from . import marks, projection, ratings, standings, writes
from .figures import Result, aware, latest

#: rows a rebuild reads or writes at a time
CHUNK = 500
Key = tuple[int, str]


@dataclass
class Rebuilt:
    """What a rebuild counted: sessions, their rounds and seats, and the figures rows written."""

    sessions: int = 0
    rounds: int = 0
    seats: int = 0
    rows: int = 0


@dataclass
class Sums:
    """What the sessions add up to: each player's figures per game, pairs, and counted seats."""

    tallies: dict[Key, Tally] = field(default_factory=dict)
    newest: dict[Key, datetime | None] = field(default_factory=dict)
    pairs: dict[tuple[str, int, int], Tally] = field(default_factory=dict)
    #: each player's counted sessions per game: (last round, session id, won)
    counted: dict[Key, list[tuple[datetime, int, bool]]] = field(default_factory=dict)

    def add(self, player_id: int, game: str, part: Tally, started: datetime) -> None:
        """Add a seat's part of a session to its player's sums."""
        key = (player_id, game)
        self.tallies[key] = added(self.tallies.get(key, {}), part)
        self.newest[key] = latest(self.newest.get(key), started)

    def won(self, player_id: int, game: str, last: datetime, session_id: int, won: bool) -> None:
        """Note a counted session of the player's, for their streaks."""
        self.counted.setdefault((player_id, game), []).append((last, session_id, won))


def rebuild() -> Rebuilt:
    """Count every session's times and places, every seat's part and every player's and pair's
    figures again from the stored rounds.

    One transaction that holds the write lock (SQLite: the write transaction; PostgreSQL: the
    sessions, seats and figures locked against writers, readers go on), reading a session at a
    time and its rounds ``CHUNK`` at a time, so memory stays bounded by the players and games.
    """
    writes.begin_write()
    if db.session.connection().dialect.name == "postgresql":
        db.session.execute(
            text(
                "LOCK TABLE game_session, session_player, player_figures, pair_figures, mark "
                "IN EXCLUSIVE MODE"
            )
        )
    done, sums, now = Rebuilt(), Sums(), utcnow()
    db.session.execute(delete(MarkRow))
    for session_id in db.session.scalars(select(GameSession.id).order_by(GameSession.id)).all():
        recount_session(session_id, sums, done, now)
    write_sums(sums, done)
    ratings.rebuild()
    projection.mark_current()
    writes.commit()
    return done


def recount_session(session_id: int, sums: Sums, done: Rebuilt, now: datetime) -> None:
    """Count one session again: its times, whether it counts, its seats, and their sums."""
    session = db.session.execute(
        select(
            GameSession.game,
            GameSession.finished,
            GameSession.totals,
            GameSession.created_at,
            GameSession.round_count,
        ).where(GameSession.id == session_id)
    ).one()
    seats = db.session.execute(
        select(SessionPlayer.id, SessionPlayer.player_id, Player.name)
        .join(Player, Player.id == SessionPlayer.player_id)
        .where(SessionPlayer.session_id == session_id)
        .order_by(SessionPlayer.seat)
    ).all()
    names = [seat.name for seat in seats]
    times: list[datetime] = []
    ids = {seat.name: seat.player_id for seat in seats}
    seated = marks.Seated(session_id, session.game, ids)
    marked: list[dict[str, object]] = []
    results = results_of(session_id, times, seated, marked)
    paired = standings.paired(session.game, ids, results, sums.pairs)
    tallies = seat_tallies(session.game, names, paired)
    last = times[-1] if times else None
    seconds = playing_seconds(times)
    counted = counts(len(times), session.finished, last, now)
    placed = places(names, session.totals or {}) if counted else {}
    store(session_id, times, counted, seconds)
    store_seats(seats, tallies, placed, seconds)
    for seat in seats:
        place = placed.get(seat.name)
        part = session_part(tallies[seat.name], place == 1, place, seconds)
        sums.add(seat.player_id, session.game, part, session.created_at)
        if place is not None and last is not None:
            sums.won(seat.player_id, session.game, last, session_id, place == 1)
    if placed and last is not None:
        add_pairs(sums, session.game, {seat.player_id: placed[seat.name] for seat in seats})
        total = total_mark(names, session.totals or {})
        marked.extend(marks.rows_of(seated, None, [total] if total else [], last))
    marks.insert_rows(marked)
    done.sessions += 1
    done.rounds += len(times)
    done.seats += len(seats)


def store(session_id: int, times: list[datetime], counted: bool, seconds: int) -> None:
    """Store a session's round times, playing time and whether it counts."""
    db.session.execute(
        update(GameSession).where(GameSession.id == session_id),
        {
            "first_round_at": times[0] if times else None,
            "last_round_at": times[-1] if times else None,
            "played_seconds": seconds,
            "counted": counted,
            "figures_due": False,
            "marked": len(times),  # every round's marks (``results_of``)
        },
    )


def store_seats(
    seats: Sequence[Row[int, int, str]],
    tallies: Mapping[str, Tally],
    placed: Mapping[str, int],
    seconds: int,
) -> None:
    """Store each seat's tally, place, win and the playing time its part counts."""
    if not seats:
        return
    db.session.execute(
        update(SessionPlayer),
        [
            {
                "id": seat.id,
                "tally": tallies[seat.name],
                "won": placed.get(seat.name) == 1,
                "place": placed.get(seat.name),
                "seconds": seconds,
                "paid": None,  # the sums hold every seat's part as it is
            }
            for seat in seats
        ],
    )


def add_pairs(sums: Sums, game: str, placed: dict[int, int]) -> None:
    """Add one counted session's places to each pair's head-to-head."""
    ids = sorted(placed)
    for index, first in enumerate(ids):
        for second in ids[index + 1 :]:
            key = (game, first, second)
            sums.pairs[key] = added(
                sums.pairs.get(key, {}), pair_part(placed[first], placed[second])
            )


def write_sums(sums: Sums, done: Rebuilt) -> None:
    """Replace every player's figures and every pair's head-to-head with the sums counted."""
    db.session.execute(delete(PlayerFigures))
    db.session.execute(delete(PairFigures))
    rows = []
    for (player_id, game), tally in sorted(sums.tallies.items()):
        counted = sorted(sums.counted.get((player_id, game), []))
        found = streaks((session_id, won) for _, session_id, won in counted)
        rows.append(
            {
                "player_id": player_id,
                "game": game,
                "tally": tally,
                "last_played": sums.newest[(player_id, game)],
                "streak_current": found.current,
                "streak_longest": found.longest,
                "streak_longest_session": found.longest_session,
                "last_counted_at": counted[-1][0] if counted else None,
                "last_counted_session": counted[-1][1] if counted else None,
            }
        )
    for start in range(0, len(rows), CHUNK):
        db.session.execute(insert(PlayerFigures), rows[start : start + CHUNK])
    pairs = [
        {"game": game, "first_id": first, "second_id": second, "tally": tally}
        for (game, first, second), tally in sorted(sums.pairs.items())
    ]
    for start in range(0, len(pairs), CHUNK):
        db.session.execute(insert(PairFigures), pairs[start : start + CHUNK])
    done.rows = len(rows)


def results_of(
    session_id: int, times: list[datetime], seated: marks.Seated, marked: list[dict[str, object]]
) -> Iterator[Result]:
    """Yield a session's stored results in order, ``CHUNK`` rounds read at a time, noting each
    round's time (with its zone) in ``times`` and the rows of its marks in ``marked``."""
    after = 0
    runs = marks.Runs(seated, provisional=True)
    while True:
        chunk = db.session.execute(
            select(Round.number, Round.result, Round.recorded_at)
            .where(Round.session_id == session_id, Round.number > after)
            .order_by(Round.number)
            .limit(CHUNK)
        ).all()
        for row in chunk:
            times.append(aware(row.recorded_at))
            played = (row.number, row.result or {}, times[-1])
            marked.extend(marks.played_rows(seated, [played], runs))
            yield row.result or {}
        if len(chunk) < CHUNK:
            return
        after = chunk[-1].number
