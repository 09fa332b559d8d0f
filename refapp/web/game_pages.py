"""Each game's pages, registered by the game's own web package; shared code names no game.

A game's web package (``refapp/games/<game>/web/``) builds one `GamePages` and passes it to
`register_pages`: its round form, its blueprint (its own pages, its templates under
``<game>/`` and its static files), its API routes, the words its input values and statistics are
shown in, and the parts of the session page it fills. `init_app` imports every registered
game's web package and registers its blueprints; the session page, the history, the player page
and the index read a game's parts from here.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, url_for
from markupsafe import Markup

from ..extensions import csrf
from ..games import GAMES, Game
from ..games.errors import Refusal
from .forms.base import RoundForm
from .forms.seating import Seating

#: a page's words: a lazy-translated string (shown with str())
Words = Any


@dataclass(frozen=True)
class GamePages:
    """What one game shows: its round form, its blueprint and API, its words and its files."""

    slug: str
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
    value_words: Mapping[str, Callable[[Any], Markup | str]] = field(default_factory=dict)
    #: how the text of each of the game's own path placeholders reads (e.g. a role's title)
    place_words: Mapping[str, Callable[[str], Markup | str]] = field(default_factory=dict)
    #: the game's own statistics figures as the player page words them, and a note under them
    figure_words: tuple[tuple[str, Words], ...] = ()
    figures_note: Words = ""
    #: figures shown as a percentage
    shares: tuple[str, ...] = ()
    #: how its new-session form seats the players (None: one name per line)
    seating: Seating | None = None
    #: the game's API paths that change nothing (answered without the table's password)
    open_api_paths: tuple[str, ...] = ()
    #: links the index page offers for this game: (words, endpoint)
    links: tuple[tuple[Words, str], ...] = ()
    #: the players out of the coming round (resting), greyed in the standings: from the
    #: session's view (a ``services.SessionView``); None: everyone plays every round
    resting: Callable[[Any], Collection[str]] | None = None

    def static_url(self, filename: str) -> str:
        """Return the address of one of the game's static files (versioned by its content)."""
        return url_for(f"{self.blueprint.name}.static", filename=filename)


#: every game's pages, by the game's slug
PAGES: dict[str, GamePages] = {}


def register_pages(pages: GamePages) -> GamePages:
    """Add a game's pages to the registry (its game must be registered first)."""
    if pages.slug not in GAMES:
        raise ValueError(f"no game is registered as {pages.slug!r}")
    PAGES[pages.slug] = pages
    return pages


def unregister_pages(slug: str) -> None:
    """Take a game's pages out of the registry (a test's own game, when the test ends)."""
    PAGES.pop(slug, None)


def pages_of(game: Game | str) -> GamePages:
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
    """Import the web package of every registered game that has one: it registers its pages."""
    for game in GAMES.values():
        package = f"{type(game).__module__}.web"
        if game.slug in PAGES or not has_module(package):
            continue
        found = getattr(importlib.import_module(package), "PAGES", None)
        if isinstance(found, GamePages) and found.slug not in PAGES:
            register_pages(found)  # imported before, its pages since taken out (a test's game)


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


def game_api(slug: str, import_name: str) -> Blueprint:
    """Return a game's API blueprint: its routes answer a refusal in the API's error shape."""
    from ..api.views import rule_violation

    api = Blueprint(f"{slug}_api", import_name)
    api.register_error_handler(Refusal, rule_violation)
    return api


def game_blueprint(slug: str, import_name: str) -> Blueprint:
    """Return a game's blueprint: its templates (``<slug>/...``) and static files beside it."""
    return Blueprint(
        slug,
        import_name,
        template_folder="templates",
        static_folder="static",
        static_url_path=f"/static/games/{slug}",
    )
