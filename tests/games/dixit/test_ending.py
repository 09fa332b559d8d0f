"""When a Dixit game ends: the deck's last card, the rounds of storytellers, the target; the large
table; and what the state tells the table (turns left, why it ended)."""

from __future__ import annotations

import pytest

from refapp.games.dixit import Dixit
from refapp.games.dixit.deck import position_count
from refapp.games.errors import Refusal
from refapp.games.game import Table

DIXIT = Dixit()


def seated(count: int) -> tuple[str, ...]:
    """Return count players' names."""
    return tuple(f"P{i}" for i in range(1, count + 1))


def all_found(players: tuple[str, ...], storyteller: str) -> dict:
    """Return a turn in which every voter finds the storyteller's card at position 1."""
    laid = [storyteller] + [p for p in players if p != storyteller] * (
        2 if len(players) == 3 else 1
    )
    votes = {p: 1 for p in players if p != storyteller}
    return {"storyteller": storyteller, "positions": laid, "votes": votes}


def play_out(count: int, **rules) -> tuple[int, list, dict, dict]:
    """Play all-found turns until the game ends; return turns, last explanation, state, public."""
    players = seated(count)
    effective = DIXIT.resolve_rules({"target_score": 10**6, **rules})
    DIXIT.check_players(players, effective)
    order, state = DIXIT.start(players, effective, {})
    table = Table(order, effective)
    totals = dict.fromkeys(players, 0)
    storyteller, turns, explanation = players[0], 0, []
    while not DIXIT.is_over(table, state, totals):
        assert turns < 200
        outcome = DIXIT.play(table, state, all_found(players, storyteller))
        state, turns = outcome.state, turns + 1
        explanation = outcome.result["explanation"]
        for name, delta in outcome.result["deltas"].items():
            totals[name] += delta
        storyteller = table.left_of(storyteller)
    return turns, explanation, dict(state), DIXIT.public_state(table, state, totals)


@pytest.mark.parametrize(
    ("count", "last", "pile"),
    [(3, 13, 3), (4, 15, 0), (5, 11, 4), (6, 8, 0), (7, 6, 0), (8, 5, 4)],
)
def test_the_deck_ends_the_game_after_the_turn_that_empties_or_cannot_refill(count, last, pile):
    turns, explanation, state, public = play_out(count, deck_exhausted="end")
    assert (turns, state["draw_pile"], state["deck_exhausted"]) == (last, pile, True)
    assert public["end_reasons"] == ["deck_exhausted"] and public["turns_left"] == 0
    if pile == 0:
        assert explanation[-1] == "The refill took the last card of the draw pile: the game ends."
    else:
        assert explanation[-1] == (
            f"Cards left in the draw pile: {pile}, fewer than the {position_count(count)} the "
            "refill needs: the hands are not refilled and the game ends."
        )


def test_six_players_end_after_turn_eight_not_nine():
    players = seated(6)
    rules = DIXIT.resolve_rules({"deck_exhausted": "end"})
    _, state = DIXIT.start(players, rules, {})
    table = Table(players, rules)
    state = {**state, "draw_pile": 6, "turns": 7, "last_storyteller": "P1"}
    public = DIXIT.public_state(table, state, {})
    assert public["turns_left"] == 1 and public["end_reasons"] == []
    after = DIXIT.play(table, state, all_found(players, "P2")).state
    assert (after["draw_pile"], after["discard_pile"], after["turns"]) == (0, 6, 8)
    assert DIXIT.is_over(table, after, {})


def test_an_empty_pile_stored_before_the_flag_still_ends_the_game():
    table = Table(seated(6), DIXIT.resolve_rules({"deck_exhausted": "end"}))
    stored = {"last_storyteller": "P2", "turns": 8, "draw_pile": 0, "discard_pile": 48}
    assert DIXIT.is_over(table, {**stored, "deck_exhausted": False}, {})
    reshuffling = Table(seated(6), DIXIT.resolve_rules({}))
    assert not DIXIT.is_over(reshuffling, stored, {})


