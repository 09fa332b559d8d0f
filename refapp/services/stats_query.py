"""What a statistics request asks for (docs/API.md, "Statistics across sessions"): one game or
all, and optionally a period (``from``, ``to``: UTC days, inclusive, by a session's last round)
and players who all sat at each session (``players``, comma-separated names).

Each refusal is ``422 invalid_value`` naming the parameter and quoting what was sent.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from ..club import current_group_id
from ..extensions import db
from ..games import GAMES
from ..games.errors import MalformedInput, quote
from ..models import Player
from .values import has_control

#: the most names ``players`` takes: as many as the largest table any game's house rules seat,
#: since more could never all sit at one session
MOST_NAMES = 12
#: a day as the filters take it: ISO 8601's calendar date, digits only (2026-11-27)
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class Query:
    """What a statistics request asks for: a game (None: all), a period, players seated together."""

    game: str | None = None
    #: the first and the last UTC day of the period (None: open at that end)
    date_from: date | None = None
    date_to: date | None = None
    #: the ids of the players each session must seat (every one of them), in the order named
    players: tuple[int, ...] = ()

    @classmethod
    def of(cls, args: Mapping[str, str]) -> Query:
        """Read a request's query, refusing the first bad parameter (``invalid_value`` naming it)
        in the order game, from, to, players."""
        game = args.get("game") or None
        if game is not None and game not in GAMES:
            raise MalformedInput(
                "invalid_value",
                "Unknown game {value}; refapp referees {known}.",
                "game",
                value=quote(game),
                known=", ".join(GAMES),
            )
        date_from, date_to = day(args, "from"), day(args, "to")
        if date_from is not None and date_to is not None:
            in_order(date_from, date_to)
        return cls(game, date_from, date_to, seated_together(args.get("players") or ""))

    @property
    def filtered(self) -> bool:
        """Return True when the query narrows the sessions (a period, or players)."""
        return bool(self.date_from or self.date_to or self.players)

    def games(self) -> list[str]:
        """Return the games asked for."""
        return [self.game] if self.game else list(GAMES)


def in_order(first: date, last: date) -> None:
    """Refuse a period (a query's or a season's) that ends before it starts, naming ``to``."""
    if last < first:
        raise MalformedInput(
            "invalid_value",
            "The period cannot end on {value}, before it starts on {start}.",
            "to",
            value=quote(last.isoformat()),
            start=quote(first.isoformat()),
        )


def day(args: Mapping[str, str], key: str) -> date | None:
    """Return the day a parameter names (2026-11-27), or None when absent or empty."""
    text = (args.get(key) or "").strip()
    if not text:
        return None
    try:
        if DAY.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise MalformedInput(
        "invalid_value",
        "{value} is not a date; write a day as 2026-11-27.",
        key,
        value=quote(text),
    )


def seated_together(text: str) -> tuple[int, ...]:
    """Return the ids of the players ``players`` names (comma-separated; each trimmed and NFC,
    empty items and repeats left out), refusing too many names or a name never seated."""
    names = list(
        dict.fromkeys(
            unicodedata.normalize("NFC", item.strip()) for item in text.split(",") if item.strip()
        )
    )
    if len(names) > MOST_NAMES:
        raise MalformedInput(
            "invalid_value",
            "Name at most {most} players, not {count}: {value}.",
            "players",
            most=MOST_NAMES,
            count=len(names),
            value=quote(text),
        )
    wanted = [name for name in names if not has_control(name)]  # PostgreSQL refuses a NUL
    found: dict[str, int] = {}
    if wanted:
        mine = Player.group_id == current_group_id()
        rows = db.session.execute(
            select(Player.id, Player.name).where(Player.name.in_(wanted), mine)
        )
        found = {row.name: row.id for row in rows}
    for name in names:
        if name not in found:
            raise MalformedInput(
                "invalid_value", "There is no player {value}.", "players", value=quote(name)
            )
    return tuple(found[name] for name in names)
