"""A year (or any period) in review, for the group or one player (web/review.py's pages):
nights and sessions, hours, wins, the longest streak, the games and the people played with
most, nemesis and partner, the records set and the best night.

Every figure comes from the statistics services (services/statistics.py over a ``Query`` with
its period, periods.py's ``matching``): the same definitions and the same bounded reads. What
they do not hold - how many nights and which was best - is two more statements over the period's
sessions, each answering one row whatever the history.

A night is a game evening: the day a counted session's last round was recorded, on the app's
clock (UTC), a round before 06:00 still belonging to the evening before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta
from typing import TypedDict

from sqlalchemy import ColumnElement, Date, case, cast, func, literal, select

from ..extensions import db
from ..games import GAMES
from ..games.tally import summed
from ..models import GameSession, SessionPlayer
from . import due, periods
from .players import find_player
from .roles import player_roles
from .statistics import (
    Query,
    figures_rows,
    head_to_head,
    pair_rows,
    player_names,
    player_stats,
    records,
    standing,
)
from .statistics_shapes import HeadToHead, Record, Standing

#: a night runs until this hour of the next morning (UTC): a round at 01:30 ends the evening before
NIGHT_ENDS = timedelta(hours=6)
#: the most games, people and leaders a review lists
MOST_LISTED = 5
#: the fewest counted sessions one player is ahead of another that make a one-sided pair
ONE_SIDED_FROM = 3


class Night(TypedDict):
    """The best night: its evening, its counted sessions, the player's wins then, its hours."""

    day: str
    sessions: int
    wins: int
    hours: float


class Played(TypedDict):
    """A game or a person and how many counted sessions of the period they make."""

    name: str
    sessions: int


class Review(TypedDict):
    """A period in review: the group's (``player`` None) or one player's."""

    player: str | None
    first: str | None
    last: str | None
    nights: int
    sessions: int
    hours: float
    wins: int
    win_rate: float | None
    streak: Record | None
    games: list[Played]
    together: list[Played]
    nemesis: str | None
    partner: str | None
    one_sided: HeadToHead | None
    leaders: list[Standing]
    records: list[Record]
    best_night: Night | None


def group_review(query: Query) -> Review:
    """Return the group's review of a period: everyone's counted sessions in it."""
    due.catch_up()
    rows = figures_rows(query, None)
    names = player_names({row.player_id for row in rows})
    by_player: dict[int, list[dict[str, int]]] = {}
    for row in rows:
        by_player.setdefault(row.player_id, []).append(row.tally or {})
    leaders = [standing(names[key], summed(tallies)) for key, tallies in by_player.items()]
    leaders = [line for line in leaders if line["sessions"]]
    leaders.sort(key=lambda line: (-line["wins"], -(line["win_rate"] or 0), line["name"]))
    found = records(query)
    pairs = head_to_head(pair_rows(query, None), names)
    sessions, seconds = session_totals(query)
    return {
        "player": None,
        "first": day_text(query.date_from),
        "last": day_text(query.date_to),
        "nights": nights(query, None),
        "sessions": sessions,
        "hours": round(seconds / 3600, 2),
        "wins": sum(line["wins"] for line in leaders),
        "win_rate": None,
        "streak": longest(record for record in found if record["key"] == "longest_win_streak"),
        "games": most(games_played(query)),
        "together": most(
            {"name": line["name"], "sessions": line["sessions"]}
            for line in sorted(leaders, key=lambda line: (-line["sessions"], line["name"]))
        ),
        "nemesis": None,
        "partner": None,
        "one_sided": one_sided(pairs),
        "leaders": leaders[:MOST_LISTED],
        "records": found,
        "best_night": best_night(query, None),
    }


def player_review(name: object, query: Query) -> Review:
    """Return one player's review of a period: the counted sessions they sat at in it."""
    player = find_player(name)
    stats = player_stats(player.name, query)  # catches up first
    rows = figures_rows(query, player.id)
    mine = standing(player.name, summed(row.tally or {} for row in rows))
    streaks: list[Record] = [
        {
            "key": "longest_win_streak",
            "game": game,
            "value": streak_of(figures),
            "player": player.name,
            "session": None,
            "round": None,
        }
        for game, figures in stats["games"].items()
    ]
    # partners are kept per pair for the whole history (periods.py): the review names the
    # partner of every hand played, and says so
    partner = all_time_partner(player.id) if query.filtered else stats["partner"]
    return {
        "player": player.name,
        "first": day_text(query.date_from),
        "last": day_text(query.date_to),
        "nights": nights(query, player.id),
        "sessions": mine["sessions"],
        "hours": mine["hours"],
        "wins": mine["wins"],
        "win_rate": mine["win_rate"],
        "streak": longest(streaks),
        "games": most(
            {"name": game, "sessions": whole(figures.get("sessions_counted"))}
            for game, figures in stats["games"].items()
        ),
        "together": most(
            {"name": line["opponent"], "sessions": line["sessions"]}
            for line in stats["head_to_head"]
        ),
        "nemesis": stats["nemesis"],
        "partner": partner,
        "one_sided": None,
        "leaders": [],
        "records": stats["records"],
        "best_night": best_night(query, player.id),
    }


# -- what the statistics hold ----------------------------------------------------------------------


def day_text(day: date | None) -> str | None:
    """Return a day of the period as ISO 8601 (None: open at that end)."""
    return day.isoformat() if day else None


def whole(value: object) -> int:
    """Return a figure as a whole number (0 for none)."""
    return value if isinstance(value, int) else 0