def test_reshuffling_goes_on_past_the_deck():
    players = seated(6)
    rules = DIXIT.resolve_rules({})
    _, state = DIXIT.start(players, rules, {})
    table = Table(players, rules)
    state = {**state, "draw_pile": 6, "discard_pile": 42, "turns": 7, "last_storyteller": "P1"}
    after = DIXIT.play(table, state, all_found(players, "P2")).state
    assert (after["draw_pile"], after["reshuffles"]) == (0, 0)
    assert not DIXIT.is_over(table, after, {})
    again = DIXIT.play(table, after, all_found(players, "P3")).state
    assert (again["draw_pile"], again["discard_pile"], again["reshuffles"]) == (48 + 6 - 6, 0, 1)
    assert DIXIT.public_state(table, again, {})["turns_left"] is None


@pytest.mark.parametrize(("count", "rounds"), [(3, 1), (4, 2), (7, 3)])
def test_end_after_rounds_ends_after_every_player_told_that_many_times(count, rounds):
    turns, explanation, state, public = play_out(count, end_after_rounds=rounds)
    assert turns == state["turns"] == count * rounds
    assert public["full_rounds"] == rounds and public["turns_left"] == 0
    assert public["end_reasons"] == ["end_after_rounds"]
    assert explanation[-1] == (
        f"This turn completes the last round of storytellers ({rounds} of {rounds}): the game ends."
    )


def test_turns_left_counts_down_and_takes_the_sooner_end():
    players = seated(4)
    rules = DIXIT.resolve_rules({"end_after_rounds": 5, "deck_exhausted": "end"})
    _, state = DIXIT.start(players, rules, {})
    table = Table(players, rules)
    assert DIXIT.public_state(table, state, {})["turns_left"] == 15  # the deck before 20 turns
    one_round = DIXIT.resolve_rules({"end_after_rounds": 1, "deck_exhausted": "end"})
    assert DIXIT.public_state(Table(players, one_round), state, {})["turns_left"] == 4
    after = DIXIT.play(Table(players, one_round), state, all_found(players, "P1")).state
    assert DIXIT.public_state(Table(players, one_round), after, {})["turns_left"] == 3
    plain = DIXIT.resolve_rules({})
    assert DIXIT.public_state(Table(players, plain), state, {})["turns_left"] is None


def test_the_target_and_the_rounds_end_whichever_comes_first():
    table = Table(seated(4), DIXIT.resolve_rules({"target_score": 10, "end_after_rounds": 2}))
    assert (
        DIXIT.public_state(table, {"turns": 3, "draw_pile": 50, "discard_pile": 12}, {})[
            "end_reasons"
        ]
        == []
    )
    early = {"turns": 3, "draw_pile": 48, "discard_pile": 12}
    assert DIXIT.is_over(table, early, {"P1": 10})
    reasons = DIXIT.public_state(table, {**early, "turns": 8}, {"P1": 12})["end_reasons"]
    assert reasons == ["target_score", "end_after_rounds"]


def test_no_target_score_leaves_only_the_rounds():
    turns, _, _, public = play_out(5, target_score=None, end_after_rounds=1)
    assert turns == 5 and public["target_score"] is None


def test_no_target_score_without_rounds_to_play_is_invalid_rules():
    with pytest.raises(Refusal) as caught:
        DIXIT.resolve_rules({"target_score": None})
    error = caught.value
    assert (error.code, error.field) == ("invalid_rules", "rules.target_score")
    assert error.message == (
        "The house rule “Target score” may be none only with “Rounds of storytellers to play” "
        "set: without either the game would never end."
    )
    with pytest.raises(Refusal):
        DIXIT.resolve_rules({"end_after_rounds": None, "target_score": None})
    assert (
        DIXIT.resolve_rules({"target_score": None, "end_after_rounds": 3})["target_score"] is None
    )


@pytest.mark.parametrize(
    ("rules", "most"),
    [
        ({}, 8),
        ({"large_table": True}, 12),
        ({"two_votes_large_game": True}, 12),
        ({"large_table": True, "two_votes_large_game": True}, 12),
    ],
)
def test_players_per_table(rules, most):
    effective = DIXIT.resolve_rules(rules)
    assert DIXIT.player_range(effective) == (3, most)
    with pytest.raises(Refusal) as caught:
        DIXIT.check_players(seated(most + 1), effective)
    assert caught.value.code == "bad_player_count"


