"""Dalmuti's seating: the first hand's ranks as listed, or by a draw written after each name."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import Field, RadioField
from wtforms.validators import ValidationError

from ....web.forms.common import options
from ....web.forms.seating import Seating
from ...inputs import digits_number
from ..cards import RANKS

#: Flask-Babel's gettext, typed (the package ships no types): the translated words
_: Callable[..., str] = gettext

#: a player's line when the first ranks come from a draw: the name, then the card drawn
DRAW_LINE = re.compile(r"(?P<name>.*?\S)[\s:=,-]+(?P<draw>[0-9]{1,2}|[jJ])")


def by_draw(form: FlaskForm) -> bool:
    """Return True when the first ranks are to follow the draws written after the names."""
    return bool(form["first_ranks"].data == "draw")


class DrawSeating(Seating):
    """The names in rank order (Greater Dalmuti first), or each with the card drawn."""

    field_names = ("first_ranks",)
    template = "dalmuti/seating.html"
    setup_paths = ("initial_draw",)

    def fields(self) -> dict[str, Field]:
        """Return the choice of how the first ranks are decided."""
        choice = RadioField(
            _("First ranks"),
            choices=options(
                ["order", "draw"],
                [
                    _(
                        "As listed: the first name is the Greater Dalmuti, the last the "
                        "Greater Peasant."
                    ),
                    _(
                        "By draw: write the card each player drew after their name, "
                        "e.g. \u201cAnn 7\u201d (%(low)s to %(high)s, J for a jester, the "
                        "worst).",
                        low=RANKS[0],
                        high=RANKS[-1],
                    ),
                ],
            ),
            default="order",
        )
        return {"first_ranks": choice}

    def players_hint(self, form: FlaskForm) -> str | None:
        """Return how the names are written, in rank order or with the draws."""
        game = form.the_game
        if game.min_players == game.max_players:
            return _(
                "One per line, %(count)d players: in rank order (Greater Dalmuti first), "
                "or with each player's draw after the name, as chosen above.",
                count=game.max_players,
            )
        return _(
            "One per line, %(low)d to %(high)d players: in rank order (Greater Dalmuti first), "
            "or with each player's draw after the name, as chosen above.",
            low=game.min_players,
            high=game.max_players,
        )

    def check(self, form: FlaskForm, lines: Sequence[str]) -> None:
        """With a draw, check that every line ends in the card drawn."""
        if not by_draw(form):
            return
        for line in lines:
            if not DRAW_LINE.fullmatch(line):
                raise ValidationError(
                    _(
                        "Write the card %(name)s drew after the name, e.g. \u201c%(name)s 7\u201d "
                        "(%(low)s to %(high)s, or J).",
                        name=line,
                        low=RANKS[0],
                        high=RANKS[-1],
                    )
                )

    def read(self, form: FlaskForm, lines: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
        """Return the names and, with a draw, each player's card as ``initial_draw``."""
        if not by_draw(form):
            return list(lines), {}
        names: list[str] = []
        draws: dict[str, int | str] = {}
        for line in lines:
            found = DRAW_LINE.fullmatch(line)
            name = found["name"] if found else line
            draw = found["draw"].upper() if found else ""
            names.append(name)
            number = digits_number(draw)
            draws[unicodedata.normalize("NFC", name.strip())] = draw if number is None else number
        return names, {"initial_draw": draws} if draws else {}
