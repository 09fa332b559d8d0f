"""API routes for players across sessions: the roster, a player's figures, renaming.

A player is addressed by a path (``/api/players/<name>``), or by ``?name=`` on ``/api/player``
for a name a client or server would change as a path (``a/../Ann``, ``a//b``).
"""

from flask import request
from flask.typing import ResponseReturnValue

from .. import services
from ..bodies import json_body
from ..organizer import require_organizer
from ..services import players as roster
from ..services import statistics
from . import bp
from .seasons import asked_query
from .views import if_match


@bp.get("/players")
def list_players() -> ResponseReturnValue:
    """List every player with sessions played and won and the games played."""
    return {"players": services.list_players()}


def with_tag(name: str) -> ResponseReturnValue:
    """Answer a player's profile with their entity tag, the ETag a rename's If-Match names."""
    profile, tag = roster.tagged_profile(name)
    return profile, 200, {"ETag": f'"{tag}"'}


@bp.get("/players/<path:name>")
def get_player(name: str) -> ResponseReturnValue:
    """Show a player's record overall and per game, and their sessions."""
    return with_tag(name)


@bp.get("/player")
def get_player_by_query() -> ResponseReturnValue:
    """Show the player named in ?name=."""
    return get_player(request.args.get("name", ""))


@bp.post("/players/<path:name>/rename")
def rename_player(name: str) -> ResponseReturnValue:
    """Rename a player, or merge them into the player who has the new name."""
    roster.find_player(name)  # another group's player: 404 before the organizer's 403
    require_organizer()  # renaming and merging are the group's organizer's
    expected = if_match()
    body = json_body()
    player, _ = roster.rename_player(name, body.get("name"), expected=expected)
    return with_tag(player.name)


@bp.post("/player/rename")
def rename_player_by_query() -> ResponseReturnValue:
    """Rename the player named in ?name=, or merge them into the player who has the new name."""
    return rename_player(request.args.get("name", ""))


@bp.get("/stats")
def group_stats() -> ResponseReturnValue:
    """Show the group's standings, head-to-head, records and ratings (``?game=``)."""
    return dict(statistics.group_stats(asked_query()))


@bp.get("/players/<path:name>/stats")
def player_stats(name: str) -> ResponseReturnValue:
    """Show a player's own statistics: figures, streaks, head-to-head and records held."""
    return dict(statistics.player_stats(name, asked_query()))


@bp.get("/player/stats")
def player_stats_by_query() -> ResponseReturnValue:
    """Show the statistics of the player named in ?name=."""
    return player_stats(request.args.get("name", ""))
