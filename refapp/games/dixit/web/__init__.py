"""Dixit's pages: the turn form (storyteller, cards laid, votes) and the words.

``PAGES`` is read by ``refapp.web.game_pages`` under the game's slug; its templates are
``dixit/...`` and its script and style sheet sit in ``static/`` beside them.
"""

from flask import Blueprint
from flask_babel import lazy_gettext as _l

from ....web.game_pages import GamePages, game_blueprint
from .. import GAME

blueprint: Blueprint = game_blueprint(GAME, __name__)

from .forms import DixitTurnForm  # noqa: E402

PAGES = GamePages(
    round_form=DixitTurnForm,
    bgg_id=39856,
    blueprint=blueprint,
    styles=("dixit.css",),
    scripts=("dixit.js",),
    status="dixit/status.html",
    summary="dixit/summary.html",
    figure_words=(
        ("storyteller_turns", _l("Turns as storyteller")),
        ("some_found", _l("Some found the card")),
        ("some_found_share", _l("Share of turns where some found it")),
        ("average_vote_bonus", _l("Vote bonus per turn")),
    ),
    figures_note=_l(
        "Some found: turns as storyteller in which some, not all, found the card. Vote "
        "bonus: points from others' votes for your card, per turn you voted."
    ),
    shares=("some_found_share",),
    roles="dixit/roles.html",
    record_words={"best_turn": _l("Best turn")},
)
