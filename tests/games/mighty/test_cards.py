"""Mighty's cards: the notation, the deck and the special cards by trump."""

from __future__ import annotations

import pytest

from refapp.games.errors import Refusal
from refapp.games.mighty.cards import (
    DECK,
    TRUMPS,
    joker_call_card,
    mighty_card,
    parse_card,
    parse_trump,
)

from .support import typed_rules


@pytest.mark.parametrize(
    ("text", "card"),
    [("SA", "SA"), ("h10", "H10"), (" d3 ", "D3"), ("jk", "JK"), ("Joker", "JK"), ("♠A", "SA"),
     ("CT", "C10")],
)  # fmt: skip
def test_parse_card_canonical(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "S1", "X5", "S11", "JJ", 10, None, "H 1 0 0"])
def test_parse_card_refuses(text):
    with pytest.raises(Refusal) as caught:
        parse_card(text, "friend.card")
    assert caught.value.code == "invalid_card"
    assert caught.value.field == "friend.card"


def test_parse_trump():
    assert [parse_trump(t) for t in ("s", "H", " d", "C", "nt")] == ["S", "H", "D", "C", "NT"]
    with pytest.raises(Refusal) as caught:
        parse_trump("X", "contract.trump")
    assert caught.value.code == "invalid_value"
    assert "'X'" in caught.value.message


def test_deck_has_53_cards():
    assert len(set(DECK)) == 53


def test_mighty_and_joker_call_by_trump():
    rules = typed_rules({})
    assert [mighty_card(t, rules) for t in TRUMPS] == ["DA", "SA", "SA", "SA", "SA"]
    assert [joker_call_card(t, rules) for t in TRUMPS] == ["C3", "C3", "C3", "S3", "C3"]
    other = typed_rules({"alt_mighty": "CA", "alt_joker_call": "H3"})
    assert mighty_card("S", other) == "CA"
    assert joker_call_card("C", other) == "H3"
