"""The Great Dalmuti's cards: the deck, removed ranks, reading a card, the cards' names."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti.cards import JESTER, RANK_NAMES, deck, deck_size, parse_card, rank_name
from refapp.games.dalmuti.ranks import ROLE_NAMES, ROLES, role_name

from .support import EVE, FOUR, P5, TAX, below, dry, play_table_case, refused, step


def test_the_deck_has_r_copies_of_rank_r_and_two_jesters():
    cards = deck()
    assert sum(cards.values()) == 80
    assert cards[1] == 1 and cards[12] == 12 and cards[JESTER] == 2


@pytest.mark.parametrize(("removed", "size"), [([], 80), ([12], 68), ([11, 12], 57)])
def test_removed_ranks_shrink_the_deck(removed, size):
    assert deck_size({"removed_ranks": removed}) == size


@pytest.mark.parametrize(("raw", "card"), [(1, 1), (12, 12), ("J", "J"), (" j ", "J"), (7.0, 7)])
def test_cards_are_ranks_or_jesters(raw, card):
    assert parse_card(raw, "x") == card


@pytest.mark.parametrize("raw", ["7", " 12 "])
def test_a_rank_sent_as_text_is_invalid_value(raw):
    """docs/API.md's Types: numbers are JSON numbers; the forms convert what a person types."""
    refused("invalid_value", parse_card, raw, "tribute.greater_peasant")


@pytest.mark.parametrize("raw", [2.5, 0.1, 12.75])
def test_a_rank_that_is_no_whole_number_is_invalid_value(raw):
    """Like every whole-number field (docs/API.md's Types); a whole one past 1..12 is a rank's."""
    error = refused("invalid_value", parse_card, raw, "tribute.greater_peasant")
    assert error.field == "tribute.greater_peasant"


@pytest.mark.parametrize("raw", [0, 13, -1, 13.0, "X", True, None, [3], "²"])
def test_anything_else_is_an_invalid_rank(raw):
    error = refused("invalid_rank", parse_card, raw, "tribute.greater_peasant")
    assert error.field == "tribute.greater_peasant"


def test_rank_and_role_names_in_four_languages():
    for language in ("en", "de", "ko", "hu"):
        assert set(RANK_NAMES[language]) == {*range(1, 13), JESTER}
        assert set(ROLE_NAMES[language]) == set(ROLES)
    assert rank_name(9) == "Cook" and rank_name(JESTER, "de") == "Narr"
    assert rank_name(11, "ko") == "광부" and rank_name(4, "hu") == "báróné"
    assert role_name("greater_peasant", "hu") == "Nagy Paraszt"


# -- worked table cases (golden style, values from the rules file) ---------------------------------

TABLE_CASES = {
    "four players without 11s and 12s: 57 cards, an 11 is out of the deck": {
        "players": FOUR,
        "rules": {"removed_ranks": [11, 12]},
        "state": {"hand_sizes": {"Ann": 15, "Ben": 14, "Cy": 14, "Dee": 14}},
        "rounds": [
            dry({"tribute": {**TAX, "greater_dalmuti": [11, 10]}}, error="supply_exceeded"),
            step(
                {
                    "tribute": {**TAX, "greater_dalmuti": [10, 10], "lesser_dalmuti": [9]},
                    "hands": {"Ann": [1, 2, 3, 3, 3, 4, 4, 4, 4, 6, 6, 6, 6, 6, "J"]},
                    "finish_order": FOUR,
                },
                error="card_not_in_hand",
            ),
            step(
                {
                    "tribute": {**TAX, "greater_dalmuti": [10, 10], "lesser_dalmuti": [10]},
                    "finish_order": FOUR,
                },
                deltas=below(*FOUR),
            ),
        ],
    },
    "five players without 12s: 14, 14, 14, 13, 13 and hands to match": {
        "players": P5,
        "rules": {"removed_ranks": [12]},
        "state": {"hand_sizes": {"Ann": 14, "Ben": 14, "Cy": 14, "Dee": 13, "Eve": 13}},
        "rounds": [
            dry({"hands": {"Eve": [*EVE[:11], 11, 11, "J"]}}, error="wrong_hand_size"),
            dry({"hands": {"Eve": [*EVE[:11], 11, 12]}}, error="supply_exceeded"),
            dry(
                {
                    "tribute": {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [11, 11]},
                    "hands": {"Eve": [*EVE[:11], 11, 11]},
                },
                result={"complete": False},
            ),
        ],
    },
}


@pytest.mark.parametrize("name", list(TABLE_CASES))
def test_worked_table_case(name):
    play_table_case(TABLE_CASES[name])
