"""One trick judged alone (``POST /api/mighty/trick``): the referee's "who takes this?".

No session and no table: the players may be left unnamed, and only what one trick shows is
checked (its form, a card or a player twice); who takes it is ``tricks.trick.decide_trick``.
"""

from __future__ import annotations

from ...errors import MalformedInput, RuleViolation, quote
from ...game import Account
from ...inputs import mapping, name_given, require, sequence, whole_number
from ...options import resolve_rules
from ..cards import JOKER, Face, parse_trump
from ..explain.tricks import say_judged_trick
from ..house_rules.options import OPTIONS
from ..house_rules.rules import MightyRules
from ..shapes import JudgedTrick
from .trick import (
    PLAYS,
    TRICKS,
    Play,
    Specials,
    call_has_power,
    dead_joker,
    decide_trick,
    read_play,
)


def judge_trick(body: object) -> JudgedTrick:
    """Answer ``POST /api/mighty/trick``: who takes one trick, why, and its point cards.

    body is ``{"trump", "trick": 1..10, "plays": [{"player"?, "card", "suit"?, "call"?}],
    "rules"?}``; one to five plays, the leader's first; names are optional here.
    """
    body = mapping(body, "body")
    rules = MightyRules(resolve_rules(OPTIONS, body.get("rules") or {}))
    trump = parse_trump(require(body, "trump"), "trump")
    number = _trick_number(require(body, "trick"))
    raw_plays = sequence(require(body, "plays"), "plays")
    if not 1 <= len(raw_plays) <= PLAYS:
        raise MalformedInput(
            "invalid_value",
            "A trick has 1 to {most} plays, the leader's first, not {count}.",
            "plays",
            most=PLAYS,
            count=len(raw_plays),
        )
    specials = Specials.of(trump, rules)
    plays: list[Play] = []
    for position, raw in enumerate(raw_plays):
        play = read_play(raw, f"plays.{position}", position, specials, _any_name)
        _check_alone(play, plays, f"plays.{position}")
        plays.append(play)
    decision = decide_trick(trump, number, plays, rules)
    joker_in = any(play.card == JOKER for play in plays)
    account = Account()
    say_judged_trick(account, number, decision, plays[0])
    return {
        "trump": trump,
        "trick": number,
        "winner": decision.winner,
        "index": decision.index,
        "card": decision.card,
        "reason": decision.reason,
        "points": list(decision.points),
        "plays": [play.as_dict() for play in plays],
        "mighty": specials.mighty,
        "joker_call_card": specials.joker_call,
        "dead_joker": dead_joker(number, plays[0], specials) if joker_in else None,
        "call_has_power": call_has_power(number, plays[0], specials) if plays[0].call else None,
        **account.result(),
    }


def _trick_number(value: object) -> int:
    """Return a trick's number, 1 to 10, or raise ``invalid_value``."""
    number = whole_number(value, "trick")
    if not 1 <= number <= TRICKS:
        raise MalformedInput(
            "invalid_value",
            "trick must be a trick's number from 1 to {most}, not {value}.",
            "trick",
            most=TRICKS,
            value=quote(value),
        )
    return number


def _any_name(value: object, where: str) -> str | None:
    """Return a play's player name (optional when judging one trick alone)."""
    if value is None:
        return None
    return name_given(value, where)


def _check_alone(play: Play, plays: list[Play], where: str) -> None:
    """Refuse a card or a player already in the trick."""
    for done in plays:
        if done.card == play.card:
            raise RuleViolation(
                "card_played_twice",
                "{card} is already in this trick; no card is played twice.",
                f"{where}.card",
                card=Face(play.card),
            )
        if play.player is not None and done.player == play.player:
            raise RuleViolation(
                "out_of_turn",
                "{value} already played in this trick; each player plays one card a trick.",
                f"{where}.player",
                value=quote(play.player),
            )
