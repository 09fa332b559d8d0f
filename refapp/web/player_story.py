"""A player's story on their page: their statistics per game for the period asked for (the
statistics service, a bounded read), each game's rating chart, and the period links."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import request
from flask_babel import lazy_gettext as _l

from ..games.errors import MalformedInput
from ..services.statistics import player_stats
from ..services.statistics_shapes import PlayerStats
from .chart import RatingChart, rating_chart
from .game_pages import Words
from .stats import Asked, asked, period_links, read_query

#: a player's story in each game, as the page words it: (the figure's key, its words)
STORY = (
    ("sessions_counted", _l("Counted sessions")),
    ("sessions_won", _l("Wins")),
    ("win_rate", _l("Win rate")),
    ("average_place", _l("Average place")),
    ("hours", _l("Hours")),
)
#: what a player page reads of its query: the period (the rest belongs to /stats)
ASKED = ("season", "from", "to")


@dataclass
class Story:
    """What the player page shows of a player's statistics, and the period it covers."""

    stats: PlayerStats
    read: Asked
    periods: list[dict[str, object]]
    charts: dict[str, RatingChart | None]
    words: tuple[tuple[str, Words], ...] = STORY

    @property
    def refusal(self) -> MalformedInput | None:
        """Return the refusal of a field of the query, if one was refused."""
        return self.read.refusal


def rating_of(figures: Mapping[str, object]) -> Mapping[str, object] | None:
    """Return a game's rating from the player's figures, if they have one."""
    rating = figures.get("rating")
    return rating if isinstance(rating, Mapping) else None


def chart_of(figures: Mapping[str, object]) -> RatingChart | None:
    """Return the chart of a game's rating history (None without two values to draw)."""
    rating = rating_of(figures)
    history = rating.get("history") if rating else None
    if not isinstance(history, list):
        return None
    return rating_chart([point for point in history if isinstance(point, Mapping)])


def story_of(name: str, path: str) -> Story:
    """Return a player's story for the period asked for (a refused date stands by its field,
    and the story is then told for the fields that were not refused)."""
    wanted = {key: value for key, value in asked(request.args).items() if key in ASKED}
    read = read_query(wanted)
    stats = player_stats(name, read.query)
    charts = {slug: chart_of(figures) for slug, figures in stats["games"].items()}
    return Story(stats, read, period_links(read.kept, path), charts)
