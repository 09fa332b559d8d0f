"""The card pad's repair: one played card changed, the tricks after it checked again.

The plays keep the players the pad named them with when they were tapped, so a later trick
whose leader was the old winner of the changed trick no longer fits (``wrong_leader``), nor
does one where the new card was played again (``card_played_twice``) or that a new void now
proves a revoke. Those tricks are dropped from the first that breaks: each one's leader is the
winner of the one before, so nothing after a broken trick can stand. The changed trick itself
must fit: a change the referee refuses is refused whole (422) and nothing moves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from ...errors import N_, MalformedInput, Refusal, quote
from ...inputs import mapping, whole_number
from ..cards import card_words
from ..house_rules.rules import MightyTable
from ..shapes import Lead
from ..tricks.checks import referee_tricks
from ..tricks.log import PlayLog

#: what a change may say about the new play (its player stays the one named before)
CHANGE_KEYS = ("card", "suit", "call")
#: a referee's refusal names the play it stopped at: tricks.<index>.<position>...
TRICK_PATH = re.compile(r"^tricks\.(\d+)(?:\.|$)")
#: the refusals' values that are cards, shown as the table writes them
CARD_PARAMS = ("card", "call_card", "led", "trump_card")


def change_play(
    table: MightyTable, contract: Lead, named: list[list[dict[str, object]]], raw: object
) -> tuple[PlayLog, dict[str, Any]]:
    """Change one named play and return the tricks that still fit, with what the pad says."""
    index, position = read_change(named, raw)
    old = named[index][position]
    new = {key: value for key, value in mapping(raw, "change").items() if key in CHANGE_KEYS}
    tricks = [[dict(play) for play in trick] for trick in named]
    tricks[index][position] = {"player": old["player"], **new}
    log, broke = keep_fitting(table, contract, tricks, index)
    kept = len(log.finished) + (1 if log.current else 0)
    played = (log.finished[index].plays if index < len(log.finished) else log.current)[position]
    change = {
        "trick": index + 1,
        "play": position + 1,
        "player": old["player"],
        "old": str(old.get("card", "")),
        "new": played.card,
        "kept": list(range(index + 2, kept + 1)),
        "dropped": list(range(kept + 1, len(named) + 1)),
        "code": broke.code if broke else None,
    }
    change["lines"] = change_lines(change, broke)
    return log, change


def read_change(named: list[list[dict[str, object]]], raw: object) -> tuple[int, int]:
    """Return the changed play's trick and position (from 0); both must be on the pad."""
    given = mapping(raw, "change")
    trick = whole_number(given.get("trick"), "change.trick")
    if not 1 <= trick <= len(named):
        raise MalformedInput(
            "invalid_value",
            "{where} must be a trick on the pad, 1 to {most}, not {value}.",
            "change.trick",
            where="change.trick",
            most=len(named),
            value=quote(trick),
        )
    play = whole_number(given.get("play"), "change.play")
    if not 1 <= play <= len(named[trick - 1]):
        raise MalformedInput(
            "invalid_value",
            "{where} must be a play of trick {trick}, 1 to {most}, not {value}.",
            "change.play",
            where="change.play",
            trick=trick,
            most=len(named[trick - 1]),
            value=quote(play),
        )
    return trick - 1, play - 1


def keep_fitting(
    table: MightyTable, contract: Lead, tricks: list[list[dict[str, object]]], changed: int
) -> tuple[PlayLog, Refusal | None]:
    """Referee the tricks, dropping them from the first one after ``changed`` that breaks.

    Returns the log of the tricks kept and the refusal of the first trick dropped (None when
    all still fit). A refusal at or before the changed trick is the change's own: raised.
    """
    end = len(tricks)
    broke: Refusal | None = None
    while True:
        try:
            return referee_tricks(table, contract, tricks[:end], partial=True), broke
        except Refusal as refusal:
            found = TRICK_PATH.match(refusal.field or "")
            at = int(found.group(1)) if found else None
            if at is None or at <= changed:
                raise faced(refusal) from None
            broke = broke or refusal
            end = at  # at < end: the loop ends, at the latest with the changed trick last


def face(card: object) -> str:
    """Return a card as the table writes it: ♠A, and the joker by its name."""
    return str(_(card_words(card))) if isinstance(card, str) else str(card)


def faced(refusal: Refusal) -> Refusal:
    """Return the same refusal with its cards as the table writes them (♠A, the joker named)."""
    params = dict(refusal.params)
    for key in CARD_PARAMS:
        if isinstance(params.get(key), str):
            params[key] = face(params[key])
    value = params.get("value")
    if refusal.code == "wrong_leader" and isinstance(value, str):
        params["value"] = value.strip("'\"")  # a name on the pad, not a typed value
    return type(refusal)(refusal.code, refusal.template, refusal.field, **params)


def tricks_line(tricks: list[int], one: str, many: str) -> str:
    """Say one trick or a run of tricks in its sentence (nothing for none)."""
    if not tricks:
        return ""
    if len(tricks) == 1:
        return str(_(one, trick=tricks[0]))
    return str(_(many, first=tricks[0], last=tricks[-1]))


def change_lines(change: Mapping[str, Any], broke: Refusal | None) -> list[str]:
    """Say what changed, which tricks still fit and were kept, and which need entering again."""
    lines = [
        _(
            "Trick %(trick)s: %(player)s played %(new)s, not %(old)s.",
            trick=change["trick"],
            player=change["player"],
            new=face(change["new"]),
            old=face(change["old"]),
        )
    ]
    kept = tricks_line(
        change["kept"],
        N_("Trick %(trick)s still fits: kept as entered."),
        N_("Tricks %(first)s to %(last)s still fit: kept as entered."),
    )
    dropped = tricks_line(
        change["dropped"],
        N_("Trick %(trick)s no longer fits: enter it again."),
        N_("Tricks %(first)s to %(last)s no longer fit: enter them again."),
    )
    lines += [line for line in (kept, dropped) if line]
    if broke is not None:
        lines.append(faced(broke).message)
    return lines
