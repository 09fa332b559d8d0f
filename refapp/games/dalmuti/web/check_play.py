"""Dalmuti's "check a play" page: may a play follow the play before it, and why not.

Checking a play is a pure question to the rules (``dalmuti.judge_play``): nothing is stored;
this module only reads the form and words the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext as untyped_ngettext
from wtforms import Field, StringField

from ....services.session_head import head_of
from ....web.forms import add_error
from ....web.forms.voice import AppForm
from ....web.helpers import stored_or_404
from ... import dalmuti
from ...errors import Refusal
from ..rules import DalmutiRules
from ..shapes import Card
from . import blueprint
from .words import card_tokens, cards_field, cards_words, rank_title

#: Flask-Babel's gettext, typed (the package ships no types): the translated words
_: Callable[..., str] = gettext
#: Flask-Babel's ngettext, typed likewise: the singular or plural words, filled in
ngettext: Callable[..., str] = untyped_ngettext


class CheckPlayForm(AppForm):
    """The play before (empty to lead), the play someone wants to make, optionally their hand."""

    previous = StringField(
        _l("The play before it"),
        description=_l("The cards last played in this trick. Leave empty to check a lead."),
        render_kw={
            "placeholder": _l("e.g. %(example)s", example="7 7 7"),
            "autocomplete": "off",
            "inputmode": "decimal",  # digits and "." (a card separator) on every phone
        },
    )
    play = StringField(
        _l("The play to check"),
        render_kw={
            "placeholder": _l("e.g. %(example)s", example="6 6 13"),
            "autocomplete": "off",
            "inputmode": "decimal",  # digits and "." (a card separator) on every phone
        },
    )
    hand = StringField(
        _l("Their hand (optional)"),
        description=_l("The player's cards now, to check they hold the play."),
        render_kw={
            "placeholder": _l("e.g. %(example)s", example="2 6 6 9 12 13"),
            "autocomplete": "off",
            "inputmode": "decimal",  # digits and "." (a card separator) on every phone
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.play.description = _(
            "Numbers %(low)s (%(best)s) to %(high)s (%(worst)s), %(jester)s (or J) for a jester.",
            low=dalmuti.RANKS[0],
            high=dalmuti.RANKS[-1],
            jester=dalmuti.JESTER_RANK,
            best=rank_title(dalmuti.RANKS[0]),
            worst=rank_title(dalmuti.RANKS[-1]),
        )

    def field_for(self, path: str) -> Field | None:
        """Return the field an error path points at (play, previous, hand)."""
        return self._fields.get(path) if path in ("previous", "play", "hand") else None

    def show_violation(self, error: Refusal) -> None:
        """Put a refusal's message next to the field it concerns."""
        add_error(self, self.field_for(error.field or ""), error.message)


def set_words(cards: Sequence[Card], rank: int) -> str:
    """Describe a checked play: '6, 6, jester (Knight, 3 cards)', 'a jester alone (worth 13)'
    (the jester's worth is ``JESTER_RANK``).

    The bracket sits inside the phrase, so a particle after it follows a word (Korean
    "6(기사) 1장은"), never the bracket.
    """
    count = len(cards)
    if rank == dalmuti.JESTER_RANK:
        return ngettext(
            "a jester alone (worth %(rank)s, the worst)",
            "%(num)s jesters alone (worth %(rank)s, the worst)",
            count,
            rank=dalmuti.JESTER_RANK,
        )
    return ngettext(
        "%(cards)s (%(name)s, %(num)s card)",
        "%(cards)s (%(name)s, %(num)s cards)",
        count,
        cards=cards_words(cards),
        name=rank_title(rank),
    )


def judge(form: CheckPlayForm, removed: list[int]) -> dict[str, Any]:
    """Word the rules' verdict on the form's play for the table; RuleViolation says why not."""
    hand_text = (form.hand.data or "").strip()
    verdict = dalmuti.judge_play(
        card_tokens(form.previous.data),
        card_tokens(form.play.data),
        card_tokens(hand_text) if hand_text else None,
        removed,
    )
    cards, rank, left = verdict["cards"], verdict["rank"], verdict["left"]
    before, before_rank = verdict["before"], verdict["before_rank"]
    lines = []
    if before is not None and before_rank is not None:
        lines.append(
            _(
                "Legal: %(play)s beats %(before)s.",
                play=set_words(cards, rank),
                before=set_words(before, before_rank),
            )
        )
    else:
        lines.append(_("Legal lead: %(play)s.", play=set_words(cards, rank)))
    if rank == dalmuti.RANKS[0]:
        lines.append(_("Nothing beats it: the others can only pass, and the trick ends."))
    else:
        lines.append(
            ngettext(
                "To beat it: %(num)d card of a number below %(rank)s, or pass "
                "(a player may pass even when able to play).",
                "To beat it: %(num)d cards of a number below %(rank)s, or pass "
                "(a player may pass even when able to play).",
                len(cards),
                rank=rank,
            )
        )
    if left:
        lines.append(_("Left in the hand: %(cards)s.", cards=cards_words(left)))
    elif left is not None:
        lines.append(_("That is their last card: they go out and take the next finishing place."))
    return {"lines": lines, "cards": cards, "rank": rank, "left": left}


@blueprint.route("/sessions/<int:session_id>/check-play", methods=["GET", "POST"])
def dalmuti_check_play(session_id: int) -> ResponseReturnValue:
    """Say whether a play may follow the play before it, and why not; nothing is stored.

    Only the session's row and seats are read: the page shows none of its rounds.
    """
    session = stored_or_404(session_id)
    if session.game != "dalmuti":
        abort(404)
    view = head_of(session)
    form = CheckPlayForm()
    verdict = None
    status = 200
    if form.validate_on_submit():
        removed = list(DalmutiRules.of(view.table.rules).removed_ranks)
        try:
            verdict = judge(form, removed)
        except Refusal as error:
            form.show_violation(error)
            status = 422
        else:
            if request.form.get("action") == "follow":
                form.previous.data = cards_field(verdict["cards"])
                form.play.data = ""
                form.hand.data = ""
                verdict = None
    elif request.method == "POST":
        status = 422
    return render_template("dalmuti/check_play.html", view=view, form=form, verdict=verdict), status
