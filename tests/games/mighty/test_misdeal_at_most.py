"""A table's own throw-in limit (``misdeal_at_most``): checked, counted as the mode counts."""

from __future__ import annotations

import pytest

from refapp.games.errors import Refusal
from refapp.games.mighty import Mighty
from refapp.games.mighty.bidding.misdeal import (
    misdeal_allowed,
    misdeal_limit,
    misdeal_most,
    misdeal_value,
)
from refapp.games.mighty.house_rules.options import OPTIONS
from refapp.games.mighty.table_view import misdeal_counts

from .support import LOW, table, violation

#: worth 1 counting point cards, 0.5 with tens at half: ♥K, ♦10 and the joker
ONE = ["HK", "D10", "JK", "C2", "C4", "D5", "H6", "S7", "S8", "D9"]
#: worth 2 counting point cards, 1 with tens at half: ♥K, ♦10 and ♣10 and the joker
TWO = ["HK", "D10", "C10", "JK", "C4", "D5", "H6", "S7", "S8", "D9"]
#: worth 3 with tens at half (♥K ♦K ♣K), 3 counting point cards too
THREE = ["HK", "DK", "CK", "C2", "C4", "D5", "H6", "S7", "S8", "D9"]
#: worth 2.5 with tens at half (♥K ♦K ♣10), 3 counting point cards
TWO_HALF = ["HK", "DK", "C10", "C2", "C4", "D5", "H6", "S7", "S8", "D9"]


def thrown_in(cards, **rules) -> bool:
    """Return True when Cy may throw these cards in at a table with these rules."""
    tab = table(**rules)
    try:
        out = Mighty().play(tab, {}, {"misdeal": {"player": "Cy", "hand": cards}})
    except Refusal as refused:
        assert refused.code == "misdeal_not_allowed", refused.code
        return False
    assert out.result["outcome"] == "misdeal"
    return True


def test_the_values_the_cases_below_rely_on():
    assert misdeal_value(ONE, "point_cards") == 1
    assert misdeal_value(TWO, "point_cards") == 2
    assert misdeal_value(TWO, "half_ten") == 1
    assert misdeal_value(TWO_HALF, "half_ten") == 2.5
    assert misdeal_value(TWO_HALF, "point_cards") == 3
    assert misdeal_value(THREE, "half_ten") == 3


def test_the_option_is_listed_after_the_misdeal_mode_with_words():
    keys = [option.key for option in OPTIONS]
    assert keys[keys.index("misdeal") + 1] == "misdeal_at_most"
    option = OPTIONS[keys.index("misdeal_at_most")]
    assert (option.default, option.nullable, option.group) == (None, True, "misdeal")
    assert option.label and "misdeal_at_most" not in option.description


@pytest.mark.parametrize(
    ("cards", "rules", "allowed"),
    [
        (ONE, {"misdeal_at_most": 1}, True),  # at the limit
        (TWO, {"misdeal_at_most": 1}, False),  # just above it
        (ONE, {}, False),  # the mode's own limit is 0
        (TWO, {"misdeal_at_most": 2.0}, True),  # 2.0 counts as 2
        (TWO_HALF, {"misdeal": "half_ten", "misdeal_at_most": 2.5}, True),  # "under 3"
        (THREE, {"misdeal": "half_ten", "misdeal_at_most": 2.5}, False),
        (TWO_HALF, {"misdeal_at_most": 2.5}, False),  # point cards count it 3
        (TWO, {"misdeal_at_most": 2.5}, True),
        (TWO, {"misdeal": "half_ten_strict", "misdeal_at_most": 1}, True),
        (TWO, {"misdeal": "half_ten_strict", "misdeal_at_most": 0.5}, False),
        (ONE, {"misdeal": "half_ten_strict", "misdeal_at_most": 0}, False),
        (LOW, {"misdeal_at_most": -1}, False),  # LOW is worth 0
        (LOW, {"misdeal": "off", "misdeal_at_most": 10}, False),  # ignored when off
    ],
)
def test_the_tables_limit_replaces_the_modes(cards, rules, allowed):
    assert thrown_in(cards, **rules) is allowed


def test_a_refused_hand_says_the_limit_in_words():
    error = violation({"misdeal": {"player": "Cy", "hand": TWO}}, table(misdeal_at_most=1))
    assert (error.code, error.field) == ("misdeal_not_allowed", "misdeal.hand")
    assert error.message == "Cy's hand is worth 2; a misdeal at this table needs at most 1."
    half = table(misdeal="half_ten", misdeal_at_most=2.5)
    error = violation({"misdeal": {"player": "Cy", "hand": THREE}}, half)
    assert error.message == "Cy's hand is worth 3; a misdeal at this table needs at most 2.5."
    assert "misdeal_at_most" not in error.message


def test_an_allowed_hand_is_explained_with_the_tables_limit():
    tab = table(misdeal="half_ten", misdeal_at_most=2.5)
    out = Mighty().play(tab, {}, {"misdeal": {"player": "Cy", "hand": TWO_HALF}})
    assert out.result["hand_value"] == 2.5
    assert "within this table's limit of at most 2.5" in out.result["explanation"][0]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0.3, "must be a number in steps of 0.5, not 0.3"),
        (11, "must be at most 10, not 11"),
        (-1.5, "must be at least -1, not -1.5"),
        ("1", "must be a number in steps of 0.5, not '1'"),
        (True, "must be a number in steps of 0.5, not true"),
        (float("inf"), "must be a number in steps of 0.5, not inf"),
        (10**400, "must be at most 10, not 1000"),  # too large for a float: compared as it is
        (-(10**400), "must be at least -1, not -1000"),
        (1e308, "must be at most 10, not 1e+308"),
    ],
)
def test_anything_else_is_invalid_rules_naming_the_rule(value, words):
    with pytest.raises(Refusal) as caught:
        table(misdeal_at_most=value)
    error = caught.value
    assert (error.code, error.field) == ("invalid_rules", "rules.misdeal_at_most")
    assert "“Most a hand may be worth for a throw-in (파토)”" in error.message
    assert words in error.message


@pytest.mark.parametrize(("value", "stored"), [(2.0, 2), (-1, -1), (10, 10), (0.5, 0.5)])
def test_a_whole_number_is_stored_whole(value, stored):
    got = table(misdeal_at_most=value).rules["misdeal_at_most"]
    assert (got, type(got)) == (stored, type(stored))


def test_the_limit_in_words_and_the_grids_most_follow_the_table():
    assert misdeal_limit(table().rules).startswith("0 or less")
    assert misdeal_limit(table(misdeal_at_most=1).rules).startswith("0 or less")  # the mode's
    assert misdeal_most(table(misdeal="half_ten").rules) == 0.5
    assert misdeal_most(table(misdeal="half_ten", misdeal_at_most=2.5).rules) == 2.5
    assert misdeal_most(table(misdeal="off", misdeal_at_most=2).rules) is None
    assert misdeal_counts(table(misdeal_at_most=3).rules)["most"] == 3
    assert misdeal_allowed(0.5, "half_ten") and not misdeal_allowed(1, "half_ten")
    assert misdeal_allowed(1, "half_ten", 1) and not misdeal_allowed(1, "off", 10)


def test_a_half_limit_reads_the_readers_way(app):
    """The table's limit is a number in the sentence: 2.5 in English, 2,5 in Hungarian."""
    half = table(misdeal="half_ten", misdeal_at_most=2.5)
    error = violation({"misdeal": {"player": "Cy", "hand": THREE}}, half)
    with app.test_request_context(headers={"Accept-Language": "hu"}):
        assert "2,5" in error.message and "2.5" not in error.message