@pytest.mark.parametrize(("count", "pile"), [(3, 168 - 21), (8, 168 - 48), (10, 108), (12, 96)])
def test_a_large_table_deals_from_168_cards(count, pile):
    rules = DIXIT.resolve_rules({"large_table": True})
    assert DIXIT.start(seated(count), rules, {})[1]["draw_pile"] == pile
    assert DIXIT.start(seated(3), DIXIT.resolve_rules({}), {})[1]["draw_pile"] == 84 - 21


def test_a_large_table_votes_once_without_a_cap():
    """Ten players: P1 tells; P2 alone finds it; the seven others all vote for P3's card."""
    players = seated(10)
    table = Table(players, DIXIT.resolve_rules({"large_table": True}))
    _, state = DIXIT.start(players, table.rules, {})
    votes = {p: 3 for p in players[3:]} | {"P2": 1, "P3": 2}
    turn = {"storyteller": "P1", "positions": list(players), "votes": votes}
    result = DIXIT.play(table, state, turn).result
    assert result["deltas"] == {"P1": 3, "P2": 3 + 1, "P3": 7} | dict.fromkeys(players[3:], 0)
    with pytest.raises(Refusal) as caught:
        DIXIT.play(table, state, {**turn, "votes": {**votes, "P4": [3, 1]}})
    assert (caught.value.code, caught.value.field) == ("invalid_value", "votes.P4")


def test_a_large_table_with_odyssey_gives_two_votes_from_seven():
    players = seated(10)
    table = Table(players, DIXIT.resolve_rules({"large_table": True, "two_votes_large_game": True}))
    _, state = DIXIT.start(players, table.rules, {})
    votes = {p: [3] for p in players[3:]} | {"P2": [1], "P3": [1, 4]}
    turn = {"storyteller": "P1", "positions": list(players), "votes": votes}
    result = DIXIT.play(table, state, turn).result
    # P2 and P3 find it (3 each); P2 used one vote (+1); P3's card draws 7 votes, capped at 3;
    # P4's card draws P3's second vote
    expected = {"P1": 3, "P2": 3 + 1, "P3": 3 + 3, "P4": 1} | dict.fromkeys(players[4:], 0)
    assert result["deltas"] == expected


@pytest.mark.parametrize(
    ("count", "last", "pile"),
    [(3, 13, 3), (4, 16, 0), (5, 11, 4), (6, 9, 0), (7, 7, 0), (8, 5, 4)],
)
def test_the_earlier_reading_ends_only_when_a_refill_falls_short(count, last, pile):
    """``end_when_short`` (what refapp counted before, kept for the sessions it recorded): a
    refill that takes the last card does not end the game; the next one, short, does."""
    turns, explanation, state, public = play_out(count, deck_exhausted="end_when_short")
    assert (turns, state["draw_pile"], state["deck_exhausted"]) == (last, pile, True)
    assert public["end_reasons"] == ["deck_exhausted"] and public["turns_left"] == 0
    assert explanation[-1] == (
        f"Cards left in the draw pile: {pile}, fewer than the {position_count(count)} the "
        "refill needs: the hands are not refilled and the game ends."
    )


def test_the_earlier_reading_counts_the_turns_left_with_the_short_refill():
    """Six players, a pile of 6 before turn 8: two turns left (8 empties it, 9 falls short)."""
    players = seated(6)
    rules = DIXIT.resolve_rules({"deck_exhausted": "end_when_short"})
    _, state = DIXIT.start(players, rules, {})
    table = Table(players, rules)
    state = {**state, "draw_pile": 6, "turns": 7, "last_storyteller": "P1"}
    assert DIXIT.public_state(table, state, {})["turns_left"] == 2
    after = DIXIT.play(table, state, all_found(players, "P2")).state
    assert after["draw_pile"] == 0 and not DIXIT.is_over(table, after, {})
    assert DIXIT.public_state(table, after, {})["turns_left"] == 1
