"""Korean, English and Hungarian: the reader's language, the picker, translated rule messages.

The language is the one picked on the page (a cookie), else the browser's Accept-Language,
else English. The API answers in the Accept-Language only; its error codes stay English.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Flask, has_request_context, redirect, request
from flask_babel import format_datetime, get_locale, gettext
from markupsafe import Markup, escape

from .access import safe_next
from .extensions import babel
from .games import base

LANGUAGES = {"en": "English", "ko": "한국어", "hu": "Magyar"}
COOKIE = "lang"
YEAR = 365 * 24 * 3600


def select_locale() -> str:
    """Return the language of this request: the picked one, the browser's, or English."""
    if not has_request_context():
        return "en"  # commands and background work speak English
    if not request.path.startswith("/api/"):
        picked = request.cookies.get(COOKIE)
        if picked in LANGUAGES:
            return picked
    return request.accept_languages.best_match(LANGUAGES) or "en"


def bdi(name: Any) -> Markup:
    """Isolate a player's name in <bdi>: its direction cannot reorder the text around it."""
    return Markup("<bdi>%s</bdi>") % (name,)


def bdi_join(names: Any, separator: str = ", ") -> Markup:
    """Join names, each isolated in <bdi>."""
    return escape(separator).join(bdi(name) for name in names)


def explain(result: dict[str, Any] | None) -> list[str]:
    """Return a round's explanation in the reader's language (stored English if no parts)."""
    if not result:
        return []
    parts = result.get("explanation_parts")
    if not parts or str(get_locale()) == "en":
        return list(result.get("explanation", []))
    return [base.fill(template, params) for template, params in parts]


def when(moment: datetime | str | None) -> str:
    """Write a stored time (UTC) as the reader's language writes dates and times."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_datetime(moment, "medium")


def pick_language(code: str):
    """Remember the picked language in a cookie and go back to the page it was picked on."""
    response = redirect(safe_next(request.args.get("next")))
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True)
    return response


def init_app(app: Flask) -> None:
    """Bind Flask-Babel, the picker route, the template helpers and the rules' translator."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")
    babel.init_app(app, locale_selector=select_locale)
    base.install_translator(gettext)
    app.add_url_rule("/language/<code>", "pick_language", pick_language)
    from .games import GAMES
    from .web.rule_labels import RULE_LABELS

    app.jinja_env.filters.update(bdi=bdi, bdi_join=bdi_join)
    app.jinja_env.globals.update(
        rule_label=lambda key: gettext(RULE_LABELS.get(key, key)),
        LANGUAGES=LANGUAGES,
        explain=explain,
        get_locale=get_locale,
        when=when,
        game_titles={slug: game.title for slug, game in GAMES.items()},
    )
