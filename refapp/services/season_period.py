"""A statistics query's ``season`` (docs/API.md, "Seasons"): the one place a season becomes the
period it names. Every statistics route and page reads its query through ``period_args`` before
``stats_query.Query.of``, so ``?season=<name>`` is exactly its ``from`` and ``to``.

An unknown season, and a season asked together with ``from`` or ``to``, are
``422 invalid_value`` naming ``season``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from sqlalchemy import select

from ..extensions import db
from ..games.errors import MalformedInput, quote
from ..season_models import Season
from .values import has_control

#: the query parameter that names a season
PARAMETER = "season"


def find_season(group_id: int, name: str) -> Season | None:
    """Return the group's season of that name, if there is one."""
    found = select(Season).where(Season.group_id == group_id, Season.name == name)
    return db.session.scalars(found).one_or_none()


def period_args(args: Mapping[str, str], group_id: int) -> Mapping[str, str]:
    """Return a statistics query with its ``season`` read as the season's ``from`` and ``to``
    (the query unchanged without one); an unknown season, or one asked with dates, is refused."""
    text = (args.get(PARAMETER) or "").strip()
    if not text:
        return args
    if (args.get("from") or "").strip() or (args.get("to") or "").strip():
        raise MalformedInput(
            "invalid_value",
            "Ask for a season or for from and to, not both: {value} came with dates.",
            PARAMETER,
            value=quote(text),
        )
    name = unicodedata.normalize("NFC", text)
    season = find_season(group_id, name) if not has_control(name) else None
    if season is None:
        raise MalformedInput(
            "invalid_value", "There is no season {value}.", PARAMETER, value=quote(text)
        )
    rest = {key: value for key, value in args.items() if key != PARAMETER}
    return {**rest, "from": season.first_day.isoformat(), "to": season.last_day.isoformat()}
