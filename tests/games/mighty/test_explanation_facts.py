"""Every explanation of a set of varied Mighty hands names its facts, under every preset."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path

import pytest

from refapp.games.errors import Refusal
from refapp.games.game import Table
from refapp.games.mighty.cards import TRUMP_NAMES, card_words
from refapp.games.mighty.explain.facts import RULE_LABELS
from refapp.games.mighty.house_rules.presets import PRESETS
from refapp.games.mighty.scoring.multipliers import BECAUSE
from refapp.games.mighty.scoring.score import MULTIPLIER_NAMES

from .support import GAME, PLAYERS, fresh, passes

CASES = Path(__file__).parents[2] / "golden" / "mighty-tricks.json"
#: the trick-refereed cases that score a hand
TRICK_HANDS = [
    case
    for case in json.loads(CASES.read_text(encoding="utf-8"))
    if len(case["rounds"][0]["input"].get("tricks", [])) == 10 and "error" not in case["rounds"][0]
]
FRIENDS = (
    {"card": "HA", "player": "Ben"},
    {"none": True},
    {"card": "HK", "kitty": True},
    {"card": "DA", "player": "Cy"},  # the mighty when spades are trump
)
HOLDERS = ({}, {"mighty_holder": "kitty", "joker_holder": "opposition"}, {"mighty_holder": "boss"})


def hands() -> list[dict]:
    """Return varied hands of 16 (each trump, outcome, friend, holders, bidding) and trick hands."""
    varied = []
    for trump, points, friend, holders, bidding in itertools.product(
        ("S", "H", "NT"), (0, 3, 4, 8, 15), FRIENDS, HOLDERS, (False, True)
    ):
        raw = {
            "contract": {"boss": "Ann", "bid": 16, "trump": trump},
            "friend": friend,
            "opposition_points": points,
            **holders,
        }
        if bidding:
            raw["bidding"] = [{"player": "Ann", "bid": 14, "trump": "H"}, *passes(*PLAYERS[1:])]
        varied.append(raw)
    return varied + [copy.deepcopy(case["rounds"][0]["input"]) for case in TRICK_HANDS]


def named_facts(result: dict) -> None:
    """Assert the explanation names the hand's mighty, contract, change and multipliers."""
    facts, lines = result["facts"], result["explanation"]
    text = " ".join(lines)
    contract = facts["contract"]
    said = f"{contract['bid']} {TRUMP_NAMES[contract['trump']]}"
    assert lines[0].startswith(f"{contract['boss']} is the boss with {said}")
    mighty = card_words(facts["mighty"]["card"])
    under = f"The mighty under {TRUMP_NAMES[contract['trump']]} is {mighty}"
    assert any(line.startswith(under) for line in lines), lines
    assert any("joker" in line.lower() for line in lines[1:]), lines
    won, change = facts["winning_bid"], facts["contract_change"]
    if won is None:
        assert f"The bidding was not entered: the contract {said} is scored as declared." in lines
    else:
        opening = f"{won['player']} won the auction with {won['bid']} {TRUMP_NAMES[won['trump']]}"
        assert opening in text
        if change is None:
            assert "and the contract is that bid." in text
        elif change["rule"] is None:
            assert f"the contract raises it to {said}" in text
        else:
            assert f"the contract changes it to {said}" in text
            assert RULE_LABELS[change["rule"]] in text
    if facts["mighty"]["friend_card"]:
        assert f"The friend card is the mighty itself ({mighty})." in lines
    for fact in facts["multipliers"]:
        reason = f"{MULTIPLIER_NAMES[fact['name']]}: {BECAUSE[fact['because']]}"
        assert reason in text, (fact, lines)
        if fact["rule"] is not None:
            assert f"(house rule “{RULE_LABELS[fact['rule']]}”)" in text
    for name in result["multipliers"]:
        assert any(f["name"] == name and f["applied"] for f in facts["multipliers"])


@pytest.mark.parametrize("preset", [preset.key for preset in PRESETS])
def test_every_explanation_names_its_facts(preset):
    tab = Table(PLAYERS, GAME.resolve_rules({}, preset))
    scored = 0
    with_tricks = 0
    kinds = set()
    for raw in hands():
        try:
            result = GAME.play(tab, fresh(tab), copy.deepcopy(raw)).result
        except Refusal:
            continue  # holders that contradict the friend, or a call this preset forbids
        named_facts(result)
        scored += 1
        with_tricks += "tricks" in raw
        kinds.update((fact["name"], fact["applied"]) for fact in result["facts"]["multipliers"])
    assert scored >= 200 and with_tricks >= 3
    # each multiplier came up, applied, in some hand
    assert {name for name, applied in kinds if applied} >= {
        "run",
        "no_trump",
        "no_friend",
    }
