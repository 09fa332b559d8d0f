"""The JSON API of API.md: the same services as the pages, for scripts, devices and tests."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")

from . import archive, players, tricks, views  # noqa: E402, F401  (routes register on bp)
