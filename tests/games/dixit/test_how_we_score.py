"""Dixit's "How we score": each house rule's value said in sentences for this very table."""

from __future__ import annotations

import pytest

from refapp.games.dixit import Dixit
from refapp.games.game import Table

DIXIT = Dixit()


def said(count: int = 4, **rules) -> dict[str, list[str]]:
    """Return the sentences under each topic for count players and these rule overrides."""
    table = Table(tuple(f"P{i}" for i in range(1, count + 1)), DIXIT.resolve_rules(rules))
    return {topic: account.lines for topic, account in DIXIT.how_we_score(table)}


def test_the_topics_are_the_games_in_order():
    assert list(said()) == ["Players and cards", "Voting and vote bonus", "End of the game"]


def test_the_defaults_said_plainly():
    words = said()
    assert words["Players and cards"] == [
        "These rules are for 3 to 8 players; this table has 4.",
        "One box, 84 picture cards: each player holds 6, and the draw pile starts at 60.",
        "Each player but the storyteller lays one card: 4 cards are laid out each turn.",
    ]
    assert words["Voting and vote bonus"] == [
        "Each player but the storyteller votes once, for the card they think is the storyteller's.",
        "If all or none find the storyteller's card, the storyteller scores 0 and every other "
        "player 2; otherwise the storyteller and each finder score 3.",
        "Every other player gets 1 point for each vote on their cards, with no cap.",
    ]
    assert words["End of the game"] == [
        "The game ends after the turn in which someone reaches 30 points.",
        "When the draw pile runs short, the discards are shuffled into it and the game goes on.",
        "Whoever has the highest total at the end wins; players tied on it all win.",
    ]


def test_three_players_lay_two_cards_each():
    assert said(3)["Players and cards"][1:] == [
        "One box, 84 picture cards: each player holds 7, and the draw pile starts at 63.",
        "With three players each player but the storyteller lays two cards: 5 cards are laid "
        "out each turn.",
    ]


def test_a_large_table_has_two_boxes_and_twelve_seats():
    words = said(10, large_table=True)["Players and cards"]
    assert words[:2] == [
        "These rules are for 3 to 12 players; this table has 10.",
        "Two boxes, 168 picture cards: each player holds 6, and the draw pile starts at 108.",
    ]
    assert said(10, large_table=True)["Voting and vote bonus"][0].endswith(
        "votes once, for the card they think is the storyteller's."
    )


@pytest.mark.parametrize("count", [7, 12])
def test_odyssey_from_seven_gives_two_votes_and_caps_at_three(count):
    words = said(count, two_votes_large_game=True)["Voting and vote bonus"]
    assert words[0] == (
        "Each player but the storyteller votes for one or two different cards; a finder who "
        "voted for a single card gets 1 more point."
    )
    assert words[-1] == (
        "Every other player gets 1 point for each vote on their cards, at most 3 in one turn."
    )


def test_odyssey_below_seven_gives_one_vote_and_the_cap():
    words = said(5, two_votes_large_game=True)["Voting and vote bonus"]
    assert words[0] == (
        "Each player but the storyteller votes once: the second vote of the Odyssey rule comes "
        "only from 7 players, and this table has 5."
    )
    assert words[-1].endswith("at most 3 in one turn.")


@pytest.mark.parametrize(("rules", "cap"), [({"bonus_cap": 2}, "2"), ({"bonus_cap": 5}, "5")])
def test_the_vote_bonus_cap_is_said_with_its_value(rules, cap):
    assert said(**rules)["Voting and vote bonus"][-1] == (
        f"Every other player gets 1 point for each vote on their cards, at most {cap} in one turn."
    )
    odyssey = said(8, **rules, two_votes_large_game=True)["Voting and vote bonus"][-1]
    assert odyssey.endswith(f"at most {min(int(cap), 3)} in one turn.")


def test_a_cap_of_zero_means_votes_bring_nothing():
    assert said(bonus_cap=0)["Voting and vote bonus"][-1] == (
        "Votes on other players' cards bring them no points."
    )


def test_the_ends_say_their_turn_at_this_table():
    words = said(6, target_score=20, end_after_rounds=3, deck_exhausted="end")["End of the game"]
    assert words[:3] == [
        "The game ends after the turn in which someone reaches 20 points.",
        "The game ends after round 3 of storytellers, turn 18 at this table, if it has not "
        "ended before: every player is the storyteller as often as the others.",
        "The game ends after the turn whose refill takes the last card of the draw pile or "
        "needs more cards than it holds: turn 8 at this table, if it has not ended before.",
    ]
    assert said(5, deck_exhausted="end")["End of the game"][1].startswith(
        "The game ends after the turn whose refill"
    )
    assert ": turn 11 at this table" in said(5, deck_exhausted="end")["End of the game"][1]


def test_no_target_score_is_said():
    words = said(4, target_score=None, end_after_rounds=1)["End of the game"]
    assert words[:2] == [
        "There is no target score.",
        "The game ends after round 1 of storytellers, turn 4 at this table, if it has not ended "
        "before: every player is the storyteller as often as the others.",
    ]
