"""Send to BG Stats: a finished or counted session as BG Stats' documented "create play" link.

BG Stats ("Push plays to BG Stats from other apps or websites") opens
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` and offers to save the
play it describes: the game, when and how long, where, and each player's score, place and win.
The link is only offered for a session that is over (finished, or counted after going idle),
so the play it sends is the one the standings show.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import quote

from ..games import get_game
from ..games.standings import places
from ..models import GameSession

#: BG Stats' page that takes a play from another app
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
#: how BG Stats knows the plays this app sends (with ``sourcePlayId``, it tells a resend)
SOURCE_NAME = "refapp"


def play_link(session: GameSession, bgg_id: int | None = None, zone: tzinfo = UTC) -> str | None:
    """Return the BG Stats link of a finished or counted session with rounds, else None.

    ``bgg_id`` is the game's BoardGameGeek id when its pages know it; ``zone`` is where the
    table plays (BG Stats reads the play's date as the players' own clock).
    """
    if not (session.finished or session.counted) or not session.round_count:
        return None
    data = json.dumps(play_data(session, bgg_id, zone), ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY}?data={quote(data, safe='')}"


def play_data(session: GameSession, bgg_id: int | None, zone: tzinfo) -> dict[str, Any]:
    """Return the play BG Stats is sent: game, date, minutes, location and players."""
    game: dict[str, Any] = {
        "name": get_game(session.game).title,
        "sourceGameId": session.game,
        "highestWins": True,
        "noPoints": False,
    }
    if bgg_id is not None:
        game["bggId"] = bgg_id
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(session.id),
        "playDate": play_date(session, zone),
        "durationMin": round(session.played_seconds / 60),
    }
    if session.location:
        play["location"] = session.location
    play["game"] = game
    play["players"] = players_of(session)
    return play


def play_date(session: GameSession, zone: tzinfo) -> str:
    """Return when the session began (its first round, else its creation) on the table's clock."""
    began = session.first_round_at or session.created_at
    if began.tzinfo is None:
        began = began.replace(tzinfo=UTC)
    return datetime.strftime(began.astimezone(zone), "%Y-%m-%d %H:%M:%S")


def players_of(session: GameSession) -> list[dict[str, Any]]:
    """Return each seated player with their total, place and win, in seat order."""
    totals = {name: session.totals.get(name, 0) for name in session.players}
    place = places(list(totals), totals)
    return [
        {
            "name": seat.player.name,
            "sourcePlayerId": str(seat.player_id),
            "score": totals[seat.player.name],
            "rank": place[seat.player.name],
            "winner": place[seat.player.name] == 1,
            "startPlayer": False,
            "role": "",
        }
        for seat in session.seats
    ]
