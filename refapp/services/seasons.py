"""Seasons (docs/API.md, "Seasons"): a group's named date ranges ("Spring 2027") that the
statistics, the standings and the review take as a period.

A season is its first and last UTC day, inclusive, exactly as ``from`` and ``to``:
``?season=<name>`` is read into those two days (``season_period.period_args``) before the
statistics query reads them, so a season gives the very figures its dates give.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TypedDict

from sqlalchemy import select

from ..extensions import db
from ..games.errors import Conflict, MalformedInput, NotFound, quote
from ..season_models import Season
from . import writes
from .season_period import find_season
from .stats_query import day, in_order
from .values import shown_name

#: the longest name a season takes, after trimming
NAME_MAX = 40


#: a season as the API and the pages show it (``from`` and ``to``: ISO days)
SeasonShape = TypedDict("SeasonShape", {"name": str, "from": str, "to": str})


def season_dict(season: Season) -> SeasonShape:
    """Return a season as the API shows it: its name, its first and last day."""
    return {
        "name": season.name,
        "from": season.first_day.isoformat(),
        "to": season.last_day.isoformat(),
    }


def season_name(raw: object, where: str = "name") -> str:
    """Return a season's name trimmed and NFC (1..40 printable characters), or raise."""
    name = shown_name(raw, NAME_MAX)
    if name is None:
        raise MalformedInput(
            "invalid_value",
            "A season's name has 1 to {most} printable characters after trimming, not {value}.",
            where,
            most=NAME_MAX,
            value=quote(raw),
        )
    return name


def body_day(body: Mapping[str, object], key: str) -> date:
    """Return the day a body's ``from`` or ``to`` names, or raise naming the field."""
    raw = body.get(key)
    if raw is not None and not isinstance(raw, str):
        raise MalformedInput(
            "invalid_value",
            "{value} is not a date; write a day as 2026-11-27.",
            key,
            value=quote(raw),
        )
    found = day({key: raw}, key) if raw is not None else None
    if found is None:
        raise MalformedInput(
            "missing_field", "A season needs {part}: a day written as 2026-11-27.", key, part=key
        )
    return found


def season_days(body: object) -> tuple[date, date]:
    """Return the first and last day a season's body names (``from`` <= ``to``), or raise."""
    if not isinstance(body, Mapping):
        raise MalformedInput(
            "invalid_value",
            "A season is an object with from and to, not {value}.",
            "body",
            value=quote(body),
        )
    first, last = body_day(body, "from"), body_day(body, "to")
    in_order(first, last)
    return first, last


def list_seasons(group_id: int) -> list[SeasonShape]:
    """Return the group's seasons, the earliest first (then by name)."""
    found = db.session.scalars(
        select(Season)
        .where(Season.group_id == group_id)
        .order_by(Season.first_day, Season.last_day, Season.name)
    )
    return [season_dict(season) for season in found]


@writes.transaction()
def put_season(group_id: int, raw_name: object, body: object) -> tuple[SeasonShape, bool]:
    """Name a season or move its days; return it and whether it is new."""
    name = season_name(raw_name)
    first, last = season_days(body)
    writes.begin_write()
    season = find_season(group_id, name)
    created = season is None
    if season is None:
        season = Season(group_id=group_id, name=name, first_day=first, last_day=last)
        db.session.add(season)
    season.first_day, season.last_day = first, last
    writes.commit(Conflict("lost_race", "Another device named this season at the same moment."))
    return season_dict(season), created


@writes.transaction()
def delete_season(group_id: int, raw_name: object) -> None:
    """Forget a season (the sessions of its days are not touched); an unknown one: not_found."""
    name = season_name(raw_name)
    writes.begin_write()
    season = find_season(group_id, name)
    if season is None:
        raise NotFound("There is no season {value}.", "name", value=quote(name))
    db.session.delete(season)
    writes.commit()
