"""Sentences that count: one point card, one trick, said in the singular (review: "The
opposition took 1 point cards", "in tricks 9")."""

from __future__ import annotations

from refapp.games.mighty.plurals import TRICKS_GIVE, counted, in_tricks

from .support import hand, play, table


def test_one_point_card_is_said_in_the_singular():
    said = play(hand(bid=13, points=1)).result["explanation"]
    assert "The opposition took 1 point card, so the ruling side has n = 20 - 1 = 19." in said
    said = play(hand(bid=13, points=3)).result["explanation"]
    assert "The opposition took 3 point cards, so the ruling side has n = 20 - 3 = 17." in said


def test_a_dry_run_says_one_point_card():
    raw = {"contract": {"boss": "Ann", "bid": 15, "trump": "H"}, "opposition_points": 1}
    said = play(raw, partial=True).result["explanation"]
    assert "The opposition took 1 point card." in said


def test_a_back_run_of_one_card_is_singular():
    raw = hand(bid=13, points=19)
    said = play(raw, table(back_run_when="ruling_under_10")).result["explanation"]
    assert "Back-run: the ruling side took only 1 point card (9 or fewer)." in said


def test_one_trick_is_trick_not_tricks():
    assert in_tricks(TRICKS_GIVE, 1, 1).endswith("point card, in trick {tricks}.")
    assert in_tricks(TRICKS_GIVE, 3, 1).endswith("point cards, in trick {tricks}.")
    assert in_tricks(TRICKS_GIVE, 3, 2).endswith("point cards, in tricks {tricks}.")
    assert counted(("one", "many"), 0) == "many" and counted(("one", "many"), 1) == "one"
