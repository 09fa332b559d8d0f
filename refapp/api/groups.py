"""API routes for the server's groups (the server password) and a group's own settings (its
organizer): ``POST``/``GET /api/groups``, ``PUT /api/group/password``, archiving a session."""

from flask import Response, url_for
from flask.typing import ResponseReturnValue

from .. import club, server_access
from ..bodies import json_body
from ..group_backup import backup_download
from ..organizer import require_organizer
from ..services import groups
from . import bp


def join_url(code: str) -> str:
    """Return a group's join link (absolute, at the address this request reached)."""
    return url_for("web.join_group", code=code, _external=True)


@bp.get("/backup")
def group_backup() -> ResponseReturnValue:
    """Download the group's backup (its organizer): its players, sessions and saved rules, as
    ``flask backup --group`` writes it and ``flask restore --group`` reads it."""
    require_organizer()
    return backup_download()


@bp.post("/groups")
def create_group() -> ResponseReturnValue:
    """Make a group (the server password): 201 with its slug, name and join link."""
    refused = server_access.guard_api()
    if isinstance(refused, Response):
        return refused
    group = groups.create_group(json_body())
    made = {"slug": group.slug, "name": group.name, "join_url": join_url(group.join_code)}
    return {"group": made}, 201


@bp.get("/groups")
def list_groups() -> ResponseReturnValue:
    """List the server's groups with their sessions and players counted (the server password)."""
    refused = server_access.guard_api()
    if isinstance(refused, Response):
        return refused
    return {"groups": groups.list_groups()}


@bp.put("/group/password")
def change_group_password() -> ResponseReturnValue:
    """Change the group's table password (its organizer): every device of it signs in again."""
    require_organizer()
    groups.change_password(json_body().get("password"))
    return {"password": club.has_password()}


@bp.put("/sessions/<int:session_id>/archived")
def archive_session(session_id: int) -> ResponseReturnValue:
    """Archive a session (out of the lists, still counted) or bring it back (its organizer)."""
    require_organizer()
    session = groups.set_archived(session_id, json_body().get("archived"))
    return {"id": session.id, "archived": session.archived}


@bp.get("/group")
def show_group() -> ResponseReturnValue:
    """Show the group this address names: its slug, name and whether it has passwords."""
    group = club.current_group()
    slug, name = (group.slug, group.name) if group is not None else ("default", "Default")
    code = group.join_code if group is not None else None
    return {
        "slug": slug,
        "name": name,
        "password": club.has_password(),
        "organizer_password": club.has_organizer(),
        "join_url": join_url(code) if code and club.is_organizer() else None,
    }
