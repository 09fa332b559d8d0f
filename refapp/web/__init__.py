"""The pages a table uses: sessions, the new-session form, the session page and its round forms."""

from flask import Blueprint

bp = Blueprint("web", __name__)

from . import dalmuti_play, views  # noqa: E402, F401  (routes register on bp)