def streak_of(figures: Mapping[str, object]) -> int:
    """Return a game's longest win streak from a player's figures there (0 without one)."""
    streak = figures.get("streak")
    return whole(streak.get("longest")) if isinstance(streak, Mapping) else 0


def longest(streaks: Iterable[Record]) -> Record | None:
    """Return the longest of some win streaks (ties: the games' order), or None."""
    found = [record for record in streaks if record["value"] > 0]
    order = list(GAMES)
    return min(found, key=lambda r: (-r["value"], order.index(r["game"])), default=None)


def most(lines: Iterable[Played]) -> list[Played]:
    """Return the lines with a counted session, most first (ties: by name), at most five."""
    found = [line for line in lines if line["sessions"]]
    return sorted(found, key=lambda line: (-line["sessions"], line["name"]))[:MOST_LISTED]


def one_sided(pairs: Sequence[HeadToHead]) -> HeadToHead | None:
    """Return the group's most one-sided pair: the most counted sessions one placed ahead of the
    other (at least three; ties: fewer sessions behind, then by name), as the ahead first."""
    best: HeadToHead | None = None
    best_key: tuple[int, int, str, str] | None = None
    for line in pairs:
        if line["b_ahead"] > line["a_ahead"]:
            line = {**line, "a": line["b"], "b": line["a"],
                    "a_ahead": line["b_ahead"], "b_ahead": line["a_ahead"]}  # fmt: skip
        key = (-line["a_ahead"], line["b_ahead"], line["a"], line["b"])
        if line["a_ahead"] >= ONE_SIDED_FROM and (best_key is None or key < best_key):
            best, best_key = line, key
    return best


# -- nights and sessions ---------------------------------------------------------------------------


def night_of() -> ColumnElement[date]:
    """Return the night of a session in SQL: the UTC day of its last round, six hours earlier."""
    at = GameSession.last_round_at
    if db.session.get_bind().dialect.name == "postgresql":
        return cast(func.timezone("UTC", at) - NIGHT_ENDS, Date)
    return func.date(at, "-6 hours")


def counted_seats(query: Query, player_id: int | None) -> list[ColumnElement[bool]]:
    """Return the conditions of the period's counted sessions (one player's, or all)."""
    conditions = [*periods.matching(query), GameSession.counted.is_(True)]
    if player_id is not None:
        seated = select(SessionPlayer.session_id).where(SessionPlayer.player_id == player_id)
        conditions.append(GameSession.id.in_(seated))
    return conditions


def nights(query: Query, player_id: int | None) -> int:
    """Return how many nights of the period had a counted session (one player's, or any)."""
    read = select(func.count(func.distinct(night_of()))).where(*counted_seats(query, player_id))
    return int(db.session.scalar(read) or 0)


def session_totals(query: Query) -> tuple[int, int]:
    """Return the period's counted sessions and their playing time in seconds."""
    row = db.session.execute(
        select(func.count(), func.coalesce(func.sum(GameSession.played_seconds), 0)).where(
            *counted_seats(query, None)
        )
    ).one()
    return int(row[0]), int(row[1])


def games_played(query: Query) -> list[Played]:
    """Return each game's counted sessions in the period: a row per game."""
    read = (
        select(GameSession.game, func.count().label("sessions"))
        .where(*counted_seats(query, None))
        .group_by(GameSession.game)
    )
    return [{"name": row.game, "sessions": row.sessions} for row in db.session.execute(read)]


def best_night(query: Query, player_id: int | None) -> Night | None:
    """Return the best night of the period: the group's with the most counted sessions, a
    player's with the most wins (then the most sessions, the most time, the earliest)."""
    if player_id is None:
        won: ColumnElement[int] = literal(0)
        sessions = select(GameSession.played_seconds, won.label("won"))
    else:
        sessions = select(
            GameSession.played_seconds, case((SessionPlayer.won, 1), else_=0).label("won")
        ).join(SessionPlayer, SessionPlayer.session_id == GameSession.id)
        sessions = sessions.where(SessionPlayer.player_id == player_id)
    # the night worked out in a subquery, so that grouping by it repeats no bound parameter
    each = (
        sessions.add_columns(night_of().label("night"))
        .where(*periods.matching(query), GameSession.counted.is_(True))
        .subquery()
    )
    count = func.count().label("sessions")
    seconds = func.coalesce(func.sum(each.c.played_seconds), 0).label("seconds")
    wins = func.coalesce(func.sum(each.c.won), 0).label("wins")
    read = select(each.c.night, count, seconds, wins).group_by(each.c.night)
    order = [count.desc(), seconds.desc(), each.c.night]
    if player_id is not None:
        order.insert(0, wins.desc())
    row = db.session.execute(read.order_by(*order).limit(1)).first()
    if row is None:
        return None
    return {
        "day": str(row.night),
        "sessions": int(row.sessions),
        "wins": int(row.wins or 0),
        "hours": round(int(row.seconds) / 3600, 2),
    }


def all_time_partner(player_id: int) -> str | None:
    """Return a player's partner over the whole history: their rows and pairs read whole (the
    roles' own reading, services/roles.py), not their whole statistics again."""
    whole = Query()
    pairs = pair_rows(whole, player_id)
    others = player_names(
        {pair.second_id if pair.first_id == player_id else pair.first_id for pair in pairs}
    )
    return player_roles(player_id, figures_rows(whole, player_id), pairs, others)[1]
