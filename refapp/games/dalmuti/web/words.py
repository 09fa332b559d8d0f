"""The Great Dalmuti's page helpers: cards as typed, titles in the reader's language, the tax and
the finishing places in words, and the globals its templates use.

The rules work everything out (``refapp.games.dalmuti`` and its ``table_view``); this module only
words it in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from flask import has_request_context
from flask_babel import get_locale, gettext
from flask_babel import ngettext as untyped_ngettext

from ... import dalmuti
from ..cards import JESTER_WORD
from ..shapes import Exchange
from ..table_view import card_copies, next_hand
from . import blueprint

#: Flask-Babel's gettext, typed (the package ships no types): the translated words
_: Callable[..., str] = gettext
#: Flask-Babel's ngettext, typed likewise: the singular or plural words, filled in
ngettext: Callable[..., str] = untyped_ngettext

NUMBER = re.compile(r"[0-9]{1,2}")
#: the languages whose titles the Dalmuti pages show, the reader's first
SHOWN = ("en", "ko", "hu")


# -- cards as typed ---------------------------------------------------------------------------


def card_tokens(text: object) -> list[int | str]:
    """Return the cards typed in a field ('2 4', '12, 11', 'j', '13'): numbers, jesters as "J".

    A jester may be typed as 13, the number it counts as, and '.' parts cards too: a numeric
    keypad has neither J nor always a space. Anything else is kept as typed, so that the rules
    refuse it quoting the player's input.
    """
    cards: list[int | str] = []
    for token in re.split(r"[\s,;.]+", str(text or "").strip()):
        if not token:
            continue
        if token == str(dalmuti.JESTER_RANK) or token.upper() == dalmuti.JESTER:
            cards.append(dalmuti.JESTER)
        elif NUMBER.fullmatch(token):
            cards.append(int(token))
        else:
            cards.append(token)
    return cards


def cards_field(cards: object) -> str:
    """Write stored cards back into a field: [2, 4] -> '2 4'."""
    items = cards if isinstance(cards, list) else [cards]
    return " ".join(str(card) for card in items)


# -- titles and sentences the pages share -----------------------------------------------------


def language() -> str:
    """Return the reader's language for the title tables (en outside a request)."""
    locale = get_locale() if has_request_context() else None
    code = locale.language if locale is not None else "en"
    return code if code in dalmuti.LANGUAGES else "en"


def role_title(role: str) -> str:
    """Return a role's title in the reader's language, as the seeds name it."""
    return dalmuti.role_name(role, language())


def rank_title(card: int | str) -> str:
    """Return a card's title in the reader's language, as the seeds name it."""
    return dalmuti.rank_name(card, language())


def titled(name: str, ranks: Sequence[str]) -> str:
    """Write a player with their role in the reader's language, the role first as a title
    ('Greater Peasant Eve'): a particle after it then fits the name, never a bracket."""
    return _("%(role)s %(name)s", name=name, role=role_title(dalmuti.roles_of(ranks)[name]))


def cards_words(cards: Sequence[int | str]) -> str:
    """Write cards for a sentence, a jester by its word: '2, 4, jester' (Korean 조커)."""
    return ", ".join(_(JESTER_WORD) if card == dalmuti.JESTER else str(card) for card in cards)


def ordinal(number: int) -> str:
    """Write 1st, 2nd, 3rd... in the reader's language."""
    return _(dalmuti.ordinal(number))


def gives_label(giver: str, receiver: str, count: int, which: str) -> str:
    """Write one side of an exchange: 'Eve (Greater Peasant) gives Ann their 2 best cards'."""
    if which == "best":
        return ngettext(
            "%(giver)s gives %(receiver)s their best card",
            "%(giver)s gives %(receiver)s their %(num)s best cards",
            count,
            giver=giver,
            receiver=receiver,
        )
    return ngettext(
        "%(giver)s gives %(receiver)s any %(num)s card",
        "%(giver)s gives %(receiver)s any %(num)s cards",
        count,
        giver=giver,
        receiver=receiver,
    )


