"""Pages for players across sessions: the roster, a player's figures per game, renaming."""

from __future__ import annotations

import base64

from flask import abort, flash, redirect, render_template, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal, format_percent
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.routing import PathConverter
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from ..games import GAMES
from ..games.errors import Refusal
from ..organizer import require_organizer
from ..services import NAME_MAX, writes
from ..services import players as roster
from ..services.player_shapes import PlayerProfile
from . import bp
from .forms import add_error
from .forms.voice import AppForm
from .game_pages import PAGES
from .helpers import FORM_REFUSALS
from .player_story import story_of

#: the figures every game shares, as the page words them
RECORD = (
    ("sessions_played", _l("Sessions played")),
    ("sessions_won", _l("Sessions won")),
    ("rounds_played", _l("Rounds played")),
    ("points", _l("Points")),
    ("average_points", _l("Points per round")),
)


class PlayerName(PathConverter):
    """A player's name in a path: any text, slashes too, even leading or doubled ("/", "a//b")."""

    regex = ".+?"
    #: the regex holds no "/", which would make Werkzeug match a single path segment only
    part_isolating = False


@bp.record_once
def add_player_name_converter(state: BlueprintSetupState) -> None:
    """Teach the app's URL map the ``player_name`` converter, before the routes below use it."""
    state.app.url_map.converters["player_name"] = PlayerName


class RenameForm(AppForm):
    """Rename a player (fix a typo), or merge them into the player who has the new name."""

    name = StringField(
        _l("New name"),
        [InputRequired(message=_l("Write the new name.")), Length(max=NAME_MAX)],
        render_kw={"autocapitalize": "words", "autocomplete": "off"},
    )


def titles() -> dict[str, str]:
    """Return each game's title (translated where shown), by slug."""
    return {slug: game.title for slug, game in GAMES.items()}


def figure(key: str, value: object, shares: tuple[str, ...] = ()) -> str:
    """Write a figure as the reader's language does: a share as a percentage, none as a dash."""
    if value is None:
        return "\u2013"
    if key in shares:
        return str(format_percent(value))
    if isinstance(value, float):
        return str(format_decimal(value, format="0.00"))
    return str(value)


def profile_or_404(name: str) -> PlayerProfile:
    """Return a player's profile, or answer 404 (a database busy past its timeout is 503)."""
    try:
        return roster.player_profile(name)
    except writes.Busy:
        raise
    except Refusal:
        abort(404)


def render_player(
    profile: PlayerProfile, form: RenameForm, status: int = 200
) -> ResponseReturnValue:
    """Render a player's page: their story for the period asked for, and the rename form."""
    story = story_of(profile["name"], player_url(profile["name"]))
    return render_template(
        "players/show.html",
        player=profile,
        story=story,
        form=form,
        record=RECORD,
        pages=PAGES,
        figure=figure,
        titles=titles(),
    ), (422 if story.refusal else status)


def path_keeps(name: str) -> bool:
    """Return True when a name survives as a path: no empty, ``.`` or ``..`` segment to fold."""
    return all(part not in ("", ".", "..") for part in name.split("/"))


def token(name: str) -> str:
    """Return a name as a path segment a browser or server keeps: URL-safe base64, no padding."""
    return base64.urlsafe_b64encode(name.encode()).rstrip(b"=").decode()


def name_of(segment: str) -> str:
    """Return the name a token stands for, or answer 404."""
    try:
        padded = segment + "=" * (-len(segment) % 4)
        name = base64.b64decode(padded, altchars=b"-_", validate=True).decode()
    except (ValueError, UnicodeError):
        abort(404)
    if token(name) != segment:
        abort(404)
    return name


@bp.app_template_global()
def player_url(name: str) -> str:
    """Return a player's page: /players/<name>, or /player/<token> for a name a path would fold."""
    if path_keeps(name):
        return url_for("web.show_player", name=name)
    return url_for("web.show_player_by_token", segment=token(name))


@bp.app_template_global()
def rename_url(name: str) -> str:
    """Return where a player's rename form posts, addressed as their page is."""
    if path_keeps(name):
        return url_for("web.rename_player", name=name)
    return url_for("web.rename_player_by_token", segment=token(name))


@bp.get("/players")
def players() -> ResponseReturnValue:
    """List every player: sessions played and won, the games played."""
    return render_template("players/index.html", players=roster.list_players(), titles=titles())


@bp.get("/players/<player_name:name>", merge_slashes=False)
def show_player(name: str) -> ResponseReturnValue:
    """Show a player's record overall and per game, their sessions and the rename form."""
    return render_player(profile_or_404(name), RenameForm())


@bp.get("/player/<segment>")
def show_player_by_token(segment: str) -> ResponseReturnValue:
    """Show a player whose name a path would fold (``a/../Ann`` is not Ann), by its token."""
    return show_player(name_of(segment))


@bp.post("/players/<player_name:name>/rename", merge_slashes=False)
def rename_player(name: str) -> ResponseReturnValue:
    """Rename a player, or merge them into the player who has the new name."""
    profile = profile_or_404(name)
    require_organizer()  # renaming and merging are the group's organizer's
    form = RenameForm()
    if form.validate_on_submit():
        try:
            player, merged = roster.rename_player(profile["name"], form.name.data)
        except FORM_REFUSALS as error:
            add_error(form, form.name, error.message)
        else:
            announce(profile["name"], player.name, merged)
            return redirect(player_url(player.name))
    return render_player(profile, form, 422)


@bp.post("/player/<segment>/rename")
def rename_player_by_token(segment: str) -> ResponseReturnValue:
    """Rename a player addressed by their name's token."""
    return rename_player(name_of(segment))


def announce(old: str, new: str, merged: bool) -> None:
    """Flash what a rename did."""
    if merged:
        flash(_("%(old)s merged into %(new)s: the sessions are theirs now.", old=old, new=new))
    elif new != old:
        flash(_("%(old)s is now %(new)s.", old=old, new=new))
