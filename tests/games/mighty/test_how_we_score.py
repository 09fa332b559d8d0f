"""Mighty's "How we score": every house rule's value changes what the table is told."""

from __future__ import annotations

import itertools
import re

import pytest

from refapp.games.game import Table
from refapp.games.mighty import Mighty
from refapp.games.mighty.bidding.contract import contract_change_price
from refapp.games.mighty.explain.how_we_score import how_we_score
from refapp.games.mighty.house_rules.options import OPTIONS
from refapp.games.mighty.house_rules.presets import PRESETS

from .support import table

GAME = Mighty()
KEYS = [option.key for option in OPTIONS]


def sentences(seats: int = 5, **rules) -> list[str]:
    """Return every sentence said for a table with these house rules (English)."""
    tab = table(**rules)
    if seats != 5:
        tab = Table(tuple(f"P{seat}" for seat in range(seats)), tab.rules)
    return [line for _topic, said in GAME.how_we_score(tab) for line in said.lines]


def seats_of(option) -> int:
    """Return a table size the option applies at (five unless it is for other sizes only)."""
    return option.seats[0] if option.seats else 5


def values_of(option) -> list:
    """Return values of an option that mean different things at a table with the defaults."""
    if option.kind == "bool":
        return [True, False]
    if option.kind == "choice":
        return list(option.choices)
    if option.kind == "choices":
        return [[], *([choice] for choice in option.choices), list(option.choices)]
    if option.kind == "half":
        return [None, -1, 2.5, 10]
    if option.key == "min_bid":
        return [11, 13, 20]
    return [1, 2, 9]  # a trump change's price (0 and 1 are the same price: see below)


CASES = [
    (option.key, value)
    for option in OPTIONS
    for value in values_of(option)
    if not (option.key == "friend_types" and value == [])  # refused: a friend must be named
]


@pytest.mark.parametrize("option", OPTIONS, ids=KEYS)
def test_every_value_of_every_rule_is_said_differently(option):
    said = {}
    for value in values_of(option):
        if option.key == "friend_types" and value == []:
            continue
        said[repr(value)] = sentences(seats_of(option), **{option.key: value})
    for (one, first), (other, second) in itertools.combinations(said.items(), 2):
        assert first != second, f"{option.key}: {one} and {other} say the same"


@pytest.mark.parametrize(("key", "value"), CASES, ids=[f"{k}={v}" for k, v in CASES])
def test_no_sentence_names_an_option(key, value):
    for line in sentences(**{key: value}):
        for known in KEYS:
            assert not re.search(rf"\b{re.escape(known)}\b", line), (known, line)
        assert "{" not in line and "_" not in line, line


def test_the_topics_are_the_games_in_its_order():
    topics = [topic for topic, _said in GAME.how_we_score(table())]
    assert topics == list(GAME.topics.values())


def test_the_throw_in_limit_is_said_with_its_counting():
    default = sentences()
    assert any("worth at most 0 may throw them in" in line for line in default)
    assert any("each point card 1, ♠A 0, the joker -1" in line for line in default)
    own = sentences(misdeal="half_ten", misdeal_at_most=2.5)
    assert any("worth at most 2.5 may throw them in" in line for line in own)
    assert any("each 10 0.5" in line for line in own)
    assert "That is the table's own limit: the counting alone would allow at most 0.5." in own
    strict = sentences(misdeal="half_ten_strict")
    assert any("worth at most 0 may throw them in" in line for line in strict)


def test_a_limit_is_not_said_when_throw_ins_are_off():
    off = sentences(misdeal="off")
    assert off == sentences(misdeal="off", misdeal_at_most=3)
    assert "Nobody may throw a hand in (파토) at this table: every dealt hand is played." in off
    assert not any("at most" in line for line in off)


def test_numbers_and_cards_follow_the_rules():
    assert any("from 15 to 20" in line for line in sentences(min_bid=15))
    assert any("(the bid - 12)" in line for line in sentences(min_bid=12, win_formula="pagat"))
    reopened = sentences(min_bid=14, all_pass="open_kitty")
    assert any("starts again from 16" in line for line in reopened)
    assert "The mighty is ♠A; when spades are trump it is ♣A." in sentences(alt_mighty="CA")
    calls = sentences(alt_joker_call="H3")
    assert "The joker call card (조커콜) is ♣3; when clubs are trump it is ♥3." in calls
    costs = sentences(to_no_trump_cost=0, suit_change_cost=3, from_no_trump_cost=4)
    assert "Changing a suit to no-trump needs no raise." in costs
    assert any("another suit needs a contract at least 3 higher" in line for line in costs)
    assert any("no-trump to a suit needs a contract at least 4 higher" in line for line in costs)


def test_a_free_trump_change_is_said_as_the_raise_it_still_needs():
    """A price of 0 still needs a higher contract, as a price of 1 does: the same sentence."""
    rules = table(suit_change_cost=0).rules
    assert contract_change_price(14, "H", "S", rules) == 15
    assert sentences(suit_change_cost=0) == sentences(suit_change_cost=1)
    assert sentences(from_no_trump_cost=0) == sentences(from_no_trump_cost=1)


def test_a_rule_that_changes_nothing_at_the_table_is_left_unsaid():
    no_card = sentences(friend_types=["none"])
    assert no_card == sentences(friend_types=["none"], friend_card_in_own_hand="forbidden")
    plain = {"double_no_mighty": False, "double_no_joker": False}
    assert sentences(**plain) == sentences(**plain, no_card_means="buried_only")
    assert not any("buried" in line or "did not hold" in line for line in sentences(**plain))


def test_the_lost_contracts_that_double_are_each_said():
    both = sentences(loss_multipliers=["no_trump", "no_friend"])
    assert "A lost no-trump contract doubles what the opposition wins." in both
    assert "A lost contract after declaring no friend doubles what the opposition wins." in both
    never = "A lost contract is never doubled for being no-trump or without a friend."
    assert never in sentences() and never not in both


def test_a_preset_is_said_through_the_rules_it_sets():
    online = next(preset for preset in PRESETS if preset.key == "online")
    said = [line for _t, acc in GAME.how_we_score(table(**online.rules)) for line in acc.lines]
    assert (
        "When the ruling side takes exactly its bid (크리틱), it is scored as an ordinary win."
        in said
    )
    assert "A heavy loss (백런) doubles what the opposition wins." in said
    assert said != sentences()


def test_the_pure_module_takes_plain_rules():
    """Rules as a stored session holds them (a dict, some options missing) read as defaults."""
    said = how_we_score({"misdeal": "half_ten"})
    assert [topic for topic, _ in said] == list(GAME.topics)
    assert said[1][1].lines[1].startswith("A player whose 10 dealt cards are worth at most 0.5")
