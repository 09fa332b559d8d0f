"""The Dixit turn form: the storyteller, who laid each numbered card, then each player's vote."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from wtforms import Field, SelectField
from wtforms.validators import InputRequired

from ..games.base import RuleViolation
from ..games.dixit import position_count
from ..services import SessionView
from .forms import add_error, options
from .round_form import RoundForm as BaseRoundForm


class DixitTurnForm(BaseRoundForm):
    """One Dixit turn as the table sees it after the reveal."""

    players: tuple[str, ...] = ()
    two_votes = False
    position_total = 0

    @classmethod
    def build(cls, view: SessionView, entered: dict[str, Any] | None = None, **kwargs: Any):
        """Build the form for this table (its players and positions), prefilled from a round."""
        players = view.table.players
        count = position_count(len(players))
        two_votes = bool(view.table.rules.get("two_votes_large_game"))
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
        form_class = type("DixitTurnForm_", (cls,), fields)
        form_class.players = players
        form_class.two_votes = two_votes
        form_class.position_total = count
        data = initial_data(view, entered) if entered is not None else None
        if data is None and not kwargs.get("formdata"):
            data = {"storyteller": view.state.get("next_storyteller") or players[0]}
        return form_class(data=data, **kwargs)

    def position_fields(self) -> list[Field]:
        """Return the numbered card fields in order."""
        return [self[f"pos_{n}"] for n in range(1, self.position_total + 1)]

    def vote_rows(self) -> list[tuple[str, list[Field]]]:
        """Return each player with their vote field(s)."""
        rows = []
        for seat, name in enumerate(self.players):
            fields = [self[f"vote_{seat}"]]
            if self.two_votes:
                fields.append(self[f"vote2_{seat}"])
            rows.append((name, fields))
        return rows

    def round_input(self) -> dict[str, Any]:
        """Return the API-shaped round input from the submitted fields."""
        votes: dict[str, Any] = {}
        for seat, name in enumerate(self.players):
            picks = [self[f"vote_{seat}"].data]
            if self.two_votes:
                picks.append(self[f"vote2_{seat}"].data)
            numbers = [int(p) for p in picks if p]
            if numbers:
                votes[name] = numbers if self.two_votes else numbers[0]
        body: dict[str, Any] = {
            "storyteller": self.storyteller.data,
            "positions": [field.data for field in self.position_fields()],
            "votes": votes,
        }
        if self.expected() is not None:
            body["expected_round"] = self.expected()
        return body

    def show_violation(self, error: RuleViolation) -> None:
        """Put a refused turn's message next to the field it concerns."""
        if error.field == "positions":
            self.position_errors.append(error.message)
        else:
            add_error(self, self.field_for(error.field or ""), error.message)

    @property
    def position_errors(self) -> list[str]:
        """Return the messages about the laid-out cards as a whole (e.g. a wrong card count)."""
        if not hasattr(self, "_position_errors"):
            self._position_errors: list[str] = []
        return self._position_errors

    def field_for(self, path: str) -> Field | None:
        """Return the field an input path points at ("votes.Ben" -> Ben's vote)."""
        head, _, rest = path.partition(".")
        if head == "storyteller":
            return self.storyteller
        if head == "positions" and rest.isdigit():
            return self._fields.get(f"pos_{rest}")
        if head == "votes" and rest in self.players:
            return self[f"vote_{self.players.index(rest)}"]
        return None


def initial_data(view: SessionView, entered: dict[str, Any]) -> dict[str, Any]:
    """Return form data that shows a stored turn (for correcting it)."""
    data: dict[str, Any] = {"storyteller": entered.get("storyteller")}
    for number, owner in enumerate(entered.get("positions", []), 1):
        data[f"pos_{number}"] = owner
    for voter, vote in entered.get("votes", {}).items():
        if voter not in view.table.players:
            continue
        seat = view.table.players.index(voter)
        picks = vote if isinstance(vote, list) else [vote]
        data[f"vote_{seat}"] = str(picks[0])
        if len(picks) > 1:
            data[f"vote2_{seat}"] = str(picks[1])
    return data


RoundForm = DixitTurnForm
