"""Statistics over part of the history (docs/API.md, "Statistics across sessions"): the figures
the kept rows hold, counted again in the database over only the sessions a query's ``from``,
``to`` and ``players`` match.

A session is in a period when its last round was recorded on one of the period's days (UTC), and
matches ``players`` when every named player sat at it. Its seats' parts (the tally of its rounds,
playing time, place and win: services/figures.py) are summed with SQL aggregates, and streaks are
counted with window functions over the matching counted sessions in the order of their last
round. Each function sends a fixed number of statements, whatever the history, and gets back a
row per player and game, per pair, or per record - never a row per session or round. The rows it
returns are the kept rows' shapes (``PlayerFigures``, ``PairFigures``), made here and never
added to the database session, so the answers are built from them as from the kept ones.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy import ColumnElement, Subquery, and_, case, func, or_, select, true
from sqlalchemy.orm import aliased

from ..club import current_group_id
from ..extensions import db
from ..games.tally import added
from ..models import GameSession, Mark, PairFigures, Player, PlayerFigures, SessionPlayer
from .statistics_shapes import Record, record_of
from .stats_query import Query

# -- which sessions -------------------------------------------------------------------------------


def day_start(day: date) -> datetime:
    """Return midnight UTC at the start of a day."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def matching(query: Query) -> list[ColumnElement[bool]]:
    """Return the conditions on ``GameSession`` a query's game, period and players set."""
    conditions: list[ColumnElement[bool]] = [
        GameSession.game.in_(query.games()),
        # + 0: the period's index (game, last_round_at) leads, never the group's (a server's
        # sessions are mostly one group's: its index would read them all)
        GameSession.group_id + 0 == current_group_id(),
    ]
    if query.date_from:
        conditions.append(GameSession.last_round_at >= day_start(query.date_from))
    if query.date_to and query.date_to < date.max:  # the last day there is bounds nothing
        end = day_start(query.date_to + timedelta(days=1))
        conditions.append(GameSession.last_round_at < end)
    if query.players:
        together = (
            select(SessionPlayer.session_id)
            .where(SessionPlayer.player_id.in_(query.players))
            .group_by(SessionPlayer.session_id)
            .having(func.count() == len(query.players))
        )
        conditions.append(GameSession.id.in_(together))
    return conditions


# -- each player's figures -------------------------------------------------------------------------


def figures_rows(query: Query, player_id: int | None) -> list[PlayerFigures]:
    """Return each player's figures per game over the matching sessions (one player's, or
    everyone's who sat at one), with their streaks there: a row per player and game."""
    keys = sorted(tally_keys(query, player_id))
    sums = [
        func.coalesce(func.sum(SessionPlayer.tally[key].as_integer()), 0).label(f"k{index}")
        for index, key in enumerate(keys)
    ]
    read = (
        select(
            SessionPlayer.player_id,
            GameSession.game,
            func.count().label("sessions_played"),
            func.count(SessionPlayer.place).label("sessions_counted"),
            func.coalesce(func.sum(case((SessionPlayer.won, 1), else_=0)), 0).label("won"),
            func.coalesce(func.sum(SessionPlayer.place), 0).label("place_sum"),
            func.coalesce(func.sum(SessionPlayer.seconds), 0).label("seconds"),
            *sums,
        )
        .join(GameSession, GameSession.id == SessionPlayer.session_id)
        .where(*matching(query), *seats_of(query, player_id), SessionPlayer.tally.is_not(None))
        .group_by(SessionPlayer.player_id, GameSession.game)
    )
    streaks = streak_figures(query, player_id)
    found = []
    for row in db.session.execute(read):
        part = {
            "sessions_played": row.sessions_played,
            "sessions_won": row.won,
            "played_seconds": row.seconds,
            "sessions_counted": row.sessions_counted,
            "session_place_sum": row.place_sum,
            **{key: row._mapping[f"k{index}"] for index, key in enumerate(keys)},
        }
        current, longest = streaks.get((row.player_id, row.game), (0, 0))
        found.append(
            PlayerFigures(
                player_id=row.player_id,
                game=row.game,
                tally=added({}, part),
                streak_current=current,
                streak_longest=longest,
            )
        )
    return found


