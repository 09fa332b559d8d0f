"""The Great Dalmuti's pages: the hand form with the tribute, check a play, the words.

``PAGES`` is read by ``refapp.web.game_pages`` under the game's slug; its templates are
``dalmuti/...`` and its script and style sheet sit in ``static/`` beside them.
"""

from collections.abc import Callable

from flask import Blueprint
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ....web.game_pages import GamePages, game_blueprint
from ....web.path_words import shown
from .. import GAME

#: Flask-Babel's gettext, typed (the package ships no types): the translated words
_: Callable[..., str] = gettext

blueprint: Blueprint = game_blueprint(GAME, __name__)

from . import check_play  # noqa: E402, F401  (its route registers on the blueprint)
from .forms import DalmutiHandForm  # noqa: E402
from .seating import DrawSeating  # noqa: E402
from .words import cards_words, role_title  # noqa: E402


def revolution_value(value: object) -> str:
    """Write a revolution's kind in words."""
    if value == "greater":
        return _("Greater revolution")
    if value == "plain":
        return _("Plain revolution")
    return shown(value)


def cards_value(value: object) -> str:
    """Write stored cards as a sentence does: '2, 4, jester' (Korean 조커), never the typed J."""
    if isinstance(value, list) and value and all(isinstance(card, (int, str)) for card in value):
        return cards_words(value)
    return shown(value)


PAGES = GamePages(
    round_form=DalmutiHandForm,
    bgg_id=929,
    seating=DrawSeating(),
    blueprint=blueprint,
    styles=("dalmuti.css",),
    scripts=("dalmuti.js",),
    status="dalmuti/status.html",
    summary="dalmuti/summary.html",
    value_words={"revolution": revolution_value, "cards": cards_value},
    place_words={"role": role_title},
    figure_words=(
        ("hands_played", _l("Hands played")),
        ("average_finish", _l("Average finish")),
        ("hands_as_greater_dalmuti", _l("Greater Dalmuti")),
        ("hands_as_greater_peasant", _l("Greater Peasant")),
        ("revolutions", _l("Revolutions declared")),
    ),
    figures_note=_l(
        "Average finish: 1 is first out. Greater Dalmuti and Peasant: hands in that rank "
        "during play, after any revolution."
    ),
    roles="dalmuti/roles.html",
    record_words={"longest_greater_dalmuti_run": _l("Most hands in a row as Greater Dalmuti")},
)
