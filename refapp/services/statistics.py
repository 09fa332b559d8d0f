"""Statistics across sessions (docs/API.md, "Statistics across sessions"): standings, each
pair's head-to-head, records and each player's own story, read from the rows the writes keep.

Every answer reads the figures rows (a few per player and game), the pairs' rows and one row
per record, whatever the number of sessions and rounds; it first counts the sessions that ended
by time since the last read, adds what running sessions' writes left to the figures and marks,
and counts the streaks and ratings writes left due (services/due.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import or_, select
from sqlalchemy.sql.elements import ColumnElement

from ..club import current_group_id
from ..extensions import db
from ..games import GAMES
from ..games.stats import average, figures_from
from ..games.tally import Tally, added, summed
from ..models import GameSession, Mark, PairFigures, Player, PlayerFigures
from . import due, periods, rating_board
from .players import find_player
from .roles import player_roles
from .statistics_shapes import (
    GroupStats,
    HeadToHead,
    Opponent,
    PlayerStats,
    Record,
    Standing,
    record_of,
)
from .stats_query import Query as Query  # the API reads a request's query here


def group_stats(query: Query) -> GroupStats:
    """Return the standings, the head-to-head of every pair and the records of the group."""
    due.catch_up()
    rows = figures_rows(query, None)
    names = player_names({row.player_id for row in rows})
    by_player: dict[int, list[PlayerFigures]] = defaultdict(list)
    for row in rows:
        by_player[row.player_id].append(row)
    players = [
        standing(names[player_id], summed(row.tally or {} for row in mine))
        for player_id, mine in by_player.items()
        if any((row.tally or {}).get("sessions_played") for row in mine)
    ]
    players.sort(key=lambda row: (-row["wins"], -(row["win_rate"] or 0), row["name"]))
    return {
        "players": players,
        "head_to_head": head_to_head(pair_rows(query, None), names),
        "records": records(query),
        "ratings": rating_board.board(query.games()),
    }


def player_stats(name: object, query: Query) -> PlayerStats:
    """Return one player's own figures per game, streaks, head-to-head and records held."""
    due.catch_up()
    player = find_player(name)
    rows = figures_rows(query, player.id)
    pairs = pair_rows(query, player.id)
    others = player_names(
        {pair.second_id if pair.first_id == player.id else pair.first_id for pair in pairs}
    )
    opponents = opponents_of(player.id, pairs, others)
    held = [record for record in records(query) if record["player"] == player.name]
    roles, partner = player_roles(player.id, rows, pairs, others)
    if query.filtered:  # partners are kept per pair for the whole history (periods.py)
        roles, partner = periods.without_partners(roles), None
    return {
        "name": player.name,
        "games": {
            row.game: {
                **figures_from(row.game, row.tally or {}),
                "streak": {"current": row.streak_current, "longest": row.streak_longest},
                "roles": roles[row.game],
                "rating": rating_board.player_rating(player.id, row.game),
            }
            for row in sorted(rows, key=lambda row: list(GAMES).index(row.game))
            if (row.tally or {}).get("sessions_played")
        },
        "head_to_head": opponents,
        "rival": rival(opponents),
        "nemesis": nemesis(opponents),
        "partner": partner,
        "records": held,
    }


# -- reading the kept rows -------------------------------------------------------------------------


def figures_rows(query: Query, player_id: int | None) -> Sequence[PlayerFigures]:
    """Return the figures rows of the games asked for (one player's, or everyone's); with a
    period or players asked for, those figures counted over the matching sessions."""
    if query.filtered:
        return periods.figures_rows(query, player_id)
    select_rows = (
        select(PlayerFigures)
        .join(Player, Player.id == PlayerFigures.player_id)
        .where(PlayerFigures.game.in_(query.games()), in_group())
    )
    if player_id is not None:
        select_rows = select_rows.where(PlayerFigures.player_id == player_id)
    return db.session.scalars(select_rows).all()


def pair_rows(query: Query, player_id: int | None) -> Sequence[PairFigures]:
    """Return the pairs' rows of the games asked for (one player's pairs, or all); with a
    period or players asked for, counted over the matching sessions."""
    if query.filtered:
        return periods.pair_rows(query, player_id)
    select_rows = (
        select(PairFigures)
        .join(Player, Player.id == PairFigures.first_id)
        .where(PairFigures.game.in_(query.games()), in_group())
    )
    if player_id is not None:
        select_rows = select_rows.where(
            or_(PairFigures.first_id == player_id, PairFigures.second_id == player_id)
        )
    return db.session.scalars(select_rows).all()


def in_group() -> ColumnElement[bool]:
    """Return the condition that keeps the joined players to this request's group (+ 0: the
    figures' own index leads, never the group's, which would read every player of a group)."""
    return Player.group_id + 0 == current_group_id()


def player_names(ids: Iterable[int]) -> dict[int, str]:
    """Return the names of these players by id."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    found = db.session.execute(select(Player.id, Player.name).where(Player.id.in_(wanted)))
    return {row.id: row.name for row in found}


# -- figures ---------------------------------------------------------------------------------------


def standing(name: str, tally: Mapping[str, int]) -> Standing:
    """Return a player's line in the standings from their summed figures."""
    counted = tally.get("sessions_counted", 0)
    wins = tally.get("sessions_won", 0)
    return {
        "name": name,
        "sessions": counted,
        "wins": wins,
        "win_rate": average(wins, counted),
        "average_place": average(tally.get("session_place_sum", 0), counted),
        "points": tally.get("points", 0),
        "rounds": tally.get("rounds_played", 0),
        "hours": round(tally.get("played_seconds", 0) / 3600, 2),
    }


