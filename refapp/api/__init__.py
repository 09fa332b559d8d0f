"""The JSON API of docs/API.md: the same services as the pages; a game's own routes live with it."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")

from . import archive, events, groups, players, public_views, seasons, views  # noqa: E402, F401
