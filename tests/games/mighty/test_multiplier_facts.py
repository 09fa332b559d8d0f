"""Each multiplier a table may expect, applied or not, with its reason and house rule."""

from __future__ import annotations

import pytest

from refapp.games.game import Table
from refapp.games.mighty.explain.facts import RULE_LABELS
from refapp.games.mighty.scoring.multipliers import BECAUSE
from refapp.games.mighty.scoring.score import MULTIPLIER_NAMES

from .support import GAME, PLAYERS, hand, play, table

NONE = {"none": True}


def online(**overrides) -> Table:
    """Return a table playing the online programs' preset, with overrides."""
    return Table(PLAYERS, GAME.resolve_rules(overrides, "online"))


def fact_of(result: dict, name: str) -> dict | None:
    """Return the multiplier fact named name, or None if the hand does not bring it up."""
    found = [fact for fact in result["facts"]["multipliers"] if fact["name"] == name]
    assert len(found) <= 1
    return found[0] if found else None


def sentence(name: str, applied: bool, because: str, rule: str | None) -> str:
    """Return the sentence a multiplier fact is said in (English)."""
    head = f"{'×2' if applied else 'No ×2'} for {MULTIPLIER_NAMES[name]}: {BECAUSE[because]}"
    return f"{head} (house rule “{RULE_LABELS[rule]}”)." if rule else f"{head}."


#: (hand, table, multiplier, applied, because, rule)
CASES = [
    # run
    (hand(15, "H", 0), table(), "run", True, "took_all_20", "run"),
    (hand(15, "H", 0), table(run="none"), "run", False, "run_none", "run"),
    # declared run: doubles again by default, not under the online preset
    (hand(20, "H", 0), table(), "declared_run", True, "bid_20_took_all_20", "declared_run_double"),
    (hand(20, "H", 0), online(), "declared_run", False, "rule_off", "declared_run_double"),
    # no-trump: a win's flag, a loss's loss_multipliers, a critic's rule
    (hand(15, "NT", 3), table(), "no_trump", True, "no_trump_contract", "double_no_trump"),
    (hand(15, "NT", 3), table(double_no_trump=False), "no_trump", False, "rule_off",
     "double_no_trump"),
    (hand(15, "NT", 8), table(), "no_trump", False, "loss_not_listed", "loss_multipliers"),
    (hand(15, "NT", 8), table(loss_multipliers=["no_trump"]), "no_trump", True, "no_trump_lost",
     "loss_multipliers"),
    (hand(15, "NT", 8), online(), "no_trump", True, "no_trump_lost", "loss_multipliers"),
    (hand(15, "NT", 5), table(), "no_trump", False, "critic", "critic"),
    (hand(15, "NT", 5), table(critic="draw"), "no_trump", False, "critic", "critic"),
    (hand(15, "NT", 5), table(critic="win"), "no_trump", True, "no_trump_contract",
     "double_no_trump"),
    # no mighty: the kitty or the opposition, as no_card_means counts them
    (hand(15, "H", 3, mighty_holder="kitty"), table(), "no_mighty", True, "mighty_in_kitty",
     "double_no_mighty"),
    (hand(15, "H", 3, mighty_holder="opposition"), table(), "no_mighty", True,
     "mighty_with_opposition", "double_no_mighty"),
    (hand(15, "H", 3, mighty_holder="opposition"), table(no_card_means="buried_only"),
     "no_mighty", False, "buried_only", "no_card_means"),
    (hand(15, "H", 3, mighty_holder="kitty"), table(no_card_means="buried_only"), "no_mighty",
     True, "mighty_in_kitty", "double_no_mighty"),
    (hand(15, "H", 3, mighty_holder="kitty"), online(), "no_mighty", False, "rule_off",
     "double_no_mighty"),
    (hand(15, "H", 8, mighty_holder="kitty"), table(), "no_mighty", False, "only_win", None),
    # no joker
    (hand(15, "H", 3, joker_holder="opposition"), table(), "no_joker", True,
     "joker_with_opposition", "double_no_joker"),
    (hand(15, "H", 3, joker_holder="kitty"), table(double_no_joker=False), "no_joker", False,
     "rule_off", "double_no_joker"),
    (hand(15, "H", 3, joker_holder="opposition"), table(no_card_means="buried_only"),
     "no_joker", False, "buried_only", "no_card_means"),
    # no friend: declared, or a self friend that does not double
    (hand(15, "H", 3, friend=NONE), table(), "no_friend", True, "declared_no_friend",
     "double_no_friend"),
    (hand(15, "H", 3, friend=NONE), table(double_no_friend=False), "no_friend", False,
     "rule_off", "double_no_friend"),
    (hand(15, "H", 8, friend=NONE), table(), "no_friend", False, "loss_not_listed",
     "loss_multipliers"),
    (hand(15, "H", 8, friend=NONE), online(), "no_friend", True, "no_friend_lost",
     "loss_multipliers"),
    (hand(15, "H", 3, friend={"card": "HK", "kitty": True}), table(), "no_friend", False,
     "self_friend", "double_no_friend"),
    # back-run: noted, doubled, or the penalty
    (hand(14, "H", 15), table(), "back_run", False, "back_run_flag", "back_run"),
    (hand(14, "H", 15), table(back_run="double"), "back_run", True, "back_run", "back_run"),
    (hand(14, "H", 15), table(back_run="seed_penalty"), "back_run", False, "back_run_penalty",
     "back_run"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "tab", "name", "applied", "because", "rule"), CASES)
def test_each_multiplier_names_its_fact_and_rule(raw, tab, name, applied, because, rule):
    result = play(raw, tab).result
    assert fact_of(result, name) == {
        "name": name,
        "applied": applied,
        "because": because,
        "rule": rule,
    }
    assert sentence(name, applied, because, rule) in result["explanation"]
    applied_names = [f["name"] for f in result["facts"]["multipliers"] if f["applied"]]
    assert [n for n in applied_names if n != "back_run"] == result["multipliers"]


def test_a_fixed_run_sets_m():
    result = play(hand(15, "H", 0), table(run="fixed_20")).result
    assert fact_of(result, "run") == {
        "name": "run",
        "applied": True,
        "because": "took_all_20",
        "rule": "run",
    }
    assert (
        "m = 20 for run (런): the ruling side took all 20 point cards (house rule “Run (런), "
        "all 20 point cards”)." in result["explanation"]
    )


@pytest.mark.parametrize(
    "raw",
    [hand(15, "H", 3), hand(15, "H", 3, mighty_holder="boss", joker_holder="friend")],
)
def test_a_plain_hand_brings_up_no_multiplier(raw):
    result = play(raw).result
    assert result["facts"]["multipliers"] == []
    assert not any("×2 for" in line for line in result["explanation"])


def test_a_self_friend_without_the_no_friend_double_is_not_brought_up():
    raw = hand(15, "H", 3, friend={"card": "HK", "kitty": True})
    result = play(raw, table(double_no_friend=False)).result
    assert fact_of(result, "no_friend") is None


def test_the_maximum_lists_every_win_multiplier_in_order():
    raw = hand(20, "NT", 0, friend=NONE, mighty_holder="kitty", joker_holder="kitty")
    result = play(raw).result
    facts = result["facts"]["multipliers"]
    assert [fact["name"] for fact in facts] == result["multipliers"]
    assert all(fact["applied"] for fact in facts)
