"""Reading stored figures, and the figures computed from every stored round, for comparison."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import GameSession, Player, PlayerFigures, Round, SessionPlayer
from refapp.services import owed

from . import figures_oracle as oracle


def from_the_rounds() -> dict[str, dict[str, dict[str, Any]]]:
    """Return every player's figures per game computed from all stored rounds (app context)."""
    seen: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for session in db.session.scalars(select(GameSession).order_by(GameSession.id)):
        results = list(
            db.session.scalars(
                select(Round.result).where(Round.session_id == session.id).order_by(Round.number)
            )
        )
        for name in session.players:
            seen[name][session.game].append((session.players, session.finished, results))
    return {
        name: {game: oracle.figures(game, name, sittings) for game, sittings in games.items()}
        for name, games in seen.items()
    }


def as_shown(client) -> dict[str, dict[str, dict[str, Any]]]:
    """Return every listed player's figures per game as ``GET /api/players/<name>`` shows them."""
    shown = {}
    for row in client.get("/api/players").get_json()["players"]:
        profile = client.get("/api/player", query_string={"name": row["name"]}).get_json()
        games = profile["games"]
        shown[row["name"]] = {
            game: {key: value for key, value in figures.items() if key != "title"}
            for game, figures in games.items()
        }
        overall = [figures for figures in shown[row["name"]].values()]
        assert row["sessions_played"] == profile["sessions_played"]
        assert profile["sessions_played"] == sum(f["sessions_played"] for f in overall)
        assert row["sessions_won"] == sum(f["sessions_won"] for f in overall)
        assert row["rounds_played"] == sum(f["rounds_played"] for f in overall)
        assert row["games"] == list(games)
    return shown


def stored_rows() -> dict[str, Any]:
    """Return every stored figure: the sums per player and game, each seat's tally and win; the
    sums as a read shows them (what running sessions' writes left owed added first)."""
    owed.pay_owed()
    sums = {
        (name, row.game): row.tally
        for row, name in db.session.execute(
            select(PlayerFigures, Player.name).join(Player, Player.id == PlayerFigures.player_id)
        )
    }
    seats = {
        (seat.session_id, name): (seat.tally, seat.won)
        for seat, name in db.session.execute(
            select(SessionPlayer, Player.name).join(Player, Player.id == SessionPlayer.player_id)
        )
    }
    return {"sums": sums, "seats": seats}


def check(app, client) -> dict[str, dict[str, dict[str, Any]]]:
    """Assert the stored figures are those of every stored round; return them."""
    with app.app_context():
        wanted = from_the_rounds()
        db.session.remove()
    shown = as_shown(client)
    assert shown == wanted
    return shown
