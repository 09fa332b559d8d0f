"""A round's input paths and values in the reader's language, for the history of changes.

Each game declares its round input once (``Game.round_input``: each path, the words naming it
and the kind of its value); this module turns a changed path into those words ("Trump (기루다)
of the contract", "Dee's vote") and a stored value into what the pages show, the game's own
kinds (a trump, a card, a revolution) by the words its pages register (``GamePages``). Player
names are data: they are never translated and always isolated in <bdi>. A path the game does
not declare reads as ``Game.describe_path`` says, never an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..games.game import AnyGame
from ..games.round_input import InputPath, find_path
from ..i18n import bdi, bdi_join, fit_words
from .game_pages import PAGES


def fill_escaped(template: object, **values: object) -> Markup:
    """Fill a translated template: its words escaped, each value escaped unless it is Markup,
    then its particles fitted to the values (Korean 지훈이, Hungarian a 2.); Markup stays."""
    return Markup(fit_words(escape(str(template)) % values))


def words_of(game: AnyGame, where: str) -> tuple[InputPath, dict[str, str]] | None:
    """Return the declared input path that names where, and the placeholders' text, or None."""
    return find_path(game.round_input, game.input_places, where)


def describe_path(game: AnyGame, where: str) -> Markup:
    """Name an input path in the reader's language: "Dee's vote", "Boss (주공)"."""
    known = words_of(game, where)
    if known is None:
        return escape(game.describe_path(where))  # a path no game declares reads as before
    declared, places = known
    values: dict[str, object] = dict(places)
    own = PAGES[game.slug].place_words if game.slug in PAGES else {}
    for name, text in places.items():
        if name == "player":
            values[name] = bdi(text)
        elif name in own:
            values[name] = own[name](text)
    return fill_escaped(_(declared.words), **values)


# -- values as a player reads them --------------------------------------------------------------


def shown(value: object) -> str:
    """Write a stored value briefly, as a player would read it."""
    if value is None:
        return str(_("nothing"))
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, list):
        return ", ".join(shown(item) for item in value) or _("nothing")
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def names(values: object) -> str:
    """Write a list of player names, or "nobody"."""
    if not isinstance(values, list):
        return shown(values) if values else _("nobody")
    return ", ".join(map(str, values)) or _("nobody")


def name_words(value: object) -> Markup | str:
    """Isolate one player's name (a list of names: each one)."""
    if isinstance(value, list):
        return names_words(value)
    return bdi(value) if isinstance(value, str) else shown(value)


def names_words(value: object) -> Markup | str:
    """Write player names, each isolated, or "nobody"."""
    if not isinstance(value, list):
        return name_words(value) if value else _("nobody")
    if not all(isinstance(name, str) for name in value):
        return shown(value)
    return bdi_join(value) if value else _("nobody")


VALUES: dict[str, Callable[[object], Markup | str]] = {
    "plain": shown,
    "name": name_words,
    "names": names_words,
}


def describe_value(game: AnyGame, where: str, value: object) -> Markup | str:
    """Write the value stored at an input path as a player reads it (names isolated)."""
    if value is None:
        return str(_("nothing"))
    known = words_of(game, where)
    kind = known[0].kind if known else "plain"
    own = PAGES[game.slug].value_words if game.slug in PAGES else {}
    return (own.get(kind) or VALUES.get(kind) or shown)(value)
