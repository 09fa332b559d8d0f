"""The statistics page (``/stats``): the group's standings, head-to-head grid, records board and
rating leaderboard for a game, a period and a chosen set of players; what the player page shares.

Both pages read the statistics service only (services/statistics.py), which reads a bounded
number of rows whatever the history; a query the service refuses stands next to its field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlencode

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal, format_percent
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from .. import club
from ..games import GAMES
from ..games.errors import MalformedInput
from ..models import utcnow
from ..services import listing
from ..services import players as roster
from ..services.season_period import period_args
from ..services.seasons import list_seasons
from ..services.statistics import Query, group_stats
from ..services.statistics_shapes import GroupStats, HeadToHead, Rating, Record
from . import bp
from .game_pages import PAGES, Words

#: the query a statistics page reads, in the order its fields stand on the page
FIELDS = ("game", "players", "season", "from", "to")
#: the head-to-head grid's players at most (the first in the standings): its columns fit a phone
GRID_MOST = 8
#: the records every game keeps, as the pages name them (a game names its own: ``record_words``)
RECORD_WORDS: dict[str, Words] = {
    "highest_total": _l("Highest final total"),
    "best_round": _l("Best round"),
    "worst_round": _l("Worst round"),
    "longest_win_streak": _l("Longest win streak"),
}


@dataclass(frozen=True)
class Period:
    """A period a page offers as a link: its words, its first and last day (None: open)."""

    words: Words
    first: date | None
    last: date | None

    def args(self) -> dict[str, str]:
        """Return the query's dates for this period (none for all time)."""
        dates = {"from": self.first, "to": self.last}
        return {key: day.isoformat() for key, day in dates.items() if day is not None}


def periods(today: date) -> list[Period]:
    """Return the periods every statistics page offers: this evening, month, year, all time."""
    return [
        Period(_l("This evening"), today, today),
        Period(_l("This month"), today.replace(day=1), today),
        Period(_l("This year"), today.replace(month=1, day=1), today),
        Period(_l("All time"), None, None),
    ]


def asked(args: MultiDict[str, str]) -> dict[str, str]:
    """Return the query a page was asked for: game, dates, and the players chosen (``players``
    once with commas, or once per chip ticked), joined as the service reads them."""
    wanted = {key: (args.get(key) or "").strip() for key in FIELDS}
    names = [name.strip() for value in args.getlist("players") for name in value.split(",")]
    wanted["players"] = ",".join(dict.fromkeys(name for name in names if name))
    return {key: value for key, value in wanted.items() if value}


@dataclass
class Asked:
    """A page's statistics query: what was asked, what the service took (a refused field left
    out), and the first refusal, to stand next to its field."""

    wanted: dict[str, str]
    kept: dict[str, str]
    query: Query
    refusal: MalformedInput | None = None


def read_query(wanted: Mapping[str, str]) -> Asked:
    """Return the service's query for what was asked (a season read as its days); a refused
    field is left out."""
    first: MalformedInput | None = None
    kept, group = dict(wanted), club.current_group_id()
    for _field in range(len(FIELDS) + 1):
        try:
            return Asked(dict(wanted), kept, Query.of(period_args(kept, group)), first)
        except MalformedInput as refusal:
            first = first or refusal
            if refusal.field not in kept:
                break
            del kept[refusal.field]
    return Asked(dict(wanted), {}, Query.of({}), first)


def period_links(wanted: Mapping[str, str], path: str) -> list[dict[str, object]]:
    """Return each period as a link to ``path`` keeping the rest of the query, and whether it
    is the one shown (the dates asked for are exactly its dates)."""
    rest = query_without(wanted, "from", "to", "season")
    asked_dates = {key: wanted[key] for key in ("from", "to") if key in wanted}
    links: list[dict[str, object]] = []
    for period in periods(utcnow().date()):
        dates = period.args()
        query = urlencode({**rest, **dates})
        links.append(
            {
                "words": period.words,
                "href": f"{path}?{query}" if query else path,
                "chosen": dates == asked_dates and "season" not in wanted,
            }
        )
    return links + season_links(wanted, path)


