"""Pages for players across sessions: the roster, a player's figures per game, renaming."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from .. import roster
from ..extensions import db
from ..games.base import RuleViolation
from ..services import NAME_MAX
from . import bp
from .forms import add_error

#: the figures every game shares, as the page words them
RECORD = (
    ("sessions_played", "Sessions played"),
    ("sessions_won", "Sessions won"),
    ("rounds_played", "Rounds played"),
    ("points", "Points"),
    ("average_points", "Points per round"),
)

#: each game's own figures, as the page words them
FIGURES = {
    "dixit": (
        ("storyteller_turns", "Turns as storyteller"),
        ("some_found", "Some found the card"),
        ("some_found_share", "Share some found"),
        ("average_vote_bonus", "Vote bonus per turn"),
    ),
    "mighty": (
        ("hands_played", "Hands played"),
        ("hands_as_boss", "Hands as boss"),
        ("contracts_made", "Contracts made"),
        ("average_bid", "Average bid"),
        ("times_as_friend", "Times as friend"),
        ("runs", "Runs"),
        ("back_runs", "Back-runs"),
    ),
    "dalmuti": (
        ("hands_played", "Hands played"),
        ("average_finish", "Average finish"),
        ("hands_as_greater_dalmuti", "Greater Dalmuti"),
        ("hands_as_greater_peasant", "Greater Peasant"),
        ("revolutions", "Revolutions declared"),
    ),
}

#: what a game's figures mean, under them
NOTES = {
    "dixit": "Some found: turns as storyteller in which some, not all, found the card. Vote "
    "bonus: points from others' votes for your card, per turn you voted.",
    "mighty": "Contracts made: hands as boss won (a critic counts when it pays). Average bid: "
    "the final contract as boss. Runs and back-runs: hands on the ruling side. Points per "
    "round count misdeals and all-pass rounds too.",
    "dalmuti": "Average finish: 1 is first out. Greater Dalmuti and Peasant: hands in that rank "
    "during play, after any revolution.",
}

#: figures shown as a percentage
SHARES = ("some_found_share",)


class RenameForm(FlaskForm):
    """Rename a player (fix a typo), or merge them into the player who has the new name."""

    name = StringField(
        "New name",
        [InputRequired(message="Write the new name."), Length(max=NAME_MAX)],
        render_kw={"autocapitalize": "words", "autocomplete": "off"},
    )


def figure(key: str, value: Any) -> str:
    """Write a figure for the page: a share as a percentage, nothing to average as a dash."""
    if value is None:
        return "\u2013"
    if key in SHARES:
        return f"{value:.0%}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def profile_or_404(name: str) -> dict[str, Any]:
    """Return a player's profile, or answer 404."""
    try:
        return roster.player_profile(name)
    except RuleViolation:
        abort(404)


def render_player(profile: dict[str, Any], form: RenameForm, status: int = 200):
    """Render a player's page with the rename form."""
    return render_template(
        "players/show.html",
        player=profile,
        form=form,
        record=RECORD,
        figures=FIGURES,
        notes=NOTES,
        figure=figure,
    ), status


@bp.get("/players")
def players():
    """List every player: sessions played and won, the games played."""
    return render_template("players/index.html", players=roster.list_players())


@bp.get("/players/<path:name>")
def show_player(name: str):
    """Show a player's record overall and per game, their sessions and the rename form."""
    return render_player(profile_or_404(name), RenameForm())


@bp.post("/players/<path:name>/rename")
def rename_player(name: str):
    """Rename a player, or merge them into the player who has the new name."""
    profile = profile_or_404(name)
    form = RenameForm()
    if form.validate_on_submit():
        try:
            player, merged = roster.rename_player(profile["name"], form.name.data)
        except RuleViolation as error:
            db.session.rollback()
            add_error(form, form.name, error.message)
        else:
            if merged:
                flash(f"{profile['name']} merged into {player.name}: the sessions are theirs now.")
            elif player.name != profile["name"]:
                flash(f"{profile['name']} is now {player.name}.")
            return redirect(url_for("web.show_player", name=player.name))
    return render_player(profile, form, 422)
