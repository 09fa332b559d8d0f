"""Mighty's cards: the notation players type, the point cards, the mighty and the joker by trump.

The Mighty rules in docs/rules, "Cards and notation". The deck is 52 cards and the joker; five
hands of 10 and a kitty of 3.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .. import errors
from ..errors import CONTEXT_SEPARATOR, N_, MalformedInput, quote

if TYPE_CHECKING:
    from .house_rules.rules import MightyRules

HAND_SIZE = 10
POINT_CARDS = 20
SUITS = ("S", "H", "D", "C")
TRUMPS = (*SUITS, "NT")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
POINT_RANKS = ("A", "K", "Q", "J", "10")
JOKER = "JK"
DECK = (*(suit + rank for suit in SUITS for rank in RANKS), JOKER)
TRUMP_NAMES = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
    "NT": N_("no-trump"),
}

#: the suits as printed on the cards; no-trump has no symbol
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: the outlined symbols a phone keyboard may offer instead
_HOLLOW_SYMBOLS = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}
_SUIT_ALIASES = {
    **{suit: suit for suit in SUITS},
    **{symbol: suit for suit, symbol in SUIT_SYMBOLS.items()},
    **{symbol: suit for suit, symbol in _HOLLOW_SYMBOLS.items()},
}
_RANK_ALIASES = {"T": "10"}
_JOKER_ALIASES = ("JK", "JOKER")


def parse_card(text: object, where: str = "card") -> str:
    """Return a card in canonical notation ("H10", "SA", "JK"), or raise ``invalid_card``.

    Input is case-insensitive; suit symbols and "T" for ten are accepted for phone keyboards.
    """
    if isinstance(text, str):
        card = text.strip().upper().replace(" ", "")
        if card in _JOKER_ALIASES:
            return JOKER
        suit, rank = _SUIT_ALIASES.get(card[:1]), _RANK_ALIASES.get(card[1:], card[1:])
        if suit and rank in RANKS:
            return suit + rank
    raise MalformedInput(
        "invalid_card",
        "{value} is not a card; write a suit S H D C and a rank A K Q J 10 9 .. 2 (e.g. 'H10'), "
        "or 'JK' for the joker.",
        where,
        value=quote(text),
    )


def parse_trump(text: object, where: str = "trump") -> str:
    """Return a trump in canonical notation (S, H, D, C or NT), or raise ``invalid_value``."""
    if isinstance(text, str):
        trump = text.strip().upper()
        if trump == "NT":
            return trump
        if trump in _SUIT_ALIASES:
            return _SUIT_ALIASES[trump]
    raise MalformedInput(
        "invalid_value",
        "{value} is not a trump: write S, H, D, C or NT (no-trump).",
        where,
        value=quote(text),
    )


class InContext(str):
    """A word marked for translation in a context: the string is gettext's catalog key for it,
    so the installed gettext (``errors.translate``, a ``_t`` value) translates it as any word;
    printed or formatted untranslated (English) it is the word itself."""

    __slots__ = ()

    @property
    def word(self) -> str:
        """Return the English word without its context."""
        return self.rpartition(CONTEXT_SEPARATOR)[2]

    def __str__(self) -> str:
        return self.word

    def __format__(self, spec: str) -> str:
        return format(self.word, spec)


def pgettext(context: str, word: str) -> InContext:
    """Mark a word for translation in a context (extracted with its ``msgctxt``); it is
    translated where it is shown."""
    return InContext(f"{context}{CONTEXT_SEPARATOR}{word}")


def said(text: str) -> str:
    """Return a word as translated, without a context left on it when no translation was found."""
    return text.rpartition(CONTEXT_SEPARATOR)[2]


#: the joker's name in a sentence (the other cards are written with their suit's symbol), in a
#: context of its own: the joker's button says "Joker" too, but Hungarian writes "Joker lap" on
#: the button and "a joker" in a sentence (the context is written out for the extractor)
JOKER_WORD = pgettext("card in a sentence", "Joker")


def card_suit(card: str) -> str | None:
    """Return a card's suit letter ("DA" -> "D"), or None for the joker."""
    return None if card == JOKER else card[:1]


def card_face(card: str) -> str:
    """Return a card with its suit's symbol: "DA" -> "♦A", "C3" -> "♣3"; the joker stays "JK"."""
    suit = card_suit(card)
    return card if suit is None else SUIT_SYMBOLS.get(suit, suit) + card[1:]


def card_words(card: str) -> str:
    """Return a card as players write it, for a message's ``_t`` value: "♠A", the joker's name."""
    return JOKER_WORD if card == JOKER else card_face(card)


def cards_words(cards: Iterable[str]) -> str:
    """Return cards other than the joker as players write them: "♠A ♥10"."""
    return " ".join(card_face(card) for card in cards)


class Face(str):
    """A card in a refusal's message: its code, written as players write it when filled."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(said(errors.translate(card_words(self))), spec)


def is_point_card(card: str) -> bool:
    """Return True for the A K Q J 10 of a suit: the 20 cards the hand is played for."""
    return card != JOKER and card[1:] in POINT_RANKS


def mighty_card(trump: str, rules: MightyRules) -> str:
    """Return the mighty under this trump: SA, or ``alt_mighty`` (DA) when spades are trump."""
    return rules.alt_mighty if trump == "S" else "SA"


def joker_call_card(trump: str, rules: MightyRules) -> str:
    """Return the joker-call card: C3, or ``alt_joker_call`` (S3) when clubs are trump."""
    return rules.alt_joker_call if trump == "C" else "C3"
