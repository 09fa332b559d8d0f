"""Per-game figures from stored results, on rounds scored by the real engines, worked by hand."""

from __future__ import annotations

from refapp.games import GAMES
from refapp.games.game import Table
from refapp.games.mighty.stats import made
from refapp.games.stats import average

from .sittings import Sitting, figures, record

#: each game's own figures, read from stored results (the Game's hook)
dalmuti, dixit, mighty = (GAMES[slug].figures for slug in ("dalmuti", "dixit", "mighty"))

FOUR = ("Ann", "Ben", "Cy", "Dee")
FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")


def results(slug: str, players, inputs, rules=None) -> list[dict]:
    """Play the inputs through a game's rules from its start and return the stored results."""
    game = GAMES[slug]
    effective = game.resolve_rules(rules)
    seated, state = game.start(players, effective, {})
    table = Table(tuple(seated), effective)
    scored = []
    for entered in inputs:
        outcome = game.play(table, state, entered)
        scored.append(outcome.result)
        state = outcome.state
    return scored


def told(storyteller: str, positions: str, votes: str) -> dict:
    """Return a Dixit turn: positions and votes written as 'Dee Ann Ben Cy', 'Ben=2 Cy=2'."""
    pairs = (vote.split("=") for vote in votes.split())
    return {
        "storyteller": storyteller,
        "positions": positions.split(),
        "votes": {voter: int(position) for voter, position in pairs},
    }


def hand(boss: str, bid: int, trump: str, friend: dict, against: int) -> dict:
    """Return a played Mighty hand: the contract, the friend, the opposition's point cards."""
    contract = {"boss": boss, "bid": bid, "trump": trump}
    return {"contract": contract, "friend": friend, "opposition_points": against}


def out(order: str, **extra) -> dict:
    """Return a Dalmuti hand: the finishing order written as 'Cy Ann Eve Ben Dee'."""
    return {"finish_order": order.split(" "), **extra}


# Dixit, four players; per turn the deltas (Ann, Ben, Cy, Dee) and what happened:
# 1 Ann tells, Ben and Cy find it, Dee votes Ben's card: some found. 3 4 3 0
# 2 Ben tells, everyone finds it: all found.                         2 0 2 2
# 3 Cy tells, nobody finds it; Ann votes Ben's, Ben Dee's, Dee Ann's: 3 3 0 3
# 4 Dee tells, Ann finds it, Ben and Cy vote Ann's card: some found. 5 0 0 3
# 5 Ann tells, everyone finds it: all found.                         0 2 2 2
DIXIT_TURNS = [
    told("Ann", "Dee Ann Ben Cy", "Ben=2 Cy=2 Dee=3"),
    told("Ben", "Ben Ann Cy Dee", "Ann=1 Cy=1 Dee=1"),
    told("Cy", "Cy Ann Ben Dee", "Ann=3 Ben=4 Dee=2"),
    told("Dee", "Dee Ann Ben Cy", "Ann=1 Ben=2 Cy=2"),
    told("Ann", "Ann Ben Cy Dee", "Ben=1 Cy=1 Dee=1"),
]

