"""The pages a table uses: sessions, the new-session form, the session page and its round forms,
a session's history and downloads, players and signing in. Each game's own pages live with the
game (``refapp/games/<game>/web/``) and register through ``game_pages``."""

from flask import Blueprint

bp: Blueprint = Blueprint("web", __name__)

from . import (  # noqa: E402, F401
    again,
    archive,
    card,
    corrections,
    groups,
    history,
    how_we_score,
    join,
    players,
    public_view,
    review,
    rule_sets,
    seasons,
    sessions,
    signin,
    stats,
)
