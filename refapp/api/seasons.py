"""Seasons over the API (docs/API.md, "Seasons"): the group's named periods, listed by anyone,
named, moved and forgotten by the organizer."""

from __future__ import annotations

from flask import request
from flask.typing import ResponseReturnValue

from .. import club
from ..bodies import json_body
from ..organizer import require_organizer
from ..services import seasons
from ..services.season_period import period_args
from ..services.statistics import Query
from . import bp


def asked_query() -> Query:
    """Return a statistics route's query, its ``season`` read as the season's days."""
    return Query.of(period_args(request.args, club.current_group_id()))


@bp.get("/seasons")
def list_seasons() -> ResponseReturnValue:
    """List the group's seasons, the earliest first."""
    return {"seasons": seasons.list_seasons(club.current_group_id())}


@bp.put("/seasons/<path:name>")
def put_season(name: str) -> ResponseReturnValue:
    """Name a season (201) or move its days (200): ``{"from", "to"}``."""
    require_organizer()
    found, created = seasons.put_season(club.current_group_id(), name, json_body())
    return {"season": found}, 201 if created else 200


@bp.delete("/seasons/<path:name>")
def delete_season(name: str) -> ResponseReturnValue:
    """Forget a season (204); its sessions and figures are untouched."""
    require_organizer()
    seasons.delete_season(club.current_group_id(), name)
    return "", 204
