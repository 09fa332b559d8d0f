"""The games refapp referees, registered by slug; pure rules with no Flask or database."""

from .dalmuti import Dalmuti
from .dixit import Dixit
from .errors import MalformedInput, quote
from .game import Game
from .mighty import Mighty

GAMES: dict[str, Game] = {game.slug: game for game in (Dalmuti(), Mighty(), Dixit())}


def get_game(slug: object) -> Game:
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
