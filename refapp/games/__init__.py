"""The games refapp referees: pure rules, no Flask or database; each package registers itself.

Importing this package imports every game package under it (``refapp/games/<game>/``), whose
``__init__`` registers its `Game` with `registry.register`; nothing here names a game.
"""

import importlib
import pkgutil

from .errors import RuleViolation, quote
from .game import AnyGame, AnyOutcome, Game
from .registry import GAMES, get_game, register

__all__ = [
    "GAMES",
    "AnyGame",
    "AnyOutcome",
    "Game",
    "RuleViolation",
    "get_game",
    "quote",
    "register",
]

for _found in pkgutil.iter_modules(__path__):
    if _found.ispkg:
        importlib.import_module(f"{__name__}.{_found.name}")
