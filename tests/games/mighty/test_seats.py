"""Four, six and seven seats: who is in a hand, the kill, resting in turn, the four-seat deck."""

from __future__ import annotations

import pytest

from refapp.games.game import Table

from .support import GAME, fresh, hand, passes, violation

SIX = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
SEVEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
FOUR = ("Ann", "Ben", "Cy", "Dee")


def seated(players, **overrides) -> Table:
    """Return a table of these players with the seat count's defaults and these rules."""
    return Table(players, GAME.resolve_rules(overrides, seats=len(players)))


def rounds(tab: Table, *raws, state=None):
    """Play rounds in order from a fresh (or given) state; return every outcome."""
    state = fresh(tab) if state is None else state
    outcomes = []
    for raw in raws:
        outcome = GAME.play(tab, state, raw)
        outcomes.append(outcome)
        state = outcome.state
    return outcomes


def kill_hand(boss="Cy", killed="Eve", friend="Dee", **extra) -> dict:
    """Return a 6마 hand: the joker kills, ♠A calls the friend."""
    raw = {
        "contract": {"boss": boss, "bid": 15, "trump": "H"},
        "kill": {"card": "JK", "player": killed},
        "friend": {"card": "SA", "player": friend},
        "opposition_points": 4,
    }
    raw.update(extra)
    return raw


# -- the deal and the defaults by seat count ------------------------------------------------------


def test_four_seats_start_at_14_and_forbid_the_joker_unless_the_table_says_otherwise():
    assert GAME.resolve_rules({}, seats=4)["min_bid"] == 14
    assert GAME.resolve_rules({}, seats=4)["friend_forbidden"] == ["joker"]
    assert GAME.resolve_rules({"min_bid": 13}, seats=4)["min_bid"] == 13
    assert GAME.resolve_rules({}, seats=6)["min_bid"] == 13
    four = seated(FOUR)
    assert GAME.rules_changed(four.rules, None, 4) == []
    assert GAME.rules_changed(four.rules, None, 5) == ["min_bid", "friend_forbidden"]


@pytest.mark.parametrize(
    ("players", "rules", "sizes"),
    [
        (FOUR, {}, (10, 3, 43, 4, 0, 0)),
        (SIX, {}, (8, 5, 53, 5, 1, 0)),
        (SIX, {"six_player_rule": "dealer_sits_out"}, (10, 3, 53, 5, 0, 1)),
        (SEVEN, {}, (7, 4, 53, 5, 2, 0)),
        (SEVEN, {"seven_player_rule": "ruling_side_sits_out"}, (10, 3, 53, 5, 0, 2)),
    ],
)
def test_the_state_tells_how_the_hand_is_dealt(players, rules, sizes):
    tab = seated(players, **rules)
    shown = GAME.public_state(tab, fresh(tab), dict.fromkeys(players, 0))
    keys = ("hand_size", "kitty_size", "deck_size", "active_count", "kills", "sitters")
    assert tuple(shown[key] for key in keys) == sizes
    assert shown["seats"] == len(players)


def test_the_four_seat_deck_leaves_out_the_2s_4s_and_3s_but_the_joker_calls():
    shown = GAME.public_state(seated(FOUR), fresh(seated(FOUR)), {})
    out = ["S4", "S2", "H4", "H3", "H2", "D4", "D3", "D2", "C4", "C2"]
    assert shown["out_of_deck"] == out
    assert shown["friend_forbidden"] == ["JK"]
    other = seated(FOUR, alt_joker_call="H3")
    assert "S3" in GAME.public_state(other, fresh(other), {})["out_of_deck"]


# -- the kill ------------------------------------------------------------------------------------


