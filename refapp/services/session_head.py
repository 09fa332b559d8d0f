"""A session as a page heads it, read from its own row and seats: no round is read.

The pages that show none of a session's rounds (the trick and check-a-play pages) and the
printable summary, which streams its rounds itself (``round_stream``), start from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games import get_game
from ..games.game import AnyGame, Table, leaders
from ..models import GameSession
from .sessions import table_of


@dataclass(frozen=True, slots=True)
class SessionHead:
    """A session's game, table, totals (those the services keep on it) and winners."""

    session: GameSession
    game: AnyGame
    table: Table
    totals: dict[str, int]
    winners: list[str]


def head_of(session: GameSession) -> SessionHead:
    """Describe a loaded session from its own row and seats, reading no round."""
    table = table_of(session)
    totals = {name: session.totals.get(name, 0) for name in table.players}
    winners = leaders(totals) if session.finished else []
    return SessionHead(session, get_game(session.game), table, totals, winners)
