"""Korean, English and Hungarian: the reader's language, the picker, translated rule messages.

The language is the one picked on the page (a cookie), else the browser's Accept-Language,
else English. The API answers in the Accept-Language only; its error codes stay English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import cast

from flask import Flask, has_request_context, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import Domain, format_datetime, format_decimal, get_locale, gettext
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from . import particles
from .access import safe_next
from .extensions import babel
from .games import errors as rule_errors
from .games.game import AnyGame
from .games.options import RuleOption, grouped

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


def fit_words(text: str) -> str:
    """Fit a filled-in sentence's particles to its words in the reader's language."""
    return particles.fit(text, str(get_locale() or "en")) if has_request_context() else text


class FittingDomain(Domain):  # type: ignore[misc]  # Flask-Babel ships no type hints
    """Flask-Babel's translations, each filled-in message's particles fitted to its words."""

    def gettext(self, string: str, **variables: object) -> str:
        """Translate and fill in, then fit the particles."""
        return fit_words(super().gettext(string, **variables))

    def ngettext(self, singular: str, plural: str, num: int, **variables: object) -> str:
        """Translate the plural form and fill in, then fit the particles."""
        return fit_words(super().ngettext(singular, plural, num, **variables))

    def pgettext(self, context: str, string: str, **variables: object) -> str:
        """Translate in context and fill in, then fit the particles."""
        return fit_words(super().pgettext(context, string, **variables))

    def npgettext(
        self, context: str, singular: str, plural: str, num: int, **variables: object
    ) -> str:
        """Translate the plural form in context and fill in, then fit the particles."""
        return fit_words(super().npgettext(context, singular, plural, num, **variables))


#: one of Jinja's gettext callables (``gettext``, ``ngettext``, ...): the template's context,
#: then the message's words and values
TemplateGettext = Callable[..., str]


def fitting(function: TemplateGettext) -> TemplateGettext:
    """Wrap one of Jinja's gettext callables so that what it fills in is fitted too."""

    @pass_context
    def fitted(context: Context, *args: object, **variables: object) -> str:
        """Call the template's gettext, then fit the particles."""
        return fit_words(function(context, *args, **variables))

    return fitted


def join_names(names: Sequence[str]) -> str:
    """List names as the reader's language does: "Ann and Bob", "Ann, Bob and Cy"; Korean
    "철과 Anna" for two (the particle fitted), "민수, 서연, 철" for more."""
    items = [str(name) for name in names]
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return str(gettext("%(first)s and %(second)s", first=items[0], second=items[1]))
    return str(gettext("%(names)s and %(last)s", names=", ".join(items[:-1]), last=items[-1]))


def bdi(name: object) -> Markup:
    """Isolate a player's name in <bdi>: its direction cannot reorder the text around it."""
    return Markup("<bdi>%s</bdi>") % (name,)


def bdi_join(names: Iterable[object], separator: str = ", ") -> Markup:
    """Join names, each isolated in <bdi>."""
    return escape(separator).join(bdi(name) for name in names)


def explain(result: Mapping[str, object] | None) -> list[str]:
    """Return a round's explanation in the reader's language (stored English if no parts)."""
    if not result:
        return []
    parts = result.get("explanation_parts")
    if not isinstance(parts, list) or not parts or str(get_locale()) == "en":
        lines = result.get("explanation", [])
        return list(lines) if isinstance(lines, list) else []
    # each part as the rules write it (``Game.explain_parts``): a template and its values
    pairs = cast(list[tuple[str, Mapping[str, object]]], parts)
    return [rule_errors.fill(template, params) for template, params in pairs]


def rule_option(option: RuleOption | str) -> RuleOption | None:
    """Return the option itself, or the option with that key in any game (None if none has it)."""
    if isinstance(option, RuleOption):
        return option
    from .games import GAMES

    for game in GAMES.values():
        for known in game.options:
            if known.key == option:
                return known
    return None


def rule_label(option: RuleOption | str) -> str:
    """Return a house rule's name in the reader's language (given the option, or its key)."""
    found = rule_option(option)
    if found is None or not found.label:
        return str(option if found is None else found.key).replace("_", " ")
    return str(gettext(found.label))


def rule_value(option: RuleOption | str, value: object) -> str:
    """Return a house rule's value in the reader's language: a choice's words, yes or no, a list.

    A list's items are joined (a choice list by their words, a list of numbers as written); an
    empty list and a missing value read "none".
    """
    found = rule_option(option)
    if value is None:
        return str(gettext("none"))
    if isinstance(value, bool):
        return str(gettext("yes") if value else gettext("no"))
    if isinstance(value, list | tuple):
        words = [rule_value(found or option, item) for item in value]
        return ", ".join(words) if words else gettext("none")
    if found is not None and found.kind in ("choice", "choices"):
        return str(gettext(found.choice_label(value)))
    if isinstance(value, float):
        return str(format_decimal(value))  # the reader's decimal sign: 2.5, Hungarian 2,5
    return str(value)


def rule_groups(game: AnyGame) -> list[tuple[str, list[RuleOption]]]:
    """Return a game's options under its topics, each topic's words in the reader's language."""
    found = grouped(game.options, game.topics)
    return [(gettext(words) if words else "", members) for words, members in found]


def when(moment: datetime | str | None) -> str:
    """Write a stored time (UTC) as the reader's language writes dates and times."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return str(format_datetime(moment, "medium"))


def pick_language(code: str) -> ResponseReturnValue:
    """Remember the picked language in a cookie and go back to the page it was picked on."""
    response = redirect(safe_next(request.args.get("next")))
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True)
    return response


def init_app(app: Flask) -> None:
    """Bind Flask-Babel, the picker route, the template helpers and the rules' translator."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")
    babel.init_app(app, locale_selector=select_locale)
    babel.__dict__["domain_instance"] = FittingDomain()  # Babel caches its domain right there
    globals_ = app.jinja_env.globals
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):  # Jinja's i18n extension's
        globals_[name] = fitting(cast(TemplateGettext, globals_[name]))
    rule_errors.install_translator(gettext, fit_words, format_decimal, join_names)
    app.add_url_rule("/language/<code>", "pick_language", pick_language)
    from .games import GAMES

    app.jinja_env.filters.update(bdi=bdi, bdi_join=bdi_join)
    app.jinja_env.globals.update(
        rule_label=rule_label,
        rule_value=rule_value,
        rule_groups=rule_groups,
        LANGUAGES=LANGUAGES,
        explain=explain,
        get_locale=get_locale,
        when=when,
        game_titles={slug: game.title for slug, game in GAMES.items()},
    )
