"""Dixit's rules as pure functions: scoring, the three-player table, options, every refusal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refapp.games.dixit import Dixit
from refapp.games.dixit.deck import hand_size, position_count
from refapp.games.errors import Refusal
from refapp.games.game import Table

DIXIT = Dixit()
FOUR = ("Ann", "Ben", "Cy", "Dee")
THREE = ("Ann", "Ben", "Cy")


def setup(players=FOUR, **rules):
    """Return (table, state before the first turn) for the given players and rule overrides."""
    effective = DIXIT.resolve_rules(rules)
    DIXIT.check_players(players, effective)
    seated, state = DIXIT.start(players, effective, {})
    return Table(seated, effective), state


def play(players=FOUR, state=None, rules=None, **turn):
    """Play one turn and return its outcome."""
    table, start = setup(players, **(rules or {}))
    return DIXIT.play(table, start if state is None else state, turn)


def refusal(players=FOUR, rules=None, state=None, **turn) -> Refusal:
    """Return the violation a turn raises."""
    with pytest.raises(Refusal) as caught:
        play(players, state, rules, **turn)
    return caught.value


SEED = {
    "storyteller": "Ann",
    "positions": ["Dee", "Ann", "Ben", "Cy"],
    "votes": {"Ben": 2, "Cy": 2, "Dee": 3},
}


def test_seed_turn_scores_three_four_three_zero_and_explains_it():
    outcome = play(**SEED)
    assert outcome.result["deltas"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert outcome.result["outcome"] == "some_found"
    assert outcome.result["storyteller_votes"] == 2
    assert outcome.result["finders"] == ["Ben", "Cy"]
    explained = " ".join(outcome.result["explanation"])
    assert "Ben, Cy found the storyteller's card" in explained
    assert "Dee voted for Ben's card (position 3): +1 to Ben." in explained


def test_seed_deck_bookkeeping_sixty_to_fifty_six():
    table, state = setup()
    assert state["draw_pile"] == 60
    outcome = DIXIT.play(table, state, SEED)
    assert (outcome.state["draw_pile"], outcome.state["discard_pile"]) == (56, 4)
    public = DIXIT.public_state(table, outcome.state, {})
    assert public["next_storyteller"] == "Ben"
    assert public["hand_size"] == 6 and public["positions"] == 4


def test_nobody_finds_it_everyone_else_two_plus_bonuses():
    outcome = play(
        storyteller="Ann",
        positions=["Dee", "Ann", "Ben", "Cy"],
        votes={"Ben": 4, "Cy": 1, "Dee": 3},
    )
    assert outcome.result["deltas"] == {"Ann": 0, "Ben": 3, "Cy": 3, "Dee": 3}
    assert outcome.result["outcome"] == "none_found"


def test_all_find_it_storyteller_zero():
    outcome = play(
        storyteller="Ann",
        positions=["Dee", "Ann", "Ben", "Cy"],
        votes={"Ben": 2, "Cy": 2, "Dee": 2},
    )
    assert outcome.result["deltas"] == {"Ann": 0, "Ben": 2, "Cy": 2, "Dee": 2}
    assert outcome.result["outcome"] == "all_found"


def test_three_players_seven_cards_five_positions_and_a_bonus_on_either_card():
    table, state = setup(THREE)
    assert hand_size(3) == 7 and position_count(3) == 5
    assert state["draw_pile"] == 84 - 21
    outcome = DIXIT.play(
        table,
        state,
        {
            "storyteller": "Ann",
            "positions": ["Ben", "Cy", "Ann", "Ben", "Cy"],
            "votes": {"Ben": 3, "Cy": 4},
        },
    )
    assert outcome.result["deltas"] == {"Ann": 3, "Ben": 4, "Cy": 0}
    assert outcome.state["draw_pile"] == 63 - 5


def test_bonus_cap_limits_vote_bonus():
    players = ("Ann", "Ben", "Cy", "Dee", "Eve")
    turn = {
        "storyteller": "Ann",
        "positions": ["Ann", "Ben", "Cy", "Dee", "Eve"],
        "votes": {"Cy": 2, "Dee": 2, "Eve": 2, "Ben": 1},
    }
    assert play(players, **turn).result["deltas"]["Ben"] == 3 + 3
    capped = play(players, rules={"bonus_cap": 2}, **turn)
    assert capped.result["deltas"]["Ben"] == 3 + 2
    assert any("capped at 2" in line for line in capped.result["explanation"])


def test_two_votes_single_finder_bonus_and_cap_three():
    players = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
    turn = {
        "storyteller": "Ann",
        "positions": list(players),
        "votes": {
            "Ben": [1],
            "Cy": [1, 2],
            "Dee": [2, 3],
            "Eve": [2, 3],
            "Fay": [2, 3],
            "Gus": [2, 3],
        },
    }
    outcome = play(players, rules={"two_votes_large_game": True}, **turn)
    deltas = outcome.result["deltas"]
    assert outcome.result["outcome"] == "some_found"
    assert deltas["Ann"] == 3
    assert deltas["Ben"] == 3 + 1 + 3  # finder, lone vote, bonus 5 capped at 3
    assert deltas["Cy"] == 3 + 3  # finder with two votes, bonus 4 capped at 3
    assert deltas["Dee"] == 0
    assert outcome.input["votes"]["Ben"] == [1]


def test_two_votes_widens_the_table_to_twelve():
    rules = DIXIT.resolve_rules({"two_votes_large_game": True})
    DIXIT.check_players([f"P{i}" for i in range(12)], rules)
    with pytest.raises(Refusal) as caught:
        DIXIT.check_players([f"P{i}" for i in range(9)], DIXIT.resolve_rules({}))
    assert caught.value.code == "bad_player_count"


def test_reshuffle_when_the_draw_pile_runs_short():
    table, state = setup()
    state = {**state, "draw_pile": 2, "discard_pile": 70}
    after = DIXIT.play(table, state, SEED).state
    assert after["draw_pile"] == 2 + 74 - 4 and after["discard_pile"] == 0
    assert after["reshuffles"] == 1
    assert not DIXIT.is_over(table, after, {})


def test_deck_exhausted_end_rule_ends_the_game():
    table, state = setup(deck_exhausted="end")
    state = {**state, "draw_pile": 3, "discard_pile": 60}
    after = DIXIT.play(table, state, SEED).state
    assert after["deck_exhausted"] is True
    assert DIXIT.is_over(table, after, {"Ann": 3})


def test_target_score_ends_the_game_and_null_means_no_target():
    table, _ = setup(target_score=10)
    assert DIXIT.is_over(table, {}, {"Ann": 10, "Ben": 2})
    assert not DIXIT.is_over(table, {}, {"Ann": 9, "Ben": 2})
    untargeted, _ = setup(target_score=None, end_after_rounds=2)
    assert not DIXIT.is_over(untargeted, {"turns": 7}, {"Ann": 999})


def test_storyteller_passes_to_the_left():
    table, state = setup()
    after = DIXIT.play(table, state, SEED).state
    with pytest.raises(Refusal) as caught:
        DIXIT.play(table, after, {**SEED, "storyteller": "Cy"})
    assert caught.value.code == "wrong_storyteller"
    assert "Ben" in caught.value.message and "'Cy'" in caught.value.message
    last = {**after, "last_storyteller": "Dee"}
    assert DIXIT.public_state(table, last, {})["next_storyteller"] == "Ann"


@pytest.mark.parametrize(
    ("turn", "code", "field"),
    [
        ({"votes": {"Ann": 2, "Ben": 2, "Cy": 2, "Dee": 3}}, "storyteller_voted", "votes.Ann"),
        ({"votes": {"Ben": 5, "Cy": 2, "Dee": 3}}, "vote_out_of_range", "votes.Ben"),
        ({"votes": {"Ben": 0, "Cy": 2, "Dee": 3}}, "vote_out_of_range", "votes.Ben"),
        ({"votes": {"Ben": 2, "Cy": 2}}, "missing_vote", "votes.Dee"),
        ({"votes": {"Ben": 3, "Cy": 2, "Dee": 2}}, "vote_own_card", "votes.Ben"),
        ({"votes": {"Ben": [2, 1], "Cy": 2, "Dee": 3}}, "invalid_value", "votes.Ben"),
        ({"votes": {"Ben": [2], "Cy": 2, "Dee": 3}}, "invalid_value", "votes.Ben"),
        ({"votes": {"Ben": 2, "Cy": 2, "Eve": 3}}, "unknown_player", "votes.Eve"),
        ({"votes": {"Ben": "two", "Cy": 2, "Dee": 3}}, "invalid_value", "votes.Ben"),
        ({"votes": [2, 2, 3]}, "invalid_value", "votes"),
        ({"positions": ["Ben", "Ann", "Ben", "Cy"]}, "wrong_card_count", "positions"),
        ({"positions": ["Dee", "Ann", "Ben"]}, "wrong_card_count", "positions"),
        ({"positions": ["Dee", "Ann", "Ben", "Zed"]}, "unknown_player", "positions.4"),
        ({"storyteller": "Zed"}, "unknown_player", "storyteller"),
        ({"storyteller": None}, "missing_field", "storyteller"),
    ],
)
def test_refusals_name_the_rule_and_the_field(turn, code, field):
    error = refusal(**{**SEED, **turn})
    assert (error.code, error.field) == (code, field)
    assert error.message


def test_two_votes_refuses_the_same_position_twice_and_three_votes():
    players = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
    base = {
        "storyteller": "Ann",
        "positions": list(players),
        "votes": {voter: [1] for voter in players[1:]},
    }
    rules = {"two_votes_large_game": True}
    twice = refusal(players, rules, **{**base, "votes": {**base["votes"], "Ben": [3, 3]}})
    assert twice.code == "duplicate_vote"
    thrice = refusal(players, rules, **{**base, "votes": {**base["votes"], "Ben": [1, 3, 4]}})
    assert thrice.code == "too_many_votes"


def test_three_players_cannot_vote_either_own_card():
    error = refusal(
        THREE,
        storyteller="Ann",
        positions=["Ben", "Cy", "Ann", "Ben", "Cy"],
        votes={"Ben": 4, "Cy": 3},
    )
    assert error.code == "vote_own_card" and error.field == "votes.Ben"


def test_partial_turn_checks_only_what_was_sent():
    table, state = setup()
    outcome = DIXIT.play(
        table, state, {"storyteller": "Ann", "positions": ["Dee", "Ann", "Ben", "Cy"]}, partial=True
    )
    assert outcome.result == {"complete": False}
    with pytest.raises(Refusal) as caught:
        DIXIT.play(table, state, {"storyteller": "Ann", "positions": ["Ann", "Ann"]}, partial=True)
    assert caught.value.code == "wrong_card_count"


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"target_score": 0}, "rules.target_score"),
        ({"target_score": "30"}, "rules.target_score"),
        ({"bonus_cap": -1}, "rules.bonus_cap"),
        ({"two_votes_large_game": 1}, "rules.two_votes_large_game"),
        ({"deck_exhausted": "stop"}, "rules.deck_exhausted"),
        ({"end_after_rounds": 0}, "rules.end_after_rounds"),
        ({"end_after_rounds": True}, "rules.end_after_rounds"),
        ({"large_table": "yes"}, "rules.large_table"),
        ({"target_score": None}, "rules.target_score"),
        ({"no_such_rule": True}, "rules.no_such_rule"),
    ],
)
def test_bad_house_rules_are_invalid_rules(rules, field):
    with pytest.raises(Refusal) as caught:
        DIXIT.resolve_rules(rules)
    assert (caught.value.code, caught.value.field) == ("invalid_rules", field)


@st.composite
def turns(draw):
    """Draw a table of 3..8 players and a legal turn on it."""
    count = draw(st.integers(3, 8))
    players = tuple(f"P{i}" for i in range(count))
    storyteller = draw(st.sampled_from(players))
    owners = [storyteller] + [p for p in players if p != storyteller] * (2 if count == 3 else 1)
    positions = draw(st.permutations(owners))
    votes = {}
    for voter in players:
        if voter != storyteller:
            allowed = [n for n, owner in enumerate(positions, 1) if owner != voter]
            votes[voter] = draw(st.sampled_from(allowed))
    return players, {"storyteller": storyteller, "positions": list(positions), "votes": votes}


@given(turns())
def test_any_legal_turn_scores_within_the_rules(drawn):
    players, turn = drawn
    table, state = setup(players)
    result = DIXIT.play(table, state, turn).result
    deltas = result["deltas"]
    storyteller = turn["storyteller"]
    assert set(deltas) == set(players)
    assert deltas[storyteller] in (0, 3)
    assert (deltas[storyteller] == 3) == (result["outcome"] == "some_found")
    voters = len(players) - 1
    bonus_total = sum(result["vote_bonus"].values())
    assert bonus_total == voters - result["storyteller_votes"]
    for player, delta in deltas.items():
        if player != storyteller:
            assert 0 <= delta <= 3 + result["vote_bonus"][player]
