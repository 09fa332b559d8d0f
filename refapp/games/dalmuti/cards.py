"""The Great Dalmuti's cards: the deck, the cards' names, reading a card and the supply check.

Cards are written as in the API: ranks 1..12 (lower is better) and ``"J"`` for a jester.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import MalformedInput, RuleViolation, quote
from .options import house_rules
from .shapes import Card

JESTER = "J"
JESTER_RANK = 13
JESTER_COPIES = 2
RANKS = tuple(range(1, 13))

LANGUAGES = ("en", "de", "ko", "hu")

#: the cards' titles as printed (en / de / ko / hu), one line per rank, from the rules file
RANK_TABLE = """
1 Dalmuti / Dalmuti / 달무티 / Dalmuti
2 Archbishop / Erzbischof / 대주교 / érsek
3 Earl Marshal / Hofmarschall / 시종장 / marsall
4 Baroness / Baronin / 남작부인 / báróné
5 Abbess / Äbtissin / 수녀원장 / zárdafőnöknő
6 Knight / Ritter / 기사 / lovag
7 Seamstress / Näherin / 재봉사 / varrónő
8 Mason / Steinmetz / 석공 / kőműves
9 Cook / Köchin / 요리사 / szakácsnő
10 Shepherdess / Schafhirtin / 양치기 / pásztorlány
11 Stonecutter / Bergmann / 광부 / bányász
12 Peasant / Tagelöhner / 농노 / paraszt
J Jester / Narr / 어릿광대 / bolond
"""


def titles(rows: Iterable[Sequence[Any]]) -> dict[str, dict[Any, str]]:
    """Read title rows (key, en, de, ko, hu) into language -> key -> title."""
    found: dict[str, dict[Any, str]] = {language: {} for language in LANGUAGES}
    for key, *names in rows:
        for language, name in zip(LANGUAGES, names, strict=True):
            found[language][key] = name
    return found


def _rank_rows(table: str) -> list[list[Any]]:
    """Split the rank table's lines ('rank en / de / ko / hu') into rows."""
    rows = []
    for line in table.strip().splitlines():
        head, rest = line.split(" ", 1)
        rows.append([head if head == JESTER else int(head), *rest.split(" / ")])
    return rows


RANK_NAMES: dict[str, dict[Card, str]] = titles(_rank_rows(RANK_TABLE))


def parse_card(value: Any, where: str) -> Card:
    """Return value as a card (1..12 or "J"), or raise ``invalid_rank`` quoting it."""
    if isinstance(value, str) and value.strip().upper() == JESTER:
        return JESTER
    number = value
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value):
        raise MalformedInput(
            "invalid_value",
            "{value} is text; a card is a JSON number from 1 to 12, or 'J' for a jester.",
            where,
            value=quote(value),
        )
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 12:
        return number
    raise MalformedInput(
        "invalid_rank",
        "{value} is not a card: a card is a rank from 1 (Dalmuti) to 12 (Peasant) or 'J' (Jester).",
        where,
        value=quote(value),
    )


def parse_cards(value: Any, where: str) -> list[Card]:
    """Return a JSON list of cards (a bare card counts as a list of one), each checked."""
    items = value if isinstance(value, list) else [value]
    return [parse_card(item, where) for item in items]


def card_value(card: Card) -> int:
    """Return a card's rank number: a jester alone counts 13, the worst."""
    return JESTER_RANK if card == JESTER else int(card)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Return cards best first, jesters last."""
    return sorted(cards, key=card_value)


def cards_text(cards: Iterable[Card]) -> str:
    """Write cards for a sentence: '2, 4, J'."""
    return ", ".join(str(card) for card in cards)


def rank_name(card: Card, language: str = "en") -> str:
    """Return a card's title in a language (en, de, ko, hu), e.g. 9 -> 'Cook'."""
    return RANK_NAMES.get(language, RANK_NAMES["en"])[card]


def deck(removed: Iterable[int] = ()) -> Counter[Card]:
    """Return the deck as card -> copies: rank r has r copies, two jesters, minus removed ranks."""
    gone = set(removed)
    cards: Counter[Card] = Counter({rank: rank for rank in RANKS if rank not in gone})
    cards[JESTER] = JESTER_COPIES
    return cards


def deck_size(rules: Mapping[str, Any]) -> int:
    """Return how many cards are dealt under these house rules (80 without removed ranks)."""
    return sum(deck(house_rules(rules).removed_ranks).values())


def over_supply(cards: Counter[Card], removed: Iterable[int] = ()) -> tuple[Card, int, int] | None:
    """Return (card, count, copies) for the first card seen more often than the deck holds."""
    copies = deck(removed)
    for card in sorted(cards, key=card_value):
        if cards[card] > copies[card]:
            return card, cards[card], copies[card]
    return None


def check_supply(cards: Counter[Card], removed: Iterable[int], where: str, what: str) -> None:
    """Raise ``supply_exceeded`` if cards hold more copies of a card than the deck has.

    what names the cards in words, a constant marked with N_ ("These cards").
    """
    found = over_supply(cards, removed)
    if found is None:
        return
    card, count, copies = found
    if copies == 0 and card != JESTER:
        raise RuleViolation(
            "supply_exceeded",
            "{what_t} hold {count} copies of card {card}, but the deck has only {copies} "
            "(that rank is out of the deck).",
            where,
            what_t=what,
            count=count,
            card=quote(card),
            copies=copies,
        )
    raise RuleViolation(
        "supply_exceeded",
        "{what_t} hold {count} copies of card {card}, but the deck has only {copies}.",
        where,
        what_t=what,
        count=count,
        card=quote(card),
        copies=copies,
    )
