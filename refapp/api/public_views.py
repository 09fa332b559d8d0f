"""Public views over the API (docs/API.md, "Public views"): the organizer makes a read-only
link to a session or to the group (its token shown once, in ``url``), lists and revokes them."""

from __future__ import annotations

from flask import url_for
from flask.typing import ResponseReturnValue

from .. import club
from ..organizer import require_organizer
from ..services import public_views
from . import bp


def made(session_id: int | None) -> ResponseReturnValue:
    """Make a public view and answer 201 with its link (the only time the token is shown)."""
    require_organizer()
    view, token = public_views.make_view(club.current_group_id(), session_id)
    url = url_for("web.public_view", token=token, _external=True)
    return {"public_view": {**public_views.view_dict(view), "url": url}}, 201


@bp.post("/sessions/<int:session_id>/public-view")
def make_session_view(session_id: int) -> ResponseReturnValue:
    """Make a read-only link to a session's live scoreboard."""
    return made(session_id)


@bp.post("/public-views")
def make_group_view() -> ResponseReturnValue:
    """Make a read-only link to the group's sessions and standings."""
    return made(None)


@bp.get("/public-views")
def list_views() -> ResponseReturnValue:
    """List the group's public views, newest first (their tokens are not kept)."""
    require_organizer()
    return {"public_views": public_views.list_views(club.current_group_id())}


@bp.delete("/public-views/<int:view_id>")
def revoke_view(view_id: int) -> ResponseReturnValue:
    """Revoke a public view: its link answers 404 from now on."""
    require_organizer()
    public_views.revoke_view(club.current_group_id(), view_id)
    return "", 204
