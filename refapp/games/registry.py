"""The registry of games: each game package registers its one `Game` here when it is imported."""

from __future__ import annotations

from typing import TypeVar

from .errors import MalformedInput, quote
from .game import AnyGame

#: every registered game by slug, in the order pages list them (each game's ``position``)
GAMES: dict[str, AnyGame] = {}

#: a game of its own round types: register hands back the very game it was given
GameT = TypeVar("GameT", bound=AnyGame)


def register(game: GameT) -> GameT:
    """Add a game to the registry (once per slug) and keep the registry in page order."""
    if not game.slug or (game.slug in GAMES and GAMES[game.slug] is not game):
        raise ValueError(f"a game is already registered as {game.slug!r}")
    known_games: list[AnyGame] = [*GAMES.values(), game]
    ordered = sorted(known_games, key=lambda known: (known.position, known.slug))
    GAMES.clear()
    GAMES.update((known.slug, known) for known in ordered)
    return game


def get_game(slug: object) -> AnyGame:
    """Return the registered game for slug, or raise ``unknown_game`` quoting it."""
    if isinstance(slug, str) and slug in GAMES:
        return GAMES[slug]
    raise MalformedInput(
        "unknown_game",
        "Unknown game {value}; refapp referees {known}.",
        "game",
        value=quote(slug),
        known=", ".join(GAMES),
    )