def seats_of(query: Query, player_id: int | None) -> list[ColumnElement[bool]]:
    """Return the condition on ``SessionPlayer`` that keeps one player's seats (none: all).

    Over a period the period's sessions are read first (ix_game_session_period), then their
    seats: "+ 0" keeps SQLite from reading every seat of the player's instead.
    """
    if player_id is None:
        return []
    seat = (
        SessionPlayer.player_id + 0 if query.date_from or query.date_to else SessionPlayer.player_id
    )
    return [seat == player_id]


def tally_keys(query: Query, player_id: int | None) -> set[str]:
    """Return the counters the matching seats' tallies hold, listed in the database: a row per
    counter (SQLite's ``json_each``, PostgreSQL's ``json_object_keys``)."""
    if db.session.get_bind().dialect.name == "postgresql":
        key: ColumnElement[str] = func.json_object_keys(SessionPlayer.tally)
        read = select(key.label("key")).where(func.json_typeof(SessionPlayer.tally) == "object")
    else:
        each = func.json_each(SessionPlayer.tally).table_valued("key")
        read = select(each.c.key).select_from(SessionPlayer).join(each, true())
        read = read.where(each.c.key.is_not(None))
    read = (
        read.join(GameSession, GameSession.id == SessionPlayer.session_id)
        .where(*matching(query), *seats_of(query, player_id))
        .distinct()
    )
    return {str(row.key) for row in db.session.execute(read)}


# -- win streaks -----------------------------------------------------------------------------------


def streak_runs(query: Query, player_id: int | None = None) -> Subquery:
    """Return the matching counted seats as a subquery, each with ``length``: for a win, how
    many wins in a row it makes (in the order of the sessions' last round), and ``from_end``: 1
    for a player's last counted session of a game in the period."""
    player, game, at = SessionPlayer.player_id, GameSession.game, GameSession.last_round_at
    order = (at, GameSession.id)
    seats = (
        select(
            player.label("player_id"),
            game.label("game"),
            GameSession.id.label("session_id"),
            at.label("at"),
            SessionPlayer.won.label("won"),
            (
                func.row_number().over(partition_by=(player, game), order_by=order)
                - func.row_number().over(
                    partition_by=(player, game, SessionPlayer.won), order_by=order
                )
            ).label("island"),
            func.row_number()
            .over(partition_by=(player, game), order_by=(at.desc(), GameSession.id.desc()))
            .label("from_end"),
        )
        .join(GameSession, GameSession.id == SessionPlayer.session_id)
        .where(
            *matching(query),
            *seats_of(query, player_id),
            GameSession.counted.is_(True),
            SessionPlayer.place.is_not(None),
        )
        .subquery()
    )
    run = (seats.c.player_id, seats.c.game, seats.c.won, seats.c.island)
    return select(
        *seats.c,
        func.row_number()
        .over(partition_by=run, order_by=(seats.c.at, seats.c.session_id))
        .label("length"),
    ).subquery()


def streak_figures(query: Query, player_id: int | None) -> dict[tuple[int, str], tuple[int, int]]:
    """Return each player's (current, longest) win streak per game within the matching
    sessions: the longest run of wins there, and the run their last session there ends."""
    runs = streak_runs(query, player_id)
    read = select(
        runs.c.player_id,
        runs.c.game,
        func.max(case((and_(runs.c.won, runs.c.from_end == 1), runs.c.length), else_=0)).label(
            "current"
        ),
        func.max(case((runs.c.won, runs.c.length), else_=0)).label("longest"),
    ).group_by(runs.c.player_id, runs.c.game)
    return {
        (row.player_id, row.game): (row.current, row.longest) for row in db.session.execute(read)
    }