def test_a_kill_after_misses_scores_the_killed_player_0_and_says_why():
    raw = kill_hand(kill={"card": "JK", "player": "Eve", "misses": ["SA", "h10"]}, friend="Dee")
    raw["friend"] = {"card": "DA", "player": "Dee"}
    (out,) = rounds(seated(SIX), raw)
    assert out.result["deltas"] == {"Ann": -5, "Ben": -5, "Cy": 10, "Dee": 5, "Eve": 0, "Fay": -5}
    assert out.input["kill"] == {"card": "JK", "player": "Eve", "misses": ["SA", "H10"]}
    assert out.result["killed"] == ["Eve"] and out.result["resting"] == []
    said = out.result["explanation"]
    assert "Cy named ♠A: a miss (it was in the kitty or in the boss's own hand)." in said
    assert "Cy named ♥10: a miss (it was in the kitty or in the boss's own hand)." in said
    assert said[-1] == "Cy named Joker, held by Eve: Eve is killed, out of the hand, and scores 0."


@pytest.mark.parametrize(
    ("kill", "field"),
    [
        ({"card": "JK", "player": "Cy"}, "kill.player"),
        ({"card": "JK", "player": "Eve", "misses": ["JK"]}, "kill.card"),
        ({"card": "SA", "player": "Eve", "misses": ["HK", "hk"]}, "kill.misses.2"),
        ({"card": "Z9", "player": "Eve"}, "kill.card"),
        ([{"card": "JK", "player": "Eve"}], "kill"),
        ("JK", "kill"),
    ],
)
def test_a_bad_kill_is_refused_naming_its_field(kill, field):
    refused = violation(kill_hand(kill=kill), seated(SIX))
    assert (refused.code, refused.field) == ("invalid_kill", field)


def test_seven_seats_kill_twice_and_never_the_same_player():
    twice = [{"card": "SA", "player": "Ann"}, {"card": "JK", "player": "Ann"}]
    raw = kill_hand(boss="Eve", friend="Bob", kill=twice)
    raw["friend"] = {"card": "CA", "player": "Bob"}
    refused = violation(raw, seated(SEVEN))
    assert (refused.code, refused.field) == ("invalid_kill", "kill.2.player")
    raw["kill"] = [{"card": "SA", "player": "Ann"}]
    assert violation(raw, seated(SEVEN)).code == "invalid_kill"


def test_a_killed_player_bids_but_does_not_play():
    bidding = [
        {"player": "Ann", "bid": 13, "trump": "S"},
        {"player": "Ben", "bid": 14, "trump": "H"},
    ]
    bidding += [
        {"player": "Cy", "bid": 15, "trump": "H"},
        *passes("Dee", "Eve", "Fay", "Ann", "Ben"),
    ]
    raw = kill_hand(dealer="Ann", bidding=bidding, kill={"card": "JK", "player": "Ann"})
    (out,) = rounds(seated(SIX), raw)
    assert out.result["deltas"]["Ann"] == 0 and out.result["deltas"]["Cy"] == 10
    refused = violation(kill_hand(mighty_holder="boss", friend="Eve"), seated(SIX))
    assert (refused.code, refused.field) == ("player_not_in_hand", "friend.player")
    assert refused.message == (
        "Eve is not in this hand (killed after the auction): it is played by Ann, Ben, Cy, Dee "
        "and Fay."
    )


def test_a_dry_run_without_the_kill_waits_for_it():
    raw = kill_hand()
    del raw["kill"]
    tab = seated(SIX)
    out = GAME.play(tab, fresh(tab), raw, partial=True)
    assert out.result["complete"] is False
    assert violation(raw, tab).code == "missing_field"


def test_a_misdeal_under_a_kill_shows_the_hand_as_dealt():
    eight = ["C5", "C6", "C7", "C8", "C9", "D5", "D6", "D7"]
    (out,) = rounds(seated(SIX), {"misdeal": {"player": "Ben", "hand": eight}})
    assert out.result["outcome"] == "misdeal" and out.state["next_dealer"] == "Ben"
    (out,) = rounds(seated(SEVEN), {"misdeal": {"player": "Bob", "hand": eight[:7]}})
    assert out.result["outcome"] == "misdeal"
    assert violation({"misdeal": {"player": "Bob", "hand": eight}}, seated(SEVEN)).code == (
        "invalid_hand"
    )
    assert violation(
        {"misdeal": {"player": "Ben", "hand": eight}, "kill": {}}, seated(SIX)
    ).code == ("invalid_kill")  # only a played hand names a kill


