"""The coin toss's pages: its round form and its figures' words (its template beside them)."""

from __future__ import annotations

from typing import Any

from wtforms import RadioField

from refapp.services import SessionView
from refapp.web.forms.base import RoundForm
from refapp.web.forms.common import options
from refapp.web.game_pages import GamePages, game_blueprint

from .. import GAME

blueprint = game_blueprint(GAME, __name__)


class TossForm(RoundForm):
    """One toss: who won it."""

    template = "coin_toss/form.html"
    paths = {"winner": "winner"}

    @classmethod
    def build(
        cls,
        view: SessionView,
        entered: dict[str, Any] | None = None,
        correcting: int | None = None,
        **kwargs: Any,
    ) -> RoundForm:
        """Build the form with one choice per seated player."""
        players = list(view.table.players)
        field = RadioField("Winner", choices=options(players))
        form_class = cls.subclass({"winner": field})
        data = form_class.data_from(entered) if entered is not None else None
        return form_class(data=data, **kwargs)


PAGES = GamePages(
    round_form=TossForm,
    blueprint=blueprint,
    figure_words=(("tosses_won", "Tosses won"),),
)
