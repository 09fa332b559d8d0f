"""Each game's pages, found with the game's own package; shared code names no game.

A game's web package (``refapp/games/<game>/web/``) builds one `GamePages` named ``PAGES``: its
round form, its blueprint (its own pages, its templates under ``<game>/`` and its static files),
its API routes, the words its input values and statistics are shown in, and the parts of the
session page it fills. `load_pages` reads ``<game>.web.PAGES`` for every registered game, under
the game's slug (the one registration is the game's); `init_app` registers their blueprints, and
the session page, the history, the player page and the index read a game's parts from here.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from flask import Blueprint, Flask, url_for
from markupsafe import Markup

from ..extensions import csrf
from ..games import GAMES, AnyGame
from ..services import SessionView
from .forms.base import RoundForm
from .forms.seating import Seating


class Words(Protocol):
    """A page's words: a str, or a lazy-translated string (Flask-Babel's) shown with str()."""

    def __str__(self) -> str:
        """Return the words in the reader's language."""
        ...


@dataclass(frozen=True)
class GamePages:
    """What one game shows: its round form, its blueprint and API, its words and its files."""

    #: the round form (its ``template`` is the form's part of the session page)
    round_form: type[RoundForm]
    #: the game's own pages, with its templates (``<slug>/...``) and static files
    blueprint: Blueprint
    #: the game's own API routes, answered under /api in the API's error shape
    api: Blueprint | None = None
    #: style sheets and scripts from the game's static folder that every page links
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    #: the session page's "what comes next" under the standings, and a round's summary line
    status: str | None = None
    summary: str | None = None
    #: how a value of each of the game's input kinds reads (``round_input`` kinds)
    value_words: Mapping[str, Callable[[object], Markup | str]] = field(default_factory=dict)
    #: how the text of each of the game's own path placeholders reads (e.g. a role's title)
    place_words: Mapping[str, Callable[[str], Markup | str]] = field(default_factory=dict)
    #: the game's own statistics figures as the player page words them, and a note under them
    figure_words: tuple[tuple[str, Words], ...] = ()
    figures_note: Words = ""
    #: figures shown as a percentage
    shares: tuple[str, ...] = ()
    #: the player page's part for the player's roles in this game (its template, which reads
    #: ``roles``: the game's ``roles`` of the player's statistics), and its records' names
    roles: str | None = None
    record_words: Mapping[str, Words] = field(default_factory=dict)
    #: how its new-session form seats the players (None: one name per line)
    seating: Seating | None = None
    #: the game's API paths that change nothing (answered without the table's password)
    open_api_paths: tuple[str, ...] = ()
    #: links the index page offers for this game: (words, endpoint)
    links: tuple[tuple[Words, str], ...] = ()
    #: the players out of the coming round (resting), greyed in the standings: from the
    #: session's view; None: everyone plays every round
    resting: Callable[[SessionView], Collection[str]] | None = None
    #: the game's BoardGameGeek id, which BG Stats knows it by (None: BoardGameGeek has no
    #: single entry for it); sent with the session's play (services/bgstats.py)
    bgg_id: int | None = None

    def static_url(self, filename: str) -> str:
        """Return the address of one of the game's static files (versioned by its content)."""
        return url_for(f"{self.blueprint.name}.static", filename=filename)


#: every game's pages, by the game's slug
PAGES: dict[str, GamePages] = {}


def pages_of(game: AnyGame | str) -> GamePages:
    """Return the registered pages of a game (by the game or its slug)."""
    slug = game if isinstance(game, str) else game.slug
    try:
        return PAGES[slug]
    except KeyError:
        raise LookupError(f"the game {slug!r} has no pages registered") from None


def has_module(name: str) -> bool:
    """Return True when a module of that name can be imported (its parent may be a module)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def load_pages() -> None:
    """Read the pages of every registered game from its web package (``<game>.web.PAGES``)."""
    for game in GAMES.values():
        package = f"{type(game).__module__}.web"
        if game.slug in PAGES or not has_module(package):
            continue
        found = getattr(importlib.import_module(package), "PAGES", None)
        if isinstance(found, GamePages):
            PAGES[game.slug] = found


def init_app(app: Flask) -> None:
    """Register every game's blueprints (its API under /api, exempt from the pages' CSRF).

    A registered game without pages stops the app here, by name, rather than on its first page.
    """
    load_pages()
    missing = [slug for slug in GAMES if slug not in PAGES]
    if missing:
        raise LookupError(f"games registered without pages (refapp/games/<game>/web/): {missing}")
    for pages in PAGES.values():
        app.register_blueprint(pages.blueprint)
        if pages.api is not None:
            csrf.exempt(pages.api)
            app.register_blueprint(pages.api, url_prefix="/api")
    app.add_template_global(pages_of, "game_pages")
    app.add_template_global(lambda: list(PAGES.values()), "every_game_pages")


def game_api(game: AnyGame, import_name: str) -> Blueprint:
    """Return a game's API blueprint, mounted under /api: a refusal there is answered in the
    API's error shape by the app's own handler (``refapp/__init__.py``)."""
    return Blueprint(f"{game.slug}_api", import_name)


def game_blueprint(game: AnyGame, import_name: str) -> Blueprint:
    """Return a game's blueprint: its templates (``<slug>/...``) and static files beside it."""
    slug = game.slug
    return Blueprint(
        slug,
        import_name,
        template_folder="templates",
        static_folder="static",
        static_url_path=f"/static/games/{slug}",
    )
