"""The Great Dalmuti's plays: a lead, a follow, illegal plays, and the check-a-play verdict."""

from __future__ import annotations

from refapp.games.dalmuti.play import check_play, judge_play, play_rank

from .support import refused


def test_a_lead_is_any_set_of_one_rank():
    assert check_play(None, [9, 9, 9, 9]) == 9
    assert check_play([], [6, 6, "J"]) == 6
    assert check_play(None, ["J"]) == 13
    assert check_play(None, [1, "J", "J"]) == 1


def test_a_follow_matches_the_count_and_beats_the_play_before():
    assert check_play([9, 9, 9, 9], [7, 7, 7, 7]) == 7
    assert check_play([3, 3], [2, "J"]) == 2
    assert check_play([2, "J"], [1, "J"]) == 1
    assert check_play(["J"], [12]) == 12


def test_illegal_plays():
    refused("mixed_ranks", check_play, None, [5, 6])
    refused("mixed_ranks", play_rank, [5, "J", 6])
    refused("wrong_play_count", check_play, [9, 9], [7, 7, 7])
    refused("wrong_play_count", check_play, [9, 9], [])
    refused("play_not_better", check_play, [7, 7], [7, 7])
    refused("play_not_better", check_play, [7, 7], [8, 8])
    refused("play_not_better", check_play, [12], ["J"])
    refused("card_not_in_hand", check_play, None, [3, 3], hand=[3, 4, 5])
    refused("supply_exceeded", check_play, None, [1, 1])
    refused("invalid_rank", check_play, None, [0])


def test_a_play_of_a_removed_rank_exceeds_the_deck():
    """Regression: check_play counted supply against the full deck, ignoring removed_ranks."""
    assert check_play(None, [12]) == 12
    error = refused("supply_exceeded", check_play, None, [12], removed=[11, 12])
    assert "out of the deck" in error.message and error.field == "play"
    refused("supply_exceeded", check_play, [11, 11], [10, 10], removed=[10])
    assert check_play([11], [10], removed=[12]) == 10


def test_the_check_a_play_verdict_names_the_cards_the_play_before_and_what_is_left():
    verdict = judge_play([7, 7], [6, "J"], [2, 6, "J", 9], [])
    assert verdict == {
        "cards": [6, "J"],
        "rank": 6,
        "before": [7, 7],
        "before_rank": 7,
        "left": [2, 9],
    }
    assert judge_play([], [9], None, [])["before"] is None
    assert judge_play([], [9], None, [])["left"] is None
    assert judge_play([], [9], [9], [])["left"] == []


def test_the_check_a_play_verdict_checks_each_field_against_the_deck_without_removed_ranks():
    assert refused("supply_exceeded", judge_play, [11], [10], None, [11, 12]).field == "previous"
    assert refused("supply_exceeded", judge_play, [], [12], [12, 3], [12]).field == "play"
    assert refused("supply_exceeded", judge_play, [], [3], [3, 1, 1], []).field == "hand"