# -- resting in turn ----------------------------------------------------------------------------


def test_the_dealer_rests_and_the_auction_starts_after_them():
    tab = seated(SIX, six_player_rule="dealer_sits_out")
    bidding = [{"player": "Ann", "bid": 14, "trump": "S"}, *passes("Ben", "Cy", "Dee", "Eve")]
    raw = {
        "dealer": "Fay",
        "bidding": bidding,
        "contract": {"boss": "Ann", "bid": 14, "trump": "S"},
        "friend": {"card": "DA", "player": "Cy"},
        "opposition_points": 5,
    }
    (out,) = rounds(tab, raw)
    assert out.result["resting"] == ["Fay"] and out.result["deltas"]["Fay"] == 0
    assert out.state["sits_out"] == "Cy" == out.state["next_dealer"]
    refused = violation({**raw, "bidding": [{"player": "Fay", "bid": 14, "trump": "S"}]}, tab)
    assert (refused.code, refused.field) == ("player_not_in_hand", "bidding.1.player")
    refused = violation({**raw, "bidding": [{"player": "Ben", "bid": 14, "trump": "S"}]}, tab)
    assert refused.code == "out_of_turn" and refused.params["expected"] == "Ann"


def test_the_first_resting_dealer_is_named_by_sits_out_or_dealer():
    tab = seated(SIX, six_player_rule="dealer_sits_out", next_dealer="clockwise")
    raw = {"contract": {"boss": "Ann", "bid": 14, "trump": "S"}, "friend": {"none": True}}
    raw["opposition_points"] = 5
    refused = violation(raw, tab)
    assert (refused.code, refused.field) == ("missing_field", "sits_out")
    (out,) = rounds(tab, {**raw, "sits_out": "Dee"})
    assert out.input["sits_out"] == "Dee" and out.result["deltas"]["Dee"] == 0
    assert out.state["next_dealer"] == "Eve"  # clockwise from the resting dealer
    assert violation({**raw, "dealer": "Dee", "sits_out": "Cy"}, tab).code == "wrong_sitter"


def test_seven_rest_the_ruling_side_and_keep_the_sitters_after_a_misdeal():
    tab = seated(SEVEN, seven_player_rule="ruling_side_sits_out")
    first = {
        "sits_out": ["Gus", "Ann"],
        "contract": {"boss": "Cy", "bid": 15, "trump": "H"},
        "friend": {"card": "SA", "player": "Eve"},
        "opposition_points": 4,
    }
    throw = {
        "misdeal": {
            "player": "Bob",
            "hand": ["C5", "C6", "C7", "C8", "C9", "D5", "D6", "D7", "D8", "D9"],
        }
    }
    one, two = rounds(tab, first, throw)
    assert one.input["sits_out"] == ["Ann", "Gus"]
    assert one.state["sits_out"] == ["Cy", "Eve"] == two.state["sits_out"]
    assert two.result["resting"] == ["Cy", "Eve"]
    thrown = {"misdeal": {"player": "Cy", "hand": throw["misdeal"]["hand"]}}
    assert violation(thrown, tab, one.state).code == "player_not_in_hand"
    alone = {
        "contract": {"boss": "Dee", "bid": 14, "trump": "S"},
        "friend": {"none": True},
        "opposition_points": 2,
    }
    (three,) = rounds(tab, alone, state=two.state)
    assert three.state["sits_out"] is None  # no friend: the next hand names its sitters
    assert "named by the table" not in " ".join(three.result["explanation"])


