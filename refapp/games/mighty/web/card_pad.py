"""The Mighty hand form's card pad: a dry run of the tricks tapped so far, answered as JSON.

The pad sends only the cards in the order they were played (a led joker's ``suit``, a led
joker-call card's ``call``); the players follow from the rules: the boss leads trick 1, the others
play in seat order, and each trick's winner leads the next. The rules referee the named tricks
(``tricks.checks``) and, with all ten in and the friend known, say what they prove
(``tricks.totals``). Nothing is stored: recording the hand stays the form's job. A refusal comes
back as 422 with the rules' code and message in the page's language.

A played card is changed with ``change`` ({"trick", "play", "card"}, numbered from 1): the plays
keep the players the pad named them with, the referee checks the tricks again, and the tricks
from the first one that no longer fits are dropped (``card_pad_fix``).
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import abort, request
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal
from flask_babel import gettext as _

from ....i18n import explain
from ....web.helpers import session_or_404
from ...errors import MalformedInput, Refusal
from ...game import Account
from ...inputs import mapping, sequence
from .. import GAME
from ..cards import parse_card, parse_trump
from ..explain.tricks import say_next_play, say_totals, say_trick
from ..house_rules.rules import MightyTable
from ..seats.deal import deal_for
from ..shapes import Friend, Lead, MightyInput
from ..tricks.checks import referee_tricks
from ..tricks.log import PlayLog, Trick
from ..tricks.totals import Totals, settle
from ..tricks.trick import TRICKS, Specials, decide_trick, read_play
from . import blueprint
from .card_pad_fix import change_play

#: what the pad may say about a play; the player is the rules' to name
PLAY_KEYS = ("card", "suit", "call")


@blueprint.post("/sessions/<int:session_id>/card-pad")
def mighty_card_pad(session_id: int) -> ResponseReturnValue:
    """Referee the tricks tapped on the pad so far: who took each, who plays next, the totals."""
    view = session_or_404(session_id, 0)
    if view.session.game != "mighty":
        abort(404)
    table = GAME.with_house_rules(view.table)
    body = request.get_json(silent=True)
    named: list[list[dict[str, object]]] | None = None
    try:
        if not isinstance(body, dict):
            raise MalformedInput("invalid_json", "The request body must be a JSON object.")
        contract = read_contract(table, body)
        table = in_hand(table, body.get("out"), contract["boss"])
        named = name_plays(table, contract, body.get("tricks") or [])
        if body.get("change") is not None:
            log, change = change_play(table, contract, named, body["change"])
            return {**pad_answer(table, log, body.get("friend")), "change": change}
        absent = frozenset(view.state.get("out_of_deck") or ())
        log = referee_tricks(table, contract, named, partial=True, absent=absent)
        return pad_answer(table, log, body.get("friend"))
    except Refusal as refusal:
        return {**refusal.as_dict(), "tricks": named}, 422


def read_contract(table: MightyTable, body: Mapping[str, object]) -> Lead:
    """Return the boss and the trump the form holds (the boss leads trick 1)."""
    boss = table.player(body.get("boss"), "contract.boss")
    return {"boss": boss, "trump": parse_trump(body.get("trump"), "contract.trump")}


def in_hand(table: MightyTable, out: object, boss: str) -> MightyTable:
    """Return the table of the players in this hand: without the killed and the resting ones
    (``out``, as the form holds them; at four and five seats nobody), in seat order."""
    names = {table.player(name, "out") for name in sequence(out or [], "out")} - {boss}
    playing = tuple(name for name in table.players if name not in names)
    active = deal_for(table.rules, table.size).active_count
    if table.size > active and len(playing) != active:
        raise MalformedInput(
            "missing_field",
            "Enter who is out of this hand (the kill, or who rests) before the card pad.",
            "out",
        )
    return MightyTable(playing, table.rules) if names else table


def seats_from(table: MightyTable, leader: str) -> list[str]:
    """Return the players in the order they play a trick led by leader."""
    start = table.seat(leader)
    return [*table.players[start:], *table.players[:start]]


def name_plays(table: MightyTable, contract: Lead, raw: object) -> list[list[dict[str, object]]]:
    """Return the tapped tricks with each play's player: the leader, then the seats in order.

    A finished trick is decided to know who leads the next one; the referee checks the rest.
    """
    specials = Specials.of(contract["trump"], table.rules)
    leader = contract["boss"]
    named: list[list[dict[str, object]]] = []
    for index, trick in enumerate(sequence(raw, "tricks")[: TRICKS + 1]):
        order = seats_from(table, leader)
        plays = []
        for position, given in enumerate(sequence(trick, f"tricks.{index}")[: table.size + 1]):
            play = {
                key: value
                for key, value in mapping(given, f"tricks.{index}.{position}").items()
                if key in PLAY_KEYS
            }
            plays.append({"player": order[position % len(order)], **play})
        named.append(plays)
        if len(plays) == table.size:
            read = [
                read_play(play, f"tricks.{index}.{at}", at, specials, _as_named)
                for at, play in enumerate(plays)
            ]
            decision = decide_trick(specials.trump, index + 1, read, table.rules)
            leader = read[decision.index].seated
    return named


def _as_named(value: object, where: str) -> str | None:
    """Keep a play's player as named here, always a seated name (the referee checks it)."""
    return value if isinstance(value, str) else None


