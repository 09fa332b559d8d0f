"""Reading the ratings every write keeps (services/ratings.py): the leaderboard of a game and a
player's rating with its history, each a bounded read of an index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from sqlalchemy import select

from ..club import current_group_id
from ..extensions import db
from ..models import Player, PlayerRating, RatingStep
from .statistics_shapes import Rating
from .stored_rounds import iso

#: the most points of a rating's history an answer gives (the newest)
HISTORY = 200


class Point(TypedDict):
    """A point of a rating's history: after a session, the rating shown."""

    at: str | None
    display: float


class PlayerRatingShape(TypedDict):
    """A player's rating in one game, with its history (a point per rated session)."""

    mu: float
    sigma: float
    display: float
    rated: int
    history: list[Point]


def shown(value: float) -> float:
    """Return a rating's shown value: two decimals."""
    return round(value, 2)


def board(games: Sequence[str]) -> list[Rating]:
    """Return every rated player's rating in these games, the highest shown first."""
    rows = db.session.execute(
        select(PlayerRating, Player.name)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(PlayerRating.game.in_(games), Player.group_id + 0 == current_group_id())
    ).all()
    lines: list[Rating] = [
        {
            "name": name,
            "game": row.game,
            "mu": round(row.mu, 4),
            "sigma": round(row.sigma, 4),
            "display": shown(row.display),
            "rated": row.rated,
        }
        for row, name in rows
    ]
    return sorted(lines, key=lambda line: (-line["display"], line["game"], line["name"]))


def player_rating(player_id: int, game: str) -> PlayerRatingShape | None:
    """Return a player's rating in a game with the newest ``HISTORY`` points (None: unrated)."""
    row = db.session.get(PlayerRating, (game, player_id))
    if row is None:
        return None
    points = db.session.execute(
        select(RatingStep.at, RatingStep.mu, RatingStep.sigma)
        .where(
            RatingStep.player_id == player_id,
            RatingStep.game == game,
            RatingStep.closes.is_(True),
        )
        .order_by(RatingStep.at.desc(), RatingStep.session_id.desc())
        .limit(HISTORY)
    ).all()
    return {
        "mu": round(row.mu, 4),
        "sigma": round(row.sigma, 4),
        "display": shown(row.display),
        "rated": row.rated,
        "history": [
            {"at": iso(point.at), "display": shown(point.mu - 3 * point.sigma)}
            for point in reversed(points)
        ],
    }