def test_nobody_rests_or_is_killed_at_five_or_four():
    for players in (FOUR, ("Ann", "Ben", "Cy", "Dee", "Eve")):
        raw = kill_hand(boss="Ann", friend="Ben")
        raw["friend"] = {"card": "HA", "player": "Ben"}
        assert violation(raw, seated(players)).code == "invalid_kill"
        del raw["kill"]
        assert violation({**raw, "sits_out": "Cy"}, seated(players)).code == "wrong_sitter"


def test_previous_boss_deals_next():
    (out,) = rounds(seated(SIX, next_dealer="previous_boss"), kill_hand())
    assert out.state["next_dealer"] == "Cy"


# -- the four-seat table -------------------------------------------------------------------------


def test_four_seats_play_four_cards_a_trick_from_the_43_card_deck():
    tab = seated(FOUR)
    trick = [
        {"player": name, "card": card}
        for name, card in zip(("Cy", "Dee", "Ann", "Ben"), ("HA", "H5", "H6", "H7"), strict=True)
    ]
    raw = {
        "contract": {"boss": "Cy", "bid": 15, "trump": "S"},
        "friend": {"card": "HK", "player": "Ann"},
        "tricks": [trick],
    }
    out = GAME.play(tab, fresh(tab), raw, partial=True)
    assert out.result["tricks"][0]["winner"] == "Cy" and out.result["next_player"] == "Cy"
    bad = [*trick[:3], {"player": "Ben", "card": "H4"}]
    refused = violation({**raw, "tricks": [bad]}, tab, partial=True)
    assert (refused.code, refused.field) == ("card_not_in_deck", "tricks.0.3.card")


def test_the_hand_statistics_count_kills_and_rests():
    from refapp.games.mighty import stats

    (out,) = rounds(seated(SIX), kill_hand())
    assert stats.tally("Eve", out.result) == {"hands_killed": 1}
    assert stats.tally("Ann", out.result)["hands_played"] == 1
    figures = GAME.figures("Eve", [out.result, out.result])
    assert figures["hands_killed"] == 2 and figures["hands_played"] == 0


@pytest.mark.parametrize(
    ("players", "rule"),
    [(SIX, {"six_player_rule": "dealer_sits_out"}),
     (SEVEN, {"seven_player_rule": "ruling_side_sits_out"})],
)  # fmt: skip
def test_a_dry_run_that_cannot_tell_who_rests_refuses_what_recording_refuses(players, rule):
    """the Mighty rules in docs/rules: a dry run refuses what recording refuses - a whole hand at a
    resting table whose sitters the state cannot tell is not scored as if every seat played."""
    tab = seated(players, **rule)
    played = hand(friend={"card": "HA", "player": players[1]})
    for raw in (played, {"misdeal": {"player": "Cy", "shown": True}}):
        recorded = violation(raw, tab)
        checked = violation(raw, tab, partial=True)
        assert (checked.code, checked.field) == (recorded.code, recorded.field)
        assert (checked.code, checked.field) == ("missing_field", "sits_out")
    # a part sent alone is still checked without the sitters
    contract = {"contract": {"boss": "Ann", "bid": 15, "trump": "H"}}
    assert GAME.play(tab, fresh(tab), contract, partial=True).result["complete"] is False


def test_the_wrong_sitters_are_named_as_the_table_says_them_never_as_a_list():
    tab = seated(SEVEN, seven_player_rule="ruling_side_sits_out")
    first = rounds(tab, {**hand(friend={"card": "HA", "player": "Bob"}), "sits_out": ["Cy", "Dee"]})
    state = first[0].state  # Ann was boss and Bob friend: they rest the next hand
    refused = violation({**hand(boss="Cy", friend={"card": "HA", "player": "Dee"}),
                         "sits_out": ["Eve", "Fay"]}, tab, state)  # fmt: skip
    assert refused.code == "wrong_sitter"
    assert "Ann and Bob both rest, not Eve and Fay" in refused.message, refused.message
    assert "[" not in refused.message and "'Eve'" not in refused.message
