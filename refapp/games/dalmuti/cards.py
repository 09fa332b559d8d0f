"""The Great Dalmuti's cards: the deck, the cards' names, reading a card and the supply check.

Cards are written as in the API: ranks 1..12 (lower is better) and ``"J"`` for a jester.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypeVar

from ..errors import N_, MalformedInput, RuleViolation, Series, Word, quote
from ..inputs import whole_number
from .rules import house_rules
from .shapes import Card

JESTER = "J"
JESTER_RANK = 13
JESTER_COPIES = 2
#: a jester in a sentence's list of cards ("2, jester"; Korean 조커, Hungarian bolond): the
#: typed "J" reads as a letter (Korean 제이) and is no word of the game's
JESTER_WORD = Word(N_("jester"), JESTER)
RANKS = tuple(range(1, 13))

LANGUAGES = ("en", "de", "ko", "hu")

#: the cards' titles as printed (en / de / ko / hu), one row per rank, from the rules file. The
#: English ones are marked: explanations carry a card's title as a ``_t`` value (their catalog
#: entries follow the other columns); pages take the titles from RANK_NAMES directly.
RANK_TABLE: tuple[tuple[Card, str, str, str, str], ...] = (
    (1, N_("Dalmuti"), "Dalmuti", "달무티", "Dalmuti"),
    (2, N_("Archbishop"), "Erzbischof", "대주교", "érsek"),
    (3, N_("Earl Marshal"), "Hofmarschall", "시종장", "marsall"),
    (4, N_("Baroness"), "Baronin", "남작부인", "báróné"),
    (5, N_("Abbess"), "Äbtissin", "수녀원장", "zárdafőnöknő"),
    (6, N_("Knight"), "Ritter", "기사", "lovag"),
    (7, N_("Seamstress"), "Näherin", "재봉사", "varrónő"),
    (8, N_("Mason"), "Steinmetz", "석공", "kőműves"),
    (9, N_("Cook"), "Köchin", "요리사", "szakácsnő"),
    (10, N_("Shepherdess"), "Schafhirtin", "양치기", "pásztorlány"),
    (11, N_("Stonecutter"), "Bergmann", "광부", "bányász"),
    (12, N_("Peasant"), "Tagelöhner", "농노", "paraszt"),
    (JESTER, N_("Jester"), "Narr", "어릿광대", "bolond"),
)


#: what a title row names (a rank, a role)
Key = TypeVar("Key")


def titles(rows: Iterable[tuple[Key, str, str, str, str]]) -> dict[str, dict[Key, str]]:
    """Read title rows (key, en, de, ko, hu) into language -> key -> title."""
    found: dict[str, dict[Key, str]] = {language: {} for language in LANGUAGES}
    for key, *names in rows:
        for language, name in zip(LANGUAGES, names, strict=True):
            found[language][key] = name
    return found


RANK_NAMES: dict[str, dict[Card, str]] = titles(RANK_TABLE)


def parse_card(value: object, where: str) -> Card:
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
    if isinstance(number, float):
        number = whole_number(number, where)  # 2.5 is no whole number (invalid_value), 3.0 is 3
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 12:
        return number
    raise MalformedInput(
        "invalid_rank",
        "{value} is not a card: a card is a rank from 1 (Dalmuti) to 12 (Peasant) or 'J' (Jester).",
        where,
        value=quote(value),
    )


def parse_cards(value: object, where: str) -> list[Card]:
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
    """Write cards for a sentence: '2, 4, J' as typed; a message says the jester's word."""
    return Series(JESTER_WORD if card == JESTER else card for card in cards)


def rank_name(card: Card, language: str = "en") -> str:
    """Return a card's title in a language (en, de, ko, hu), e.g. 9 -> 'Cook'."""
    return RANK_NAMES.get(language, RANK_NAMES["en"])[card]


def deck(removed: Iterable[int] = ()) -> Counter[Card]:
    """Return the deck as card -> copies: rank r has r copies, two jesters, minus removed ranks."""
    gone = set(removed)
    cards: Counter[Card] = Counter({rank: rank for rank in RANKS if rank not in gone})
    cards[JESTER] = JESTER_COPIES
    return cards


def deck_size(rules: Mapping[str, object]) -> int:
    """Return how many cards are dealt under these house rules (80 without removed ranks)."""
    return sum(deck(house_rules(rules).removed_ranks).values())


def over_supply(cards: Counter[Card], removed: Iterable[int] = ()) -> tuple[Card, int, int] | None:
    """Return (card, count, copies) for the first card seen more often than the deck holds."""
    copies = deck(removed)
    for card in sorted(cards, key=card_value):
        if cards[card] > copies[card]:
            return card, cards[card], copies[card]
    return None


#: the fewest cards each player must be dealt (removed_ranks may not shrink the deck below it)
MIN_CARDS_EACH = 2


def check_deck(players: int, rules: Mapping[str, object]) -> None:
    """Refuse house rules whose deck, without ``removed_ranks``, deals a player too few cards."""
    size = deck_size(rules)
    if size < MIN_CARDS_EACH * players:
        raise MalformedInput(
            "invalid_rules",
            "Without ranks {removed} the deck has {size} cards, too few to deal {count} "
            "players {least} each.",
            "rules.removed_ranks",
            removed=cards_text(house_rules(rules).removed_ranks),
            size=size,
            count=players,
            least=MIN_CARDS_EACH,
        )


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
