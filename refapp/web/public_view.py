"""Public views (``/view/<token>``): a read-only page for a screen that only watches - a
session's live scoreboard or the group's sessions and standings - kept in step the way the
session page is (live.js polls ``/view/<token>/version`` with ``If-None-Match`` and swaps the
page's ``<main>`` in on a new version); and the organizer's page that makes and revokes them.

The page carries no form, button or field and links nowhere into the app: a watcher can only
watch. A revoked or unknown token, or one of another group, answers 404.
"""

from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import club, services
from ..games import GAMES
from ..games.standings import places
from ..organizer import require_organizer
from ..season_models import PublicView
from ..services import public_views
from ..services.answers import poll_matches
from ..services.statistics import Query, group_stats
from . import bp
from .forms import ButtonForm
from .helpers import session_or_404
from .join import link_to
from .sessions import standings

#: the rounds a session's view lists (the newest first)
ROUNDS_SHOWN = 5
#: the sessions and players a group's view lists
SESSIONS_SHOWN, PLAYERS_SHOWN = 8, 12
#: what every answer of a view carries: never cached, and its address never sent on
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def view_or_404(token: str) -> PublicView:
    """Return the public view a token opens in this group, or answer 404."""
    view = public_views.find_view(token)
    if view is None or view.group_id != club.current_group_id():
        abort(404)
    return view


def version_of(view: PublicView) -> str:
    """Return what the page follows: its session's version, or the group's sessions' tag."""
    if view.session_id is None:
        return public_views.group_version(club.current_group_id())
    found = public_views.session_version(view.session_id)
    if found is None:
        abort(404)
    return str(found)


def session_page(view: PublicView, token: str) -> str:
    """Render a session's scoreboard: standings, the newest rounds, its version to follow."""
    assert view.session_id is not None
    seen = session_or_404(view.session_id, ROUNDS_SHOWN)
    return render_template(
        "public_view.html",
        seen=seen,
        ranked=standings(seen),
        places=places(seen.table.players, seen.totals),
        rounds=list(reversed(seen.rounds)),
        live_view={
            "version": seen.session.version,
            "poll": url_for("web.public_view_version", token=token),
        },
    )


def group_page(token: str) -> str:
    """Render the group's newest sessions and its standings, with the tag to follow."""
    found = services.list_sessions(services.SessionFilter(per_page=SESSIONS_SHOWN)).sessions
    standings = group_stats(Query())["players"][:PLAYERS_SHOWN]
    return render_template(
        "public_group_view.html",
        sessions=found,
        standings=standings,
        titles={slug: game.title for slug, game in GAMES.items()},
        live_view={
            "version": public_views.group_version(club.current_group_id()),
            "poll": url_for("web.public_view_version", token=token),
        },
    )


@bp.get("/view/<token>")
def public_view(token: str) -> ResponseReturnValue:
    """Show a public view: a session's scoreboard or the group's sessions and standings."""
    view = view_or_404(token)
    page = group_page(token) if view.session_id is None else session_page(view, token)
    return page, 200, PRIVATE


@bp.get("/view/<token>/version")
def public_view_version(token: str) -> ResponseReturnValue:
    """Tell the version a public view shows (304 when ``If-None-Match`` names it)."""
    version = version_of(view_or_404(token))
    tag = f'"{version}"'
    if poll_matches(request.headers.get("If-None-Match", ""), version):
        return Response(status=304, headers={"ETag": tag, **PRIVATE})
    return {"version": version}, 200, {"ETag": tag, **PRIVATE}


# -- the organizer's page --------------------------------------------------------------------------


def views_page(status: int = 200, made: dict[str, object] | None = None) -> ResponseReturnValue:
    """Render the group's public views with what makes and revokes them."""
    wanted = request.values.get("session", type=int)
    return render_template(
        "public_views.html",
        views=public_views.list_views(club.current_group_id()),
        session_id=wanted,
        button=ButtonForm(formdata=None),
        made=made,
    ), status


@bp.get("/public-views")
def list_public_views() -> ResponseReturnValue:
    """Show the organizer the group's public views (``?session=N``: offer one of session N)."""
    require_organizer()
    return views_page()


@bp.post("/public-views")
def make_public_view() -> ResponseReturnValue:
    """Make a public view of the session posted (none: of the group); show its link once."""
    require_organizer()
    if not ButtonForm().validate_on_submit():
        return views_page(400)
    view, token = public_views.make_view(
        club.current_group_id(), request.form.get("session", type=int)
    )
    link = link_to(url_for("web.public_view", token=token))
    return views_page(201, {"url": link.url, "svg": link.svg, "session": view.session_id})


@bp.post("/public-views/<int:view_id>/revoke")
def revoke_public_view(view_id: int) -> ResponseReturnValue:
    """Revoke a public view: its link answers 404 from now on."""
    require_organizer()
    if not ButtonForm().validate_on_submit():
        return views_page(400)
    public_views.revoke_view(club.current_group_id(), view_id)
    flash(_("The link is revoked: it shows nothing any more."))
    return redirect(url_for("web.list_public_views"))