def tax_line(item: Exchange, back: Exchange | None) -> str:
    """Write one pair of the tax: the peasant's tribute and the dalmuti's answer, if any."""
    values = {"peasant": item["from"], "dalmuti": item["to"]}
    if back is None:
        return ngettext(
            "%(peasant)s gives %(dalmuti)s their best card.",
            "%(peasant)s gives %(dalmuti)s their %(num)s best cards.",
            item["count"],
            **values,
        )
    if back.get("after_receiving"):
        return ngettext(
            "%(peasant)s gives %(dalmuti)s their best card; %(dalmuti)s gives "
            "%(peasant)s any %(back)s (chosen after picking up the tribute).",
            "%(peasant)s gives %(dalmuti)s their %(num)s best cards; %(dalmuti)s gives "
            "%(peasant)s any %(back)s (chosen after picking up the tribute).",
            item["count"],
            back=back["count"],
            **values,
        )
    return ngettext(
        "%(peasant)s gives %(dalmuti)s their best card; %(dalmuti)s gives "
        "%(peasant)s any %(back)s.",
        "%(peasant)s gives %(dalmuti)s their %(num)s best cards; %(dalmuti)s gives "
        "%(peasant)s any %(back)s.",
        item["count"],
        back=back["count"],
        **values,
    )


def tax_lines(due: Sequence[Exchange]) -> list[str]:
    """Write the tax of a hand pair by pair: 'Eve gives Ann their 2 best cards; Ann gives ...'."""
    answers = {item["from"]: item for item in due if item["which"] == "any"}
    return [tax_line(item, answers.get(item["to"])) for item in due if item["which"] == "best"]


def exchanges(
    ranks: Sequence[str], tribute: Mapping[str, object] | None
) -> list[dict[str, object]]:
    """Return a stored tribute as giver, receiver and cards, in the order of the tax."""
    if not tribute:
        return []
    who = dalmuti.holders(ranks)
    rows: list[dict[str, object]] = []
    for role in dalmuti.TRIBUTE:
        if role in tribute and role in who:
            receiver = who[dalmuti.TRIBUTE[role][0]]
            rows.append({"from": who[role], "to": receiver, "role": role, "cards": tribute[role]})
    return rows


def place_label(place: int, count: int) -> str:
    """Label a finishing place with the rank it earns: '1st out: next Greater Dalmuti'."""
    role = role_title(dalmuti.role_of(place, count))
    if place == count:
        return _("Last: next %(role)s", role=role)
    return _("%(place)s out: next %(role)s", place=ordinal(place), number=place, role=role)


# -- what the Dalmuti templates use -------------------------------------------------------------


@blueprint.app_template_global()
def dalmuti_languages() -> list[str]:
    """Return the languages whose titles the pages show, the reader's first: ['ko', 'en', 'hu']."""
    reader = language()
    first = [reader] if reader in SHOWN else []
    return [*first, *(code for code in SHOWN if code != reader)]


@blueprint.app_template_global()
def dalmuti_role_names(role: str) -> list[tuple[str, str]]:
    """Return a role's titles in the other languages: [('ko', '달무티'), ('hu', 'Nagy Dalmuti')]."""
    others = dalmuti_languages()[1:]
    return [(code, dalmuti.role_name(role, code)) for code in others]


@blueprint.app_template_global()
def dalmuti_cards(rules: Mapping[str, object]) -> list[tuple[str, list[str], int, bool]]:
    """Return each card, best first, with its titles in dalmuti_languages() order, its copies
    in a full deck and whether this table's house rules take it out."""
    codes = dalmuti_languages()
    return [
        (str(card), [dalmuti.rank_name(card, code) for code in codes], copies, out)
        for card, copies, out in card_copies(rules)
    ]


@blueprint.app_template_global()
def dalmuti_card_number(card: int | str) -> int:
    """Return the number a card carries, as a tap pad shows it: a jester is 13."""
    return dalmuti.card_value(card)


blueprint.add_app_template_global(next_hand, "dalmuti_next_hand")
blueprint.add_app_template_global(tax_lines, "dalmuti_tax_lines")
blueprint.add_app_template_global(exchanges, "dalmuti_exchanges")
blueprint.add_app_template_global(role_title, "dalmuti_role_title")
blueprint.add_app_template_global(rank_title, "dalmuti_rank_title")
