"""A misdeal the table saw (the Mighty rules in docs/rules, "How weak a hand may be thrown
in"): recorded with ``shown`` instead of the hand, only who may declare it is checked; the hand
beside it is checked as usual."""

from __future__ import annotations

import pytest

from refapp.games.game import Table

from .support import GAME, LOW, PLAYERS, play, table, violation

HIGH = ["SA", "SK", "SQ", "SJ", "S10", "HA", "HK", "HQ", "HJ", "H10"]


def test_a_shown_misdeal_scores_zero_and_its_declarer_deals_next():
    out = play({"misdeal": {"player": "Cy", "shown": True}})
    assert out.input == {"misdeal": {"player": "Cy", "shown": True}}
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.result["outcome"] == "misdeal"
    assert out.result["declarer"] == "Cy" and out.result["hand_value"] is None
    assert out.state["next_dealer"] == "Cy"
    assert out.result["explanation"][0] == (
        "Cy declared a misdeal: the hand was shown to the table and not entered, so its value "
        "was not checked."
    )
    assert out.result["explanation"][1] == "Nobody scores; Cy deals the next hand."


def test_a_shown_misdeal_does_not_check_the_value():
    """The table saw a hand it judged low: the referee takes its word, whatever the limit."""
    out = play({"misdeal": {"player": "Ann", "shown": True}}, table(misdeal="half_ten_strict"))
    assert out.result["outcome"] == "misdeal"


def test_the_hand_beside_shown_is_checked_as_usual():
    out = play({"misdeal": {"player": "Cy", "hand": LOW, "shown": True}})
    assert out.input["misdeal"] == {"player": "Cy", "hand": LOW, "shown": True}
    assert out.result["hand_value"] == 0
    refused = violation({"misdeal": {"player": "Cy", "hand": HIGH, "shown": True}})
    assert (refused.code, refused.field) == ("misdeal_not_allowed", "misdeal.hand")
    refused = violation({"misdeal": {"player": "Cy", "hand": LOW[:9], "shown": True}})
    assert (refused.code, refused.field) == ("invalid_hand", "misdeal.hand")


@pytest.mark.parametrize("shown", [False, "yes", 1, [], {}])
def test_shown_not_true_is_invalid_value(shown):
    refused = violation({"misdeal": {"player": "Cy", "shown": shown}})
    assert (refused.code, refused.field) == ("invalid_value", "misdeal.shown")


def test_neither_hand_nor_shown_is_a_missing_hand():
    refused = violation({"misdeal": {"player": "Cy"}})
    assert (refused.code, refused.field) == ("missing_field", "misdeal.hand")
    assert "or record that the table saw the hand" in refused.message


@pytest.mark.parametrize(
    ("misdeal", "rules", "code", "field"),
    [
        ({"player": "Zed", "shown": True}, {}, "unknown_player", "misdeal.player"),
        ({"shown": True}, {}, "missing_field", "misdeal.player"),
        ({"player": "Cy", "shown": True}, {"misdeal": "off"}, "misdeal_not_allowed", "misdeal"),
    ],
)
def test_who_may_declare_is_still_checked(misdeal, rules, code, field):
    refused = violation({"misdeal": misdeal}, table(**rules))
    assert (refused.code, refused.field) == (code, field)


def test_a_resting_player_may_not_declare_a_shown_misdeal():
    rules = GAME.resolve_rules({"six_player_rule": "dealer_sits_out"})
    tab = Table(("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"), rules)
    raw = {"dealer": "Fay", "misdeal": {"player": "Fay", "shown": True}}
    refused = violation(raw, tab)
    assert (refused.code, refused.field) == ("player_not_in_hand", "misdeal.player")
    out = play({"dealer": "Fay", "misdeal": {"player": "Ben", "shown": True}}, tab)
    assert out.result["resting"] == ["Fay"] and out.state["next_dealer"] == "Ben"


def test_a_dry_run_refuses_what_recording_refuses():
    tab = table()
    for raw in (
        {"misdeal": {"player": "Cy"}},
        {"misdeal": {"player": "Cy", "shown": False}},
        {"misdeal": {"player": "Cy", "shown": True}, "opposition_points": 3},
    ):
        assert violation(raw, tab, partial=True).code == violation(raw, tab).code
    checked = play({"misdeal": {"player": "Cy", "shown": True}}, tab, partial=True)
    assert checked.result["deltas"] == dict.fromkeys(PLAYERS, 0)


def test_a_shown_misdeal_mixed_with_a_hand_is_refused():
    raw = {"misdeal": {"player": "Cy", "shown": True}, "contract": {"boss": "Ann"}}
    assert violation(raw).code == "invalid_value"


def test_a_kill_beside_a_misdeal_or_an_all_pass_is_an_invalid_kill():
    """Only a played hand under a kill rule names a kill (the Mighty rules in docs/rules): in any
    other round, a misdeal or everyone passing, it is ``invalid_kill`` at six seats and at five."""
    six = Table(("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"), GAME.resolve_rules({}))
    kill = {"card": "SA", "player": "Dee"}
    for tab in (six, table()):
        for raw in (
            {"misdeal": {"player": "Cy", "shown": True}, "kill": kill},
            {"all_pass": True, "kill": kill},
        ):
            for partial in (False, True):
                refused = violation(raw, tab, partial=partial)
                assert (refused.code, refused.field) == ("invalid_kill", "kill"), raw


def test_how_we_score_says_a_seen_hand_may_be_recorded_without_its_cards():
    said = [line for _topic, one in GAME.how_we_score(table()) for line in one.lines]
    assert any("shown to the table" in sentence for sentence in said)
    off = GAME.how_we_score(table(misdeal="off"))
    assert not any("shown" in line for _topic, one in off for line in one.lines)