def pad_answer(table: MightyTable, log: PlayLog, friend: object) -> dict[str, object]:
    """Return what the pad shows: each trick's winner, the next play, and the totals at the end."""
    answer: dict[str, object] = {
        "tricks": log.as_input(),
        "finished": [finished_trick(trick) for trick in log.finished],
        "complete": log.complete,
        "next_player": log.next_player,
        "must_play": list(log.must_play),
        "fill": None,
        "lines": [],
    }
    if not log.complete:
        account = Account()
        say_next_play(account, log)
        answer["next_line"] = explain(account.result())[0]
        answer["trick"] = len(log.finished) + 1
        answer["current"] = [play.as_dict() for play in log.current]
        return answer
    named = friend_entered(friend, log)
    if named is None:
        answer["lines"] = [_("Enter the friend card above to count the opposition's points.")]
        return answer
    entered: MightyInput = {"friend": named}
    totals = settle(entered, log)
    account = Account()
    say_totals(account, log, totals, entered)
    answer["lines"] = explain(account.result())
    answer["fill"] = fill_values(totals, log, entered["friend"])
    return answer


def finished_trick(trick: Trick) -> dict[str, object]:
    """Return a finished trick as the pad lists it, with its sentence in the page's language."""
    account = Account()
    say_trick(account, trick.number, trick.decision)
    return {**trick.as_dict(), "line": explain(account.result())[0]}


def friend_entered(friend: object, log: PlayLog) -> Friend | None:
    """Return the friend as the rules take it from the form's kind and card (None: not known)."""
    if not isinstance(friend, Mapping):
        return None
    kind = friend.get("kind")
    if kind == "none":
        return {"none": True}
    if kind == "first_trick":
        first = log.finished[0]
        return {"first_trick": first.plays[first.decision.index].seated}
    if kind != "card" or not friend.get("card"):
        return None
    try:
        return {"card": parse_card(friend["card"], "friend.card")}
    except Refusal:
        return None


def fill_values(totals: Totals, log: PlayLog, friend: Friend) -> dict[str, object]:
    """Return the form's values the tricks prove: the points, the holders and the friend."""
    player = totals.friend or log.boss
    return {
        "opposition_points": totals.opposition_points,
        "mighty_holder": totals.mighty_holder,
        "joker_holder": totals.joker_holder,
        "friend_player": None if "none" in friend else player,
    }


@blueprint.app_template_filter("mighty_decimal")
def decimal_words(value: float) -> str:
    """Return a hand's value (a misdeal's 2.5) with the reader's decimal sign: Hungarian 2,5."""
    return str(format_decimal(value))
