"""The Dixit turn form: the storyteller, who laid each numbered card, then each player's vote."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask_babel import gettext
from wtforms import Field, SelectField
from wtforms.validators import InputRequired

from ....services import SessionView
from ....web.forms.base import At, RoundBody, RoundForm, Slot
from ....web.forms.common import options
from ..deck import cards_laid, position_count
from ..table_view import votes_each

#: Flask-Babel's gettext, typed (the package ships no types): the translated words
_: Callable[..., str] = gettext


def vote(data: object) -> int | None:
    """Read a vote: the card number chosen (the choices are checked), or None."""
    return int(str(data)) if data else None


#: a turn with one vote each
ONE_VOTE = {
    "storyteller": "storyteller",
    "pos_{n}": "positions.{n}",
    "vote_{seat}": At("votes.{player}", read=vote),
}
#: a turn with two votes each (the Odyssey rule): each player's votes, in order
TWO_VOTES = {
    **ONE_VOTE,
    "vote_{seat}": At("votes.{player}.1", read=vote),
    "vote2_{seat}": At("votes.{player}.2", read=vote),
}


class DixitTurnForm(RoundForm):
    """One Dixit turn as the table sees it after the reveal."""

    template = "dixit/form.html"
    groups = ("positions",)

    players: tuple[str, ...] = ()
    two_votes = False
    position_total = 0
    #: the cards each player but the storyteller lays (two with three players)
    cards_each = 1
    #: True on the session's first turn, whose storyteller the table chooses (the form asks)
    first_turn = False

    @classmethod
    def build(
        cls,
        view: SessionView,
        entered: Mapping[str, object] | None = None,
        correcting: int | None = None,
        **kwargs: object,
    ) -> DixitTurnForm:
        """Build the form for this table (its players and positions), prefilled from a turn."""
        players = view.table.players
        count = position_count(len(players))
        two_votes = votes_each(view.game.house_rules(view.table.rules), len(players)) > 1
        form_class = cls.subclass(
            turn_fields(players, count, two_votes),
            players=players,
            two_votes=two_votes,
            position_total=count,
            cards_each=cards_laid(len(players)),
            first_turn=correcting is None and bool(view.state.get("storyteller_free")),
            paths=TWO_VOTES if two_votes else ONE_VOTE,
            # a refusal of a player's votes stands by their first vote
            refusals={"votes.{player}": "vote_{seat}"} if two_votes else {},
        )
        data = form_class.data_from(entered) if entered is not None else None
        if data is None and not kwargs.get("formdata"):
            data = {"storyteller": view.state.get("next_storyteller") or players[0]}
        return form_class(data=data, **kwargs)

    @classmethod
    def slots(cls) -> dict[str, list[Slot]]:
        """Return the numbered positions and the seats with their players."""
        return {
            "n": [{"n": n} for n in range(1, cls.position_total + 1)],
            "seat": [{"seat": seat, "player": name} for seat, name in enumerate(cls.players)],
        }

    def compose(self) -> RoundBody:
        """Return the turn; its votes are sent even when none was entered (the rules ask)."""
        body = self.read()
        body.setdefault("votes", {})
        return body

    def position_fields(self) -> list[Field]:
        """Return the numbered card fields in order."""
        return [self[f"pos_{n}"] for n in range(1, self.position_total + 1)]

    def position_numbers(self) -> range:
        """Return the card numbers 1..R, one tap each beside a voter."""
        return range(1, self.position_total + 1)

    def vote_rows(self) -> list[tuple[str, list[Field]]]:
        """Return each player with their vote field(s)."""
        rows = []
        for seat, name in enumerate(self.players):
            fields = [self[f"vote_{seat}"]]
            if self.two_votes:
                fields.append(self[f"vote2_{seat}"])
            rows.append((name, fields))
        return rows


def turn_fields(players: tuple[str, ...], count: int, two_votes: bool) -> dict[str, Field]:
    """Return the turn's fields: the storyteller, the numbered cards, the votes."""
    owner_choices = options(["", *players], ["-", *players])
    vote_choices = options(["", *range(1, count + 1)], ["-", *range(1, count + 1)])
    fields: dict[str, Field] = {
        "storyteller": SelectField(_("Storyteller"), choices=options(players))
    }
    for number in range(1, count + 1):
        fields[f"pos_{number}"] = SelectField(
            _("Card %(n)d", n=number),
            [InputRequired(message=_("Choose who laid card %(n)d.", n=number))],
            choices=owner_choices,
        )
    for seat, name in enumerate(players):
        fields[f"vote_{seat}"] = SelectField(name, choices=vote_choices, default="")
        if two_votes:
            fields[f"vote2_{seat}"] = SelectField(
                _("%(name)s (2nd vote)", name=name), choices=vote_choices, default=""
            )
    return fields
