"""The Odyssey single-vote +1 when every voter found the storyteller's card
(the Dixit rules in docs/rules)."""

from __future__ import annotations

from refapp.games.dixit import Dixit
from refapp.games.game import Table

DIXIT = Dixit()
SEVEN = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")


def play(votes: dict, **rules):
    """Play Ann's first turn at seven (positions in seat order: Ann's card is 1)."""
    effective = DIXIT.resolve_rules({"two_votes_large_game": True, **rules})
    seated, state = DIXIT.start(SEVEN, effective, {})
    turn = {"storyteller": "Ann", "positions": list(SEVEN), "votes": votes}
    return DIXIT.play(Table(seated, effective), state, turn)


def test_all_found_each_single_vote_finder_gets_one_more():
    # every voter found card 1; Ben, Cy and Dee with it alone, the others with a second vote
    votes = {"Ben": [1], "Cy": [1], "Dee": [1], "Eve": [1, 2], "Fay": [1, 3], "Gus": [1, 2]}
    outcome = play(votes)
    deltas = outcome.result["deltas"]
    assert outcome.result["outcome"] == "all_found"
    assert deltas["Ann"] == 0  # all found: the storyteller scores nothing
    assert deltas["Ben"] == 2 + 1 + 2  # +2, the single vote +1, Eve's and Gus's votes on card 2
    assert deltas["Cy"] == 2 + 1 + 1  # Fay's vote on card 3
    assert deltas["Dee"] == 2 + 1
    assert deltas["Eve"] == deltas["Fay"] == deltas["Gus"] == 2  # two votes: no +1
    assert any("single vote" in line for line in outcome.result["explanation"])


def test_without_the_odyssey_rule_all_found_is_two_each():
    effective = DIXIT.resolve_rules({})
    seated, state = DIXIT.start(SEVEN, effective, {})
    turn = {"storyteller": "Ann", "positions": list(SEVEN), "votes": dict.fromkeys(SEVEN[1:], 1)}
    deltas = DIXIT.play(Table(seated, effective), state, turn).result["deltas"]
    assert deltas == {"Ann": 0, **dict.fromkeys(SEVEN[1:], 2)}
