"""Mighty's "Who takes this trick?" page: the trump, the trick's number and the cards as played.

A plain GET form (it works without JavaScript; ``static/trick.js`` only builds the same form
from taps): ``/trick?trump=S&trick=1&cards=H5,JK,HK,H2,C4&suit=&call=``. Nothing is stored;
the rules judge the trick (``mighty.judge_trick``) and this module words the verdict. Opened
from a session, the session's house rules apply and the plays get the players' names, in seat
order from the chosen leader.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ....services.session_head import SessionHead, head_of
from ....web.helpers import stored_or_404
from ...errors import Refusal
from ...inputs import digits_number
from ...options import resolve_rules
from .. import TRUMPS, judge_trick
from ..cards import JOKER, RANKS, SUITS, parse_card
from ..house_rules.options import OPTIONS
from ..house_rules.rules import MightyRules
from ..seats.deal import deal_for
from ..shapes import JudgedTrick
from ..tricks.trick import PLAYS, TRICKS
from . import blueprint
from .words import TRUMP_LABELS, special_cards

#: which play of the trick took it
PLAY_WORDS = (_l("1st play"), _l("2nd play"), _l("3rd play"), _l("4th play"), _l("5th play"))
#: why a trick went to its winner, in the table's words
REASON_WORDS = {
    "mighty": _l("The mighty (마이티)"),
    "joker": _l("The joker (조커)"),
    "trump": _l("The highest trump (기루다)"),
    "lead": _l("The highest card of the led suit (선도패)"),
    "leader_by_default": _l("The leader: a dead joker was led, and nothing followed its suit"),
}
#: the fields of the form, by the path a refusal names
FIELDS = ("trump", "trick", "cards", "suit", "call", "leader")
SEPARATORS = re.compile(r"[\s,;]+")


@dataclass
class TrickForm:
    """What the form holds, read from the query string, and the refusals by field."""

    trump: str = ""
    trick: str = ""
    cards: list[str] = field(default_factory=list)
    suit: str = ""
    call: bool = False
    leader: str = ""
    errors: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, args: Mapping[str, str], most: int = PLAYS) -> TrickForm:
        """Read the query string: the cards are a list (commas or spaces); add and undo apply
        (an add only while the trick holds fewer than ``most`` plays)."""
        cards = [card for card in SEPARATORS.split(args.get("cards", "").strip()) if card]
        added = args.get("add", "").strip()
        if added and len(cards) < most:
            cards.append(added)
        if args.get("undo") and cards:
            cards.pop()
        return cls(
            trump=args.get("trump", "").strip().upper(),
            trick=args.get("trick", "").strip(),
            cards=cards,
            suit=args.get("suit", "").strip().upper(),
            call=args.get("call", "") not in ("", "0"),
            leader=args.get("leader", "").strip(),
        )

    @property
    def cards_text(self) -> str:
        """The cards as the form's field writes them."""
        return ",".join(self.cards)

    def add_error(self, where: str, message: str) -> None:
        """Keep a refusal's message by its field ("" for the top of the form)."""
        self.errors.setdefault(where, []).append(message)

    def used(self) -> set[str]:
        """The cards already in the trick (in the app's notation), as the grid greys them."""
        found = set()
        for card in self.cards:
            try:
                found.add(parse_card(card))
            except Refusal:
                continue
        return found


def field_of(path: str | None) -> str:
    """Return the form field a refusal's path points at ("" when none does)."""
    if not path:
        return ""
    parts = path.split(".")
    if parts[0] == "plays":
        if parts[-1] in ("suit", "call"):
            return parts[-1]
        return "cards"
    return parts[0] if parts[0] in FIELDS else ""


def body_of(
    form: TrickForm, specials: Mapping[str, str], names: list[str] | None
) -> dict[str, object]:
    """Build the referee's question from the form: a led joker's suit and a call only when they
    apply to the lead (a choice left over from an earlier lead is not a mistake)."""
    plays: list[dict[str, object]] = []
    for index, card in enumerate(form.cards):
        play: dict[str, object] = {"card": card}
        if names:
            play["player"] = names[index % len(names)]
        if index == 0 and card.upper() in (JOKER, "JOKER"):
            play["suit"] = form.suit or None
        if index == 0 and form.call and card.upper() == specials.get("joker_call"):
            play["call"] = True
        plays.append({key: value for key, value in play.items() if value is not None})
    number = digits_number(form.trick)
    trick: str | int = form.trick if number is None else number
    body: dict[str, object] = {"trump": form.trump, "trick": trick, "plays": plays}
    return {key: value for key, value in body.items() if value != ""}


