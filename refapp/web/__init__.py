"""The pages a table uses: sessions, the new-session form, the session page and its round forms,
a session's history and downloads, players, signing in, and each game's own pages and helpers."""

from flask import Blueprint

bp: Blueprint = Blueprint("web", __name__)

from . import archive, check_play, history, players, rule_sets, sessions, signin, trick  # noqa: E402, F401
from .card_pad import mighty_card_pad  # noqa: E402, F401
from .games import dalmuti, mighty  # noqa: E402, F401