def longest_streaks(query: Query) -> dict[str, Record]:
    """Return the longest win streak of each game within the matching sessions, named by the
    session where it first reached its length (ties: the earliest, then the name): a row per
    game."""
    runs = streak_runs(query)
    ranked = (
        select(
            runs.c.game,
            runs.c.length,
            runs.c.session_id,
            Player.name,
            func.row_number()
            .over(
                partition_by=runs.c.game,
                order_by=(runs.c.length.desc(), runs.c.at, runs.c.session_id, Player.name),
            )
            .label("rank"),
        )
        .join(Player, Player.id == runs.c.player_id)
        .where(runs.c.won)
        .subquery()
    )
    read = select(ranked).where(ranked.c.rank == 1)
    return {
        row.game: {
            "key": "longest_win_streak",
            "game": row.game,
            "value": row.length,
            "player": row.name,
            "session": row.session_id,
            "round": None,
        }
        for row in db.session.execute(read)
    }


# -- head-to-head ----------------------------------------------------------------------------------


def pair_rows(query: Query, player_id: int | None) -> list[PairFigures]:
    """Return each pair's head-to-head per game over the matching counted sessions (one
    player's pairs, or all): a row per pair and game."""
    first, second = aliased(SessionPlayer), aliased(SessionPlayer)
    read = (
        select(
            GameSession.game,
            first.player_id.label("first_id"),
            second.player_id.label("second_id"),
            func.count().label("sessions"),
            func.sum(case((first.place < second.place, 1), else_=0)).label("a_ahead"),
            func.sum(case((second.place < first.place, 1), else_=0)).label("b_ahead"),
            func.sum(case((first.place == second.place, 1), else_=0)).label("tied"),
        )
        .select_from(first)
        .join(
            second,
            and_(second.session_id == first.session_id, second.player_id > first.player_id),
        )
        .join(GameSession, GameSession.id == first.session_id)
        .where(
            *matching(query),
            GameSession.counted.is_(True),
            first.place.is_not(None),
            second.place.is_not(None),
        )
        .group_by(GameSession.game, first.player_id, second.player_id)
    )
    if player_id is not None:
        read = read.where(or_(first.player_id == player_id, second.player_id == player_id))
    return [
        PairFigures(
            game=row.game,
            first_id=row.first_id,
            second_id=row.second_id,
            tally=added(
                {},
                {
                    "sessions": row.sessions,
                    "a_ahead": row.a_ahead,
                    "b_ahead": row.b_ahead,
                    "tied": row.tied,
                },
            ),
        )
        for row in db.session.execute(read)
    ]


# -- records ---------------------------------------------------------------------------------------


def best_mark(query: Query, game: str, key: str) -> Record | None:
    """Return the record of a key in a game among the matching sessions' marks (ties: set
    first)."""
    row = db.session.execute(
        select(Mark.value, Mark.session_id, Mark.number, Player.name)
        .join(Player, Player.id == Mark.player_id)
        .where(
            Mark.game == game,
            Mark.key == key,
            # the matching sessions first (a period's index), then their marks: never every mark
            Mark.session_id.in_(select(GameSession.id).where(*matching(query))),
        )
        # "+ 0": no walk of the record index in rank order over every session's marks (SQLite
        # would take it to save the sort); the period's marks are read by ix_mark_session
        .order_by(Mark.rank + 0, Mark.at, Mark.session_id, Mark.number)
        .limit(1)
    ).first()
    if row is None:
        return None
    return record_of(key, game, row.value, row.name, row.session_id, row.number)


# -- partners --------------------------------------------------------------------------------------


def without_partners(roles: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """Return a player's roles without their partners: a pair's rounds together are kept per
    pair for the whole history, not per session, so no period or table can narrow them."""
    return {
        game: {key: value for key, value in found.items() if key != "partners"}
        for game, found in roles.items()
    }
