"""A played Mighty hand as a rated event: the ruling side against the opposition (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from ..ratings import Side
from .shapes import MightyResult
from .stats import PLAYED_HANDS, made


def hand_sides(players: Sequence[str], result: MightyResult) -> list[Side] | None:
    """Return a played hand's two teams, the winners ranked first: the boss and their friend (if
    another player) against the others who played it; None for a misdeal or an all-pass round.

    Killed and resting players sat the hand out; the teams keep the seats' order.
    """
    boss = result.get("boss")
    if result.get("outcome") not in PLAYED_HANDS or boss is None:
        return None
    out = {*result.get("killed", ()), *result.get("resting", ())}
    friend = result.get("friend")
    ruling = {boss, friend} - {None}
    playing = [name for name in players if name not in out]
    side = tuple(name for name in playing if name in ruling)
    others = tuple(name for name in playing if name not in ruling)
    if not side or not others:
        return None
    won = made(result)
    return [Side(side, 0 if won else 1), Side(others, 1 if won else 0)]
