"""Dalmuti's "How we score": each house rule's value at the table changes what is said."""

from __future__ import annotations

import pytest

from refapp.games.game import Table

from .support import GAME, NAMES


def said(count: int = 5, **rules) -> dict[str, list[str]]:
    """Return the sentences by topic words for a table of count players under these rules."""
    table = Table(NAMES[:count], GAME.resolve_rules(rules))
    return {topic: account.lines for topic, account in GAME.how_we_score(table)}


def everything(count: int = 5, **rules) -> list[str]:
    """Return every sentence said for the table, in order."""
    return [line for lines in said(count, **rules).values() for line in lines]


def test_the_topics_are_the_games_own():
    assert list(said()) == list(GAME.topics.values())


def test_every_option_key_stays_out_of_the_sentences():
    text = " ".join(everything(rising_bonus=True, merchant_trade=True))
    for option in GAME.options:
        assert f" {option.key} " not in f" {text} ", option.key


@pytest.mark.parametrize(
    ("rules", "sentence"),
    [
        ({}, "The game is played by 4 to 8 players."),
        ({"allow_any_count": True}, "The game is played by 3 to 10 players."),
        ({}, "The whole deck is dealt: 80 cards."),
        (
            {"removed_ranks": [11, 12]},
            "Ranks 11, 12 are left out of the deck, so 57 cards are dealt.",
        ),
        (
            {},
            "When the cards do not divide evenly, the extra ones go to the Greater Dalmuti "
            "first, then down the ranks.",
        ),
        (
            {"extra_cards_to": "greater_peasant_first"},
            "When the cards do not divide evenly, the extra ones go to the Greater Peasant "
            "first, then up the ranks.",
        ),
        (
            {},
            "In the seating draw for the first hand, tied players draw again only to order "
            "themselves: they stay below everyone who drew better and above everyone who drew "
            "worse.",
        ),
        (
            {"draw_ties": "redraw"},
            "In the seating draw for the first hand, a player who draws a rank someone already "
            "drew draws again until the rank is theirs alone; their last card places them.",
        ),
    ],
)
def test_the_deal(rules, sentence):
    assert sentence in said(**rules)["Players and the deal"]


@pytest.mark.parametrize(
    ("rules", "present", "absent"),
    [
        ({}, "The Greater Peasant dealt both jesters may declare a greater revolution", "Nobody"),
        ({"greater_revolution": False}, "Nobody may reverse the ranks", "greater revolution i"),
        ({"lesser_peasant_revolution": True}, "The Lesser Peasant dealt both jesters", "Nobody"),
        ({}, "may keep them and only cancel the tribute", "must do so"),
        ({"gp_may_choose_plain": False}, "must do so: both jesters reverse them", "may keep"),
    ],
)
def test_revolutions(rules, present, absent):
    lines = " ".join(said(**rules)["Revolution"])
    assert present in lines and absent not in lines


def test_no_tax_says_so_and_nothing_else_of_it():
    assert said(tax=False)["Tax"] == [
        "No tribute is paid: every player keeps the cards they were dealt."
    ]


@pytest.mark.parametrize(
    ("rules", "sentence"),
    [
        ({}, "Tribute is paid every hand, the first one too, unless a revolution stops it."),
        (
            {"tax_first_hand": False},
            "Tribute is paid from the second hand on, unless a revolution stops it; the first "
            "hand has none.",
        ),
        (
            {},
            "A Dalmuti chooses the cards to give back from the hand they were dealt, before "
            "picking up the tribute.",
        ),
        (
            {"tax_timing": "sequential"},
            "A Dalmuti chooses the cards to give back after picking up the tribute, so they may "
            "pass on cards it brought.",
        ),
        ({}, "Jesters never change hands in the tribute."),
        (
            {"dalmuti_may_return_jester": True},
            "A Dalmuti may give a jester back; a peasant never gives one.",
        ),
        (
            {"merchant_trade": True},
            "Merchants may swap one card each, blind, by agreement; the referee only records it.",
        ),
    ],
)
def test_the_tax(rules, sentence):
    assert sentence in said(**rules)["Tax"]


@pytest.mark.parametrize(
    ("count", "least", "sentence"),
    [
        (
            5,
            4,
            "With 5 players (the Lesser pair's tribute needs 4 or more), the Lesser Peasant "
            "gives the Lesser Dalmuti their best card and gets any 1 back.",
        ),
        (
            5,
            6,
            "The Lesser Peasant and the Lesser Dalmuti exchange no cards: the Lesser pair pays "
            "tribute only with 6 players or more, and 5 sit here.",
        ),
        (
            3,
            4,
            "With 3 players there is no Lesser Peasant or Lesser Dalmuti: only the Greater pair "
            "exchanges.",
        ),
    ],
)
def test_the_lesser_pairs_tax_at_this_tables_size(count, least, sentence):
    lines = said(count, allow_any_count=True, lesser_tax_min_players=least)["Tax"]
    assert sentence in lines
    assert (
        "The Greater Peasant gives the Greater Dalmuti their 2 best cards and gets any 2 back."
        in lines
    )


@pytest.mark.parametrize(
    ("count", "rules", "sentence"),
    [
        (
            5,
            {},
            "Each hand a player scores one point for every player who finished below them: the "
            "first out 4 points, the last 0.",
        ),
        (
            6,
            {"scoring": "players_below_plus_one"},
            "Each hand a player scores one point for every player who finished below them, plus "
            "one: the first out 6 points, the last 1.",
        ),
        (
            6,
            {"scoring": "role_chips"},
            "Each hand a player scores the chip of the role they finish in: Greater Dalmuti 4, "
            "Lesser Dalmuti 3, every merchant 2, Lesser Peasant 1, Greater Peasant 0.",
        ),
        (
            4,
            {"scoring": "role_chips"},
            "Each hand a player scores the chip of the role they finish in: Greater Dalmuti 4, "
            "Lesser Dalmuti 3, Lesser Peasant 1, Greater Peasant 0.",
        ),
        (
            3,
            {"scoring": "role_chips"},
            "Each hand a player scores the chip of the role they finish in: Greater Dalmuti 4, "
            "the middle seat 3, Greater Peasant 0.",
        ),
        (5, {}, "No points for a rising peasant."),
        (
            5,
            {"rising_bonus": True},
            "The hand's Greater Dalmuti also scores a point for every place their Greater "
            "Peasant rose, and the Lesser Dalmuti likewise for the Lesser Peasant.",
        ),
        (5, {}, "The game goes on until the table ends it; the highest total wins."),
        (5, {"hands_to_play": 1}, "The game lasts 1 hand; the highest total wins."),
        (5, {"hands_to_play": 8}, "The game lasts 8 hands; the highest total wins."),
    ],
)
def test_points_and_length(count, rules, sentence):
    assert sentence in said(count, allow_any_count=True, **rules)["Points and length"]
