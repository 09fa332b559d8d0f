"""Dixit's pages: the turn form (storyteller, cards laid, votes) and the words.

Registered once with ``refapp.web.game_pages``; its templates are ``dixit/...`` and its script
and style sheet sit in ``static/`` beside them.
"""

from flask import Blueprint
from flask_babel import lazy_gettext as _l

from ....web.game_pages import GamePages, game_blueprint, register_pages

blueprint: Blueprint = game_blueprint("dixit", __name__)

from .forms import DixitTurnForm  # noqa: E402

PAGES = register_pages(
    GamePages(
        slug="dixit",
        round_form=DixitTurnForm,
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
    )
)
