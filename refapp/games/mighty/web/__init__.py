"""Mighty's pages: the hand form with its auction and card pads, who takes a trick, the words.

``PAGES`` is read by ``refapp.web.game_pages`` under the game's slug; its templates are
``mighty/...`` and its scripts and style sheets sit in ``static/`` beside them.
"""

from flask import Blueprint
from flask_babel import lazy_gettext as _l

from ....web.game_pages import GamePages, game_api, game_blueprint
from .. import GAME

blueprint: Blueprint = game_blueprint(GAME, __name__)
api: Blueprint = game_api(GAME, __name__)

from . import card_pad, trick, trick_api  # noqa: E402, F401  (routes register on the blueprints)
from .forms import MightyHandForm  # noqa: E402
from .seats import resting_players  # noqa: E402
from .values import VALUE_WORDS  # noqa: E402

PAGES = GamePages(
    round_form=MightyHandForm,
    bgg_id=None,  # BG Stats is sent the game by its name alone
    blueprint=blueprint,
    api=api,
    styles=("mighty.css", "mighty_pad.css"),
    scripts=(
        "mighty.js",
        "mighty_seats.js",
        "mighty_follow.js",
        "mighty_pad_form.js",
        "mighty_pad_view.js",
        "mighty_pad.js",
    ),
    status="mighty/status.html",
    summary="mighty/summary.html",
    value_words=VALUE_WORDS,
    figure_words=(
        ("hands_played", _l("Hands played")),
        ("hands_as_boss", _l("Hands as boss")),
        ("contracts_made", _l("Contracts made")),
        ("average_bid", _l("Average bid")),
        ("times_as_friend", _l("Times as friend")),
        ("runs", _l("Runs")),
        ("back_runs", _l("Back-runs")),
        ("hands_killed", _l("Hands killed (6마, 7마)")),
        ("hands_rested", _l("Hands rested")),
    ),
    figures_note=_l(
        "Contracts made: hands as boss won (a critic counts when it pays). Average bid: "
        "the final contract as boss. Runs and back-runs: hands on the ruling side. Hands "
        "killed or rested (four, six or seven at the table) are not hands played. Points "
        "per round count misdeals and all-pass rounds too."
    ),
    open_api_paths=("/api/mighty/trick",),
    links=((_l("Mighty: who takes this trick?"), "mighty.mighty_trick"),),
    resting=resting_players,
    roles="mighty/roles.html",
    record_words={"highest_contract_made": _l("Highest contract made")},
)
