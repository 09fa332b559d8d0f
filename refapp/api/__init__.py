"""The JSON API of docs/API.md: the same services as the pages; a game's own routes live with it."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")

from . import archive, events, groups, players, views  # noqa: E402, F401  (routes register on bp)