def season_links(wanted: Mapping[str, str], path: str) -> list[dict[str, object]]:
    """Return the group's seasons as links to ``path`` keeping the rest of the query (one
    bounded read: a group names a few), and whether it is the one shown."""
    rest = query_without(wanted, "from", "to", "season")
    return [
        {
            "words": season["name"],
            "href": f"{path}?{urlencode({**rest, 'season': season['name']})}",
            "chosen": wanted.get("season") == season["name"],
        }
        for season in list_seasons(club.current_group_id())
    ]


def query_without(wanted: Mapping[str, str], *keys: str) -> dict[str, str]:
    """Return the query asked for without some of its fields (a link that changes them)."""
    return {key: value for key, value in wanted.items() if key not in keys}


def record_name(record: Record) -> str:
    """Return a record's name in the reader's language."""
    words = RECORD_WORDS.get(record["key"])
    if words is None:
        own = PAGES.get(record["game"])
        words = own.record_words.get(record["key"]) if own else None
    return str(words) if words is not None else record["key"]


def record_url(record: Record) -> str | None:
    """Return where a record was set: its round on its session's page (the page of the
    history holding it), or the session for a session's total or a streak."""
    if record["session"] is None:
        return None
    if record["round"] is None:
        return url_for("web.show_session", session_id=record["session"], _anchor="standings")
    number = record["round"]
    return url_for(
        "web.show_session", session_id=record["session"], upto=number, _anchor=f"round-{number}"
    )


def number(value: object, share: bool = False) -> str:
    """Write a figure in the reader's language: a share as a percentage, none as a dash."""
    if value is None:
        return "\u2013"
    if share:
        return str(format_percent(value))
    if isinstance(value, float):
        return str(format_decimal(value, format="0.00"))
    return str(value)


def grid(lines: Iterable[HeadToHead], names: list[str]) -> dict[tuple[str, str], tuple[int, ...]]:
    """Return the head-to-head grid's cells by (row, column): ahead, behind, tied, as the row's
    player stands against the column's."""
    cells: dict[tuple[str, str], tuple[int, ...]] = {}
    shown = set(names)
    for line in lines:
        a, b = line["a"], line["b"]
        if a in shown and b in shown:
            cells[(a, b)] = (line["a_ahead"], line["b_ahead"], line["tied"])
            cells[(b, a)] = (line["b_ahead"], line["a_ahead"], line["tied"])
    return cells


def ratings_by_game(ratings: Iterable[Rating]) -> dict[str, list[Rating]]:
    """Return the rating leaderboard per game, in the games' order (best first within)."""
    found: dict[str, list[Rating]] = {slug: [] for slug in GAMES}
    for rating in ratings:
        found.setdefault(rating["game"], []).append(rating)
    return {slug: rows for slug, rows in found.items() if rows}


def last_table() -> list[str]:
    """Return the players of the newest session (one bounded read), for a "this table" link."""
    return listing.newest_players()


def chooser_names(stats: GroupStats) -> list[str]:
    """Return the names a "this table" chooser offers: every player seated at a session."""
    named = [row["name"] for row in roster.list_players() if row["sessions_played"]]
    return named or [row["name"] for row in stats["players"]]


bp.add_app_template_global(record_name, "record_name")
bp.add_app_template_global(record_url, "record_url")
bp.add_app_template_global(number, "stat_number")
bp.add_app_template_global(query_without, "query_without")


@bp.get("/stats")
def stats() -> ResponseReturnValue:
    """Show the group's standings, head-to-head grid, records and ratings for what was asked."""
    read = read_query(asked(request.args))
    wanted = read.wanted
    found = group_stats(read.query)
    shown = [row["name"] for row in found["players"]][:GRID_MOST]
    chosen = wanted.get("players", "").split(",") if "players" in wanted else []
    return render_template(
        "stats.html",
        stats=found,
        read=read,
        wanted=wanted,
        refusal=read.refusal,
        periods=period_links(read.kept, url_for("web.stats")),
        games=GAMES.values(),
        names=chooser_names(found),
        chosen=chosen,
        table=last_table(),
        grid_names=shown,
        grid_more=len(found["players"]) > len(shown),
        cells=grid(found["head_to_head"], shown),
        ratings=ratings_by_game(found["ratings"]),
    ), (422 if read.refusal else 200)