def head_to_head(pairs: Iterable[PairFigures], names: Mapping[int, str]) -> list[HeadToHead]:
    """Return each pair's head-to-head over the games asked for, by name (``names``: the players
    with figures in those games, which every pair's two players have: they sat at one)."""
    sums: dict[tuple[int, int], Tally] = {}
    for pair in pairs:
        key = (pair.first_id, pair.second_id)
        sums[key] = added(sums.get(key, {}), pair.tally or {})
    lines: list[HeadToHead] = [
        {
            "a": names[first],
            "b": names[second],
            "sessions": tally.get("sessions", 0),
            "a_ahead": tally.get("a_ahead", 0),
            "b_ahead": tally.get("b_ahead", 0),
            "tied": tally.get("tied", 0),
        }
        for (first, second), tally in sums.items()
        if tally.get("sessions")
    ]
    return sorted(lines, key=lambda line: (line["a"], line["b"]))


def opponents_of(
    player_id: int, pairs: Iterable[PairFigures], names: Mapping[int, str]
) -> list[Opponent]:
    """Return the player's head-to-head against each other player, seen from their side."""
    sums: dict[int, Tally] = {}
    for pair in pairs:
        mine = pair.first_id == player_id
        other = pair.second_id if mine else pair.first_id
        tally = pair.tally or {}
        seen = {
            "sessions": tally.get("sessions", 0),
            "ahead": tally.get("a_ahead" if mine else "b_ahead", 0),
            "behind": tally.get("b_ahead" if mine else "a_ahead", 0),
            "tied": tally.get("tied", 0),
        }
        sums[other] = added(sums.get(other, {}), seen)
    lines: list[Opponent] = [
        {
            "opponent": names[other],
            "sessions": tally.get("sessions", 0),
            "ahead": tally.get("ahead", 0),
            "behind": tally.get("behind", 0),
            "tied": tally.get("tied", 0),
        }
        for other, tally in sums.items()
        if tally.get("sessions")
    ]
    return sorted(lines, key=lambda line: (-line["sessions"], line["opponent"]))


#: the fewest counted sessions behind someone that make them a nemesis
NEMESIS_FROM = 3


def rival(opponents: Sequence[Opponent]) -> str | None:
    """Return the rival: most counted sessions together, then the closest record, then by name."""
    if not opponents:
        return None
    best = min(
        opponents,
        key=lambda line: (-line["sessions"], abs(line["ahead"] - line["behind"]), line["opponent"]),
    )
    return best["opponent"]


def nemesis(opponents: Sequence[Opponent]) -> str | None:
    """Return the nemesis: most counted sessions behind (at least three), then by name."""
    behind = [line for line in opponents if line["behind"] >= NEMESIS_FROM]
    if not behind:
        return None
    return min(behind, key=lambda line: (-line["behind"], line["opponent"]))["opponent"]


# -- records ---------------------------------------------------------------------------------------


def records(query: Query) -> list[Record]:
    """Return the records of the games asked for, each naming where it was set; with a period
    or players asked for, those set in the matching sessions."""
    streaks = periods.longest_streaks(query) if query.filtered else None
    found: list[Record] = []
    for game in query.games():
        for key in GAMES[game].kept_records():
            best = periods.best_mark(query, game, key) if query.filtered else best_mark(game, key)
            if best is not None:
                found.append(best)
        streak = longest_streak(game) if streaks is None else streaks.get(game)
        if streak is not None:
            found.append(streak)
    return found


def best_mark(game: str, key: str) -> Record | None:
    """Return the record of a key in a game: the first mark in its index (ties: set first)."""
    row = db.session.execute(
        select(Mark.value, Mark.session_id, Mark.number, Player.name)
        .join(Player, Player.id == Mark.player_id)
        .where(Mark.game == game, Mark.key == key, in_group())
        .order_by(Mark.rank, Mark.at, Mark.session_id, Mark.number)
        .limit(1)
    ).first()
    if row is None:
        return None
    return record_of(key, game, row.value, row.name, row.session_id, row.number)


def longest_streak(game: str) -> Record | None:
    """Return the longest win streak in a game (ties: whoever ended theirs first)."""
    row = db.session.execute(
        select(PlayerFigures.streak_longest, PlayerFigures.streak_longest_session, Player.name)
        .join(Player, Player.id == PlayerFigures.player_id)
        .join(GameSession, GameSession.id == PlayerFigures.streak_longest_session)
        .where(
            PlayerFigures.game == game,
            PlayerFigures.streak_longest > 0,
            in_group(),
        )
        .order_by(
            PlayerFigures.streak_longest.desc(),
            GameSession.last_round_at,
            GameSession.id,
            Player.name,
        )
        .limit(1)
    ).first()
    if row is None:
        return None
    return {
        "key": "longest_win_streak",
        "game": game,
        "value": row.streak_longest,
        "player": row.name,
        "session": row.streak_longest_session,
        "round": None,
    }
