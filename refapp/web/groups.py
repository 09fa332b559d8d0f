"""The groups' pages: the server's page that makes and lists groups (the server password), a
group's page (its join link and QR code, the organizer's sign-in, its password), the join link
that sends a device to its group and remembers it, and archiving a session (the organizer)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from .. import club, server_access
from ..games.errors import Refusal
from ..group_backup import backup_download
from ..group_models import Group
from ..organizer import require_organizer
from ..services import groups
from . import bp
from .join import group_join_link

#: the cookie that remembers the group a device joined: ``/`` on it opens that group
COOKIE = "refapp_group"
#: how long a device remembers its group (a year, in seconds)
REMEMBERED = 365 * 24 * 3600


def group_home(slug: str) -> str:
    """Return the address of a group's sessions page (the default group's: the server's own)."""
    base = request.environ.get(club.BASE_KEY, request.script_root)
    return f"{base}/" if slug == "default" else f"{base}/g/{slug}/"


@bp.get("/join/<code>")
def join_group(code: str) -> ResponseReturnValue:
    """Send a device that scanned a group's code to the group, and remember it there."""
    group = groups.group_by_code(code)
    if group is None:
        abort(404)
    response = redirect(group_home(group.slug))
    response.set_cookie(COOKIE, group.slug, max_age=REMEMBERED, httponly=True, samesite="Lax")
    return response


def remembered_group() -> Response | None:
    """Open the group a device joined when it asks for the server's own ``/``."""
    if request.endpoint != "web.index" or request.environ.get(club.ENVIRON_KEY) is not None:
        return None
    slug = request.cookies.get(COOKIE, "")
    if slug == "default" or club.SLUG.fullmatch(slug) is None or not groups.exists(slug):
        return None  # a group since deleted: the server's own page
    return redirect(group_home(slug))


bp.before_app_request(remembered_group)


@bp.get("/group")
def group_page() -> ResponseReturnValue:
    """Show the group: its join link and QR code, the organizer's sign-in and password form."""
    group = club.current_group()
    link = group_join_link(group.join_code if group is not None else "default")
    return render_template("group.html", link=link, error=None)


@bp.post("/group/password")
def change_group_password() -> ResponseReturnValue:
    """Change the group's table password (its organizer): its devices sign in again."""
    require_organizer()
    try:
        groups.change_password(request.form.get("password") or None)
    except Refusal as refusal:
        group = club.current_group()
        link = group_join_link(group.join_code if group is not None else "default")
        return render_template("group.html", link=link, error=refusal.message), 422
    flash(_("The group's password is changed: its devices sign in again."))
    return redirect(url_for("web.group_page"))


@bp.get("/backup")
def group_backup() -> ResponseReturnValue:
    """Download the group's backup (its organizer, signed in on the group's page)."""
    require_organizer()
    return backup_download()


@bp.post("/sessions/<int:session_id>/archive")
def archive_session(session_id: int) -> ResponseReturnValue:
    """Archive a session or bring it back (its organizer)."""
    require_organizer()
    session = groups.set_archived(session_id, request.form.get("archived") == "1")
    if session.archived:
        flash(_("Archived: the session left the lists; its statistics stay."))
    return redirect(url_for("web.show_session", session_id=session_id))


#: the status of a server-password refusal on the groups page
REFUSED_STATUS = {"groups_off": 403, "password_required": 401, "too_many_attempts": 429}


def groups_view(
    listed: list[groups.Listed] | None, made: Group | None, error: str | None, status: int
) -> ResponseReturnValue:
    """Render the server's groups page."""
    shown = render_template(
        "groups.html", group_home=group_home, listed=listed, made=made, error=error
    )
    return shown, status


def new_group_body() -> dict[str, object]:
    """Return the new group the form asks for, as ``POST /api/groups`` takes it."""
    return {
        "name": request.form.get("name"),
        "slug": request.form.get("slug") or None,
        "password": request.form.get("password") or None,
        "organizer_password": request.form.get("organizer_password") or None,
    }


@bp.route("/groups", methods=["GET", "POST"])
def groups_page() -> ResponseReturnValue:
    """The server's groups (the server password): list them, and make one."""
    if request.method == "GET":
        return groups_view(None, None, None, 200)
    refusal = server_access.check(request.form.get("server_password"))
    if refusal is not None:
        return groups_view(None, None, refusal.message, REFUSED_STATUS.get(refusal.code, 401))
    made, error = None, None
    if request.form.get("name"):
        try:
            made = groups.create_group(new_group_body())
        except Refusal as refused:
            error = refused.message
    return groups_view(groups.list_groups(), made, error, 422 if error else 200)