# Mighty, five players, default rules; per hand the deltas (Ann, Ben, Cy, Dee, Eve):
# 1 Cy 15 hearts, friend Dee, opposition 3: won 17 > 15, m = 5.        -5  -5  10   5  -5
# 2 Ann 14 spades, self friend, opposition 14: lost 6, back-run, m 16. -64 16  16  16  16
# 3 Ben throws in a misdeal; 4 everyone passes.                         0   0   0   0   0
# 5 Ann 13 spades, no friend, opposition 7: critic, m = 1.               4  -1  -1  -1  -1
# 6 Eve 16 no-trump, friend Ann, opposition 0: a run, m = 6 x2 x2 = 24. 24 -24 -24 -24  48
# 7 Ann 17 diamonds, friend Ben, opposition 4: lost 16 < 17, m = 2.     -4  -2   2   2   2
LOW_HAND = ["S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "H2", "H3"]
MIGHTY_HANDS = [
    hand("Cy", 15, "H", {"card": "JK", "player": "Dee"}, 3),
    hand("Ann", 14, "S", {"card": "SA", "player": "Ann"}, 14),
    {"misdeal": {"player": "Ben", "hand": LOW_HAND}},
    {"all_pass": True},
    hand("Ann", 13, "S", {"none": True}, 7),
    hand("Eve", 16, "NT", {"card": "DA", "player": "Ann"}, 0),
    hand("Ann", 17, "D", {"card": "JK", "player": "Ben"}, 4),
]

# Dalmuti, five players, no tax; ranks start as seated (Ann GD ... Eve GP); points 4 3 2 1 0.
# 1 no revolution, ranks during Ann..Eve:                 finish Cy Ann Eve Ben Dee
# 2 Dee (GP) greater revolution, during Dee Ben Eve Ann Cy: finish Ann Dee Cy Eve Ben
# 3 Cy (merchant) plain revolution, during Ann Dee Cy Eve Ben: finish Ann Ben Cy Dee Eve
DALMUTI_HANDS = [
    out("Cy Ann Eve Ben Dee"),
    out("Ann Dee Cy Eve Ben", revolution={"player": "Dee", "kind": "greater"}),
    out("Ann Ben Cy Dee Eve", revolution={"player": "Cy", "kind": "plain"}),
]
NO_TAX = {"tax": False}


def test_average_rounds_to_two_decimals_and_is_none_without_a_count():
    assert average(7, 3) == 2.33
    assert average(-45, 7) == -6.43
    assert average(4, 2) == 2.0
    assert average(0, 0) is None


def test_dixit_storyteller_turns_some_found_and_vote_bonus():
    scored = results("dixit", FOUR, DIXIT_TURNS)
    assert [r["outcome"] for r in scored] == [
        "some_found", "all_found", "none_found", "some_found", "all_found"
    ]  # fmt: skip
    # Ann told turns 1 (some found) and 5 (all found); her bonus in turns 2, 3, 4: 0, 1, 2
    assert dixit("Ann", scored) == {
        "storyteller_turns": 2,
        "some_found": 1,
        "some_found_share": 0.5,
        "average_vote_bonus": 1.0,
    }
    # Ben told turn 2 (all found); his bonus in turns 1, 3, 4, 5: 1, 1, 0, 0
    assert dixit("Ben", scored) == {
        "storyteller_turns": 1,
        "some_found": 0,
        "some_found_share": 0.0,
        "average_vote_bonus": 0.5,
    }
    # Dee told turn 4 (some found); her bonus in turns 1, 2, 3, 5: 0, 0, 1, 0
    assert dixit("Dee", scored)["some_found_share"] == 1.0
    assert dixit("Dee", scored)["average_vote_bonus"] == 0.25
    assert dixit("Nobody", scored)["some_found_share"] is None


def test_dixit_vote_bonus_is_counted_after_the_cap():
    turn = {"storyteller": "Ann", "positions": ["Ann", "Ben", "Cy", "Dee"]}
    # Cy and Dee both vote Ben's card: bonus 2, capped at 1
    scored = results(
        "dixit", FOUR, [{**turn, "votes": {"Ben": 1, "Cy": 2, "Dee": 2}}], {"bonus_cap": 1}
    )
    assert dixit("Ben", scored)["average_vote_bonus"] == 1.0


def test_dixit_record_points_per_round_across_sessions():
    scored = results("dixit", FOUR, DIXIT_TURNS)
    # totals: Ann 3+2+3+5+0 = 13, Ben 4+0+3+0+2 = 9, Cy 3+2+0+0+2 = 7, Dee 0+2+3+3+2 = 10
    finished = Sitting("dixit", FOUR, True, scored)
    running = Sitting("dixit", FOUR, False, scored[:1])
    assert finished.totals == {"Ann": 13, "Ben": 9, "Cy": 7, "Dee": 10}
    assert finished.place("Ann") == 1 and running.place("Ann") is None
    assert record("Ann", [finished, running]) == {
        "sessions_played": 2,
        "sessions_won": 1,
        "sessions_counted": 1,
        "win_rate": 1.0,
        "average_place": 1.0,
        "hours": 0.0,
        "rounds_played": 6,
        "points": 16,
        "average_points": 2.67,
    }
    assert record("Cy", [finished, running])["average_points"] == round(10 / 6, 2)
    assert record("Cy", [finished, running])["sessions_won"] == 0


def test_a_shared_highest_total_wins_for_everyone_on_it():
    tie = Sitting("dixit", FOUR, True, [{"deltas": {"Ann": 2, "Ben": 2, "Cy": 0, "Dee": 1}}])
    assert [tie.place(name) for name in FOUR] == [1, 1, 4, 3]
    assert record("Ben", [tie])["sessions_won"] == 1


def test_mighty_boss_contracts_bid_friend_runs_and_back_runs():
    scored = results("mighty", FIVE, MIGHTY_HANDS)
    assert [r["outcome"] for r in scored] == [
        "ruling_win", "opposition_win", "misdeal", "all_pass", "critic", "ruling_win",
        "opposition_win",
    ]  # fmt: skip
    # Ann was boss in hands 2 (lost), 5 (critic, +1 each) and 7 (lost), friend in hand 6 (a run);
    # the back-run of hand 2 was against her
    assert mighty("Ann", scored) == {
        "hands_played": 5,
        "hands_as_boss": 3,
        "contracts_made": 1,
        "average_bid": round((14 + 13 + 17) / 3, 2),
        "times_as_friend": 1,
        "runs": 1,
        "back_runs": 1,
        "hands_killed": 0,
        "hands_rested": 0,
    }
    assert mighty("Cy", scored) == {
        "hands_played": 5,
        "hands_as_boss": 1,
        "contracts_made": 1,
        "average_bid": 15.0,
        "times_as_friend": 0,
        "runs": 0,
        "back_runs": 0,
        "hands_killed": 0,
        "hands_rested": 0,
    }
    # Eve made the run as boss; Ben was the friend of a lost hand; Dee a friend once
    assert mighty("Eve", scored)["runs"] == 1
    assert mighty("Eve", scored)["average_bid"] == 16.0
    assert mighty("Ben", scored)["times_as_friend"] == 1
    assert mighty("Ben", scored)["average_bid"] is None
    assert mighty("Dee", scored)["times_as_friend"] == 1
    assert mighty("Dee", scored)["back_runs"] == 0


def test_mighty_record_counts_misdeals_and_all_pass_as_rounds():
    scored = results("mighty", FIVE, MIGHTY_HANDS)
    sitting = Sitting("mighty", FIVE, True, scored)
    # Ann: -5 - 64 + 0 + 0 + 4 + 24 - 4 = -45 over 7 rounds; Ben: -5 + 16 - 1 - 24 - 2 = -16;
    # Cy: 10 + 16 - 1 - 24 + 2 = 3; Dee: 5 + 16 - 1 - 24 + 2 = -2; Eve: -5 + 16 - 1 + 48 + 2 = 60
    assert sitting.totals == {"Ann": -45, "Ben": -16, "Cy": 3, "Dee": -2, "Eve": 60}
    assert figures("mighty", "Ann", [sitting]) == {
        "sessions_played": 1,
        "sessions_won": 0,
        "sessions_counted": 1,
        "win_rate": 0.0,
        "average_place": 5.0,
        "hours": 0.0,
        "rounds_played": 7,
        "points": -45,
        "average_points": -6.43,
        **mighty("Ann", scored),
    }
    assert figures("mighty", "Eve", [sitting])["sessions_won"] == 1
    assert figures("mighty", "Eve", [sitting])["average_points"] == 8.57


def test_a_critic_scored_as_a_draw_is_not_a_contract_made():
    critic = hand("Ann", 13, "S", {"card": "JK", "player": "Ben"}, 7)
    drawn = results("mighty", FIVE, [critic], {"critic": "draw"})
    paid = results("mighty", FIVE, [critic])
    assert drawn[0]["outcome"] == paid[0]["outcome"] == "critic"
    assert not made(drawn[0]) and made(paid[0])
    assert mighty("Ann", drawn)["contracts_made"] == 0
    assert mighty("Ann", paid)["contracts_made"] == 1


def test_dalmuti_finishing_place_greater_roles_during_the_hand_and_revolutions():
    scored = results("dalmuti", FIVE, DALMUTI_HANDS, NO_TAX)
    assert scored[1]["ranks_during"] == ["Dee", "Ben", "Eve", "Ann", "Cy"]
    # Ann finished 2, 1, 1 and was Greater Dalmuti during hands 1 and 3
    assert dalmuti("Ann", scored) == {
        "hands_played": 3,
        "average_finish": 1.33,
        "hands_as_greater_dalmuti": 2,
        "hands_as_greater_peasant": 0,
        "revolutions": 0,
    }
    # Dee finished 5, 2, 4; her greater revolution made her Greater Dalmuti of hand 2
    assert dalmuti("Dee", scored) == {
        "hands_played": 3,
        "average_finish": 3.67,
        "hands_as_greater_dalmuti": 1,
        "hands_as_greater_peasant": 0,
        "revolutions": 1,
    }
    # Cy finished 1, 3, 3; Greater Peasant of hand 2 (reversed); declared the plain revolution
    assert dalmuti("Cy", scored) == {
        "hands_played": 3,
        "average_finish": 2.33,
        "hands_as_greater_dalmuti": 0,
        "hands_as_greater_peasant": 1,
        "revolutions": 1,
    }
    # Eve: Greater Peasant before and during hand 1 only (she was moved up in hand 2)
    assert dalmuti("Eve", scored)["hands_as_greater_peasant"] == 1
    assert dalmuti("Eve", scored)["average_finish"] == 4.0
    # Ben: Greater Peasant during hand 3
    assert dalmuti("Ben", scored)["hands_as_greater_peasant"] == 1
    assert dalmuti("Ben", [])["average_finish"] is None


def test_dalmuti_record_points_per_hand():
    scored = results("dalmuti", FIVE, DALMUTI_HANDS, NO_TAX)
    sitting = Sitting("dalmuti", FIVE, True, scored)
    # Ann 3 + 4 + 4 = 11, Ben 1 + 0 + 3, Cy 4 + 2 + 2, Dee 0 + 3 + 1, Eve 2 + 1 + 0
    assert sitting.totals == {"Ann": 11, "Ben": 4, "Cy": 8, "Dee": 4, "Eve": 3}
    assert figures("dalmuti", "Ann", [sitting])["average_points"] == 3.67
    assert figures("dalmuti", "Ann", [sitting])["sessions_won"] == 1


def test_figures_read_only_the_sessions_of_that_game():
    dix = Sitting("dixit", FOUR, True, results("dixit", FOUR, DIXIT_TURNS))
    mig = Sitting("mighty", FIVE, True, results("mighty", FIVE, MIGHTY_HANDS))
    assert figures("dixit", "Ann", [dix, mig])["rounds_played"] == 5
    assert figures("mighty", "Ann", [dix, mig])["rounds_played"] == 7
    assert figures("dixit", "Ann", [mig])["sessions_played"] == 0
    assert figures("dixit", "Ann", [mig])["average_points"] is None
