"""The pages a table uses: sessions, the new-session form, the session page and its round forms."""

from flask import Blueprint

bp = Blueprint("web", __name__)

from . import archive, dalmuti_play, history, players, signin, views  # noqa: E402, F401