def seat_order(players: list[str], leader: str) -> list[str]:
    """Return the players in the order they play from the leader (the seats go round)."""
    start = players.index(leader) if leader in players else 0
    return players[start:] + players[:start]


def verdict_words(result: JudgedTrick, call_card: str, most: int = PLAYS) -> dict[str, object]:
    """Word the referee's answer: the winning play, why, and notes on a dead joker or a call
    (fewer than ``most`` plays is a trick so far)."""
    cards = [play["card"] for play in result["plays"]]
    notes = []
    dead = result["dead_joker"]  # the rules say why the joker has no power (tricks.dead_joker)
    if result["call_has_power"] is False:
        notes.append(_("A joker call (조커콜) in the first trick (초구) has no power."))
    elif dead == "called":
        notes.append(_("Joker call (조커콜): the joker had to come out, and it is dead."))
    elif dead == "first_or_last" and result["card"] != JOKER:
        notes.append(_("The joker (조커) is dead in the first trick (초구) and in the last one."))
    return {
        "play": str(PLAY_WORDS[result["index"]]),
        "reason": str(REASON_WORDS[result["reason"]]),
        "notes": notes,
        "partial": len(cards) < most,
        "call_card": call_card,
    }


def trick_page(view: SessionHead | None = None) -> ResponseReturnValue:
    """Answer the form: the page with the verdict, or with the refusal by its field."""
    rules = resolve_rules(OPTIONS, dict(view.table.rules) if view else {})
    specials = special_cards(rules)
    most = plays_at(rules, view)
    form = TrickForm.read(request.args, most)
    names = _names_from_leader(form, view)
    result = verdict = None
    status = 200
    if form.cards or request.args.get("go"):
        result, verdict, status = _judge(form, specials.get(form.trump, {}), names, view, most)
    return render_template(
        "mighty/trick.html",
        view=view,
        form=form,
        result=result,
        verdict=verdict,
        names=names,
        specials=specials,
        trumps=[(trump, str(TRUMP_LABELS[trump])) for trump in TRUMPS],
        suits=[(suit, str(TRUMP_LABELS[suit])) for suit in SUITS],
        ranks=RANKS,
        tricks=range(1, TRICKS + 1),
        most=most,
    ), status


def plays_at(rules: Mapping[str, object], view: SessionHead | None) -> int:
    """Return the plays of a whole trick: the session's active players as its deal tells them
    (four at four seats), or the most a trick holds on the page without a session."""
    players = view.table.players if view else ()
    if not players:
        return PLAYS
    return deal_for(MightyRules(rules), len(players)).active_count


def _names_from_leader(form: TrickForm, view: SessionHead | None) -> list[str] | None:
    """Return a session's players in the order they play from the leader (the first seat when
    the leader is not one of them), or None on the page without a session."""
    players = list(view.table.players) if view else []
    if not players:
        return None
    if form.leader not in players:
        form.leader = players[0]
    return seat_order(players, form.leader)


def _judge(
    form: TrickForm,
    trump_specials: Mapping[str, str],
    names: list[str] | None,
    view: SessionHead | None,
    most: int,
) -> tuple[JudgedTrick | None, dict[str, object] | None, int]:
    """Ask the referee about the trick: its answer and the verdict's words, or the refusal put
    on the form; with the page's status (a whole trick is ``most`` plays)."""
    body = body_of(form, trump_specials, names)
    if view:
        body["rules"] = dict(view.table.rules)
    try:
        result = judge_trick(body)
    except Refusal as error:
        return None, None, _show_refusal(form, error, most)
    return result, verdict_words(result, trump_specials.get("joker_call", ""), most), 200


def _show_refusal(form: TrickForm, error: Refusal, most: int) -> int:
    """Put a refusal on the form by its field and return 422; a trick still being entered
    (fewer cards than ``most`` and no "go") is not faulted for its missing cards (200)."""
    unfinished = len(form.cards) < most and not request.args.get("go")
    if error.code == "missing_field" and unfinished:
        return 200
    where = field_of(error.field)
    if where:
        form.add_error(where, error.message)
    form.add_error("", error.message)
    return 422


@blueprint.get("/trick")
def mighty_trick() -> ResponseReturnValue:
    """Who takes this trick? Judged under the default house rules, the players unnamed."""
    return trick_page()


@blueprint.get("/sessions/<int:session_id>/trick")
def mighty_session_trick(session_id: int) -> ResponseReturnValue:
    """Who takes this trick? Judged under the session's house rules, with its players' names.

    Only the session's row and seats are read: the page shows none of its rounds.
    """
    session = stored_or_404(session_id)
    if session.game != "mighty":
        abort(404)
    return trick_page(head_of(session))
