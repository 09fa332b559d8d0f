"""Mighty's newer house rules with worked values.

Loss multipliers, when a loss is a back-run, pagat's formula from the table's lowest bid, who
deals next, a called card the boss held, "T" for ten, and the presets.
"""

from __future__ import annotations

import pytest

from refapp.games.errors import Refusal
from refapp.games.mighty.bidding.friend_card import check_friend_card_held, friend_card_held
from refapp.games.mighty.cards import card_words, parse_card
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.scoring.score import is_back_run
from refapp.games.mighty.seats.dealer import next_dealer

from .support import GAME, LOW, PLAYERS, deltas, fresh, hand, passes, play, table, violation

NONE = {"none": True}
SELF = {"card": "HA", "player": "Ann"}


def scored(raw, **rules) -> dict:
    """Return the result of one hand on a fresh table under these rules."""
    return play(raw, table(**rules)).result


# -- loss_multipliers: a failed no-trump or declared no-friend contract doubles -----------------


@pytest.mark.parametrize(
    ("raw", "rules", "m", "multipliers", "moves"),
    [
        # NT 14, opposition 10: n = 10, base 2 x (14 - 10) = 8
        (hand(14, "NT", 10), {}, 8, [], deltas(-16, -8, 8, 8, 8)),
        (hand(14, "NT", 10), {"loss_multipliers": ["no_trump"]}, 16, ["no_trump"],
         deltas(-32, -16, 16, 16, 16)),
        (hand(14, "NT", 10), {"loss_multipliers": ["no_friend"]}, 8, [], deltas(-16, -8, 8, 8, 8)),
        # spade 15, declared no friend, opposition 8: n = 12, base 2 x 3 = 6
        (hand(15, "S", 8, friend=NONE), {"loss_multipliers": ["no_friend"]}, 12, ["no_friend"],
         deltas(-48, 12, 12, 12, 12)),
        (hand(15, "S", 8, friend=NONE), {"loss_multipliers": ["no_trump"]}, 6, [],
         deltas(-24, 6, 6, 6, 6)),
        # a self friend was not declared: it never doubles
        (hand(15, "S", 8, friend=SELF), {"loss_multipliers": ["no_friend"]}, 6, [],
         deltas(-24, 6, 6, 6, 6)),
        # both, cumulative and listed in the rules' order whatever order the table gave
        (hand(15, "NT", 8, friend=NONE), {"loss_multipliers": ["no_friend", "no_trump"]}, 24,
         ["no_trump", "no_friend"], deltas(-96, 24, 24, 24, 24)),
        # with lose_formula shortfall: base 16 - 14 = 2, x2 no-trump
        (hand(16, "NT", 6), {"loss_multipliers": ["no_trump"], "lose_formula": "shortfall"}, 4,
         ["no_trump"], deltas(-8, -4, 4, 4, 4)),
        # a back-run doubled too: base 2 x (14 - 5) = 18, x2 no-trump, x2 back-run = 72
        (hand(14, "NT", 15), {"loss_multipliers": ["no_trump"], "back_run": "double"}, 72,
         ["no_trump"], deltas(-144, -72, 72, 72, 72)),
        # the seed's penalty: the opposition keeps its ordinary m (36 with the no-trump x2)
        (hand(14, "NT", 15), {"loss_multipliers": ["no_trump"], "back_run": "seed_penalty"}, 36,
         ["no_trump"], deltas(-140, -14, 36, 36, 36)),
    ],
)  # fmt: skip
def test_loss_multipliers(raw, rules, m, multipliers, moves):
    result = scored(raw, **rules)
    assert result["outcome"] == "opposition_win"
    assert (result["m"], result["multipliers"], result["deltas"]) == (m, multipliers, moves)


def test_loss_multipliers_explain_each_doubling():
    result = scored(hand(15, "NT", 8, friend=NONE), loss_multipliers=["no_trump", "no_friend"])
    assert (
        "Base 6 = 2 × (15 - 12); ×2 no-trump; ×2 declared no friend = 24."
        in (result["explanation"])
    )


def test_loss_multipliers_leave_wins_and_critics_alone():
    rules = {"loss_multipliers": ["no_trump", "no_friend"]}
    critic = scored(hand(14, "NT", 6, friend=NONE), **rules)
    assert (critic["outcome"], critic["m"], critic["multipliers"]) == ("critic", 1, [])
    win = scored(hand(14, "NT", 4), **rules, double_no_trump=False)
    assert (win["m"], win["multipliers"]) == (4, [])


def test_loss_multipliers_are_stored_in_the_spec_order_and_checked():
    assert GAME.resolve_rules({"loss_multipliers": ["no_friend", "no_trump"]})[
        "loss_multipliers"
    ] == ["no_trump", "no_friend"]
    assert GAME.resolve_rules({})["loss_multipliers"] == []
    for bad in (["run"], "no_trump", ["no_trump", "no_trump"]):
        with pytest.raises(Refusal) as caught:
            GAME.resolve_rules({"loss_multipliers": bad})
        assert (caught.value.code, caught.value.field) == (
            "invalid_rules",
            "rules.loss_multipliers",
        )


# -- back_run_when ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("when", "bid", "against", "expected"),
    [
        ("opposition_reaches_bid", 13, 13, True),
        ("opposition_reaches_bid", 13, 12, False),
        ("opposition_reaches_bid", 20, 11, False),
        ("ruling_under_10", 13, 11, True),  # n = 9
        ("ruling_under_10", 13, 10, False),  # n = 10
        ("ruling_under_10", 20, 11, True),
        ("ruling_under_10", 13, 13, True),
        ("ruling_10_or_less", 13, 10, True),  # n = 10
        ("ruling_10_or_less", 13, 9, False),  # n = 11
        ("ruling_10_or_less", 18, 10, True),
    ],
)
def test_back_run_when(when, bid, against, expected):
    assert is_back_run(when, bid, 20 - against) is expected
    result = scored(hand(bid, "H", against), back_run_when=when)
    assert result["back_run"] is expected
    assert result["outcome"] == "opposition_win"


def test_back_run_when_decides_the_double():
    # heart 18, opposition 11: n = 9 < 18, base 2 x 9 = 18; a back-run only under ruling_under_10
    assert scored(hand(18, "H", 11), back_run="double")["m"] == 18
    doubled = scored(hand(18, "H", 11), back_run="double", back_run_when="ruling_under_10")
    assert (doubled["back_run"], doubled["m"]) == (True, 36)
    assert doubled["deltas"] == deltas(-72, -36, 36, 36, 36)


# -- pagat's formula counts from the table's lowest bid ---------------------------------------


@pytest.mark.parametrize(
    ("min_bid", "bid", "against", "base", "formula"),
    [
        (13, 15, 2, 7, "2 × (15 - 13) + (18 - 15)"),
        (11, 11, 8, 1, "2 × (11 - 11) + (12 - 11)"),
        (11, 13, 4, 7, "2 × (13 - 11) + (16 - 13)"),
        (12, 15, 2, 9, "2 × (15 - 12) + (18 - 15)"),
    ],
)
def test_pagat_uses_the_tables_lowest_bid(min_bid, bid, against, base, formula):
    result = scored(hand(bid, "H", against), win_formula="pagat", min_bid=min_bid)
    assert (result["outcome"], result["base"], result["m"]) == ("ruling_win", base, base)
    assert result["deltas"] == deltas(2 * base, base, -base, -base, -base)
    assert any(formula in line for line in result["explanation"])


def test_pagat_after_an_open_kitty_still_counts_from_min_bid():
    """The reopened auction's floor (min_bid + 2) is not the table's lowest bid."""
    tab = table(win_formula="pagat", all_pass="open_kitty")
    state = GAME.play(tab, fresh(tab), {"all_pass": True}).state
    assert state["min_bid"] == 15
    result = GAME.play(tab, state, hand(15, "H", 2)).result
    assert result["m"] == 2 * (15 - 13) + (18 - 15)


# -- next_dealer --------------------------------------------------------------------------------


def rounds(rules: dict, *raws) -> list:
    """Play rounds one after another from a fresh table; return every outcome."""
    tab = table(**rules)
    state, outcomes = fresh(tab), []
    for raw in raws:
        outcome = GAME.play(tab, state, raw)
        outcomes.append(outcome)
        state = outcome.state
    return outcomes


CLOCKWISE = {"next_dealer": "clockwise"}
BOSS_OR_FRIEND = {"next_dealer": "boss_if_won_else_friend"}


@pytest.mark.parametrize(
    ("rules", "raw", "expected"),
    [
        ({}, hand(15, "H", 3, dealer="Eve"), "Ben"),  # the friend
        ({}, hand(15, "H", 3, dealer="Eve", friend=SELF), "Ann"),  # no friend: the boss
        (CLOCKWISE, hand(15, "H", 3, dealer="Ann"), "Ben"),
        (CLOCKWISE, hand(15, "H", 3, dealer="Eve"), "Ann"),  # round the table
        (CLOCKWISE, hand(15, "H", 3, dealer="Cy", boss="Dee"), "Dee"),
        (CLOCKWISE, hand(15, "H", 3), None),  # the rotation needs a dealer nobody gave
        (BOSS_OR_FRIEND, hand(15, "H", 3), "Ann"),  # a win: the boss
        (BOSS_OR_FRIEND, hand(14, "D", 6), "Ann"),  # a critic: the boss
        (BOSS_OR_FRIEND, hand(18, "C", 5), "Ben"),  # a loss: the friend
        (BOSS_OR_FRIEND, hand(18, "C", 5, friend=SELF), "Ann"),  # a loss with no friend
        (BOSS_OR_FRIEND, hand(18, "C", 5, friend=NONE), "Ann"),
    ],
)
def test_next_dealer_after_a_hand(rules, raw, expected):
    outcome = play(raw, table(**rules))
    assert outcome.state["next_dealer"] == expected
    public = GAME.public_state(table(**rules), outcome.state, {})
    assert (public["next_dealer"], public["dealer_free"]) == (expected, expected is None)


@pytest.mark.parametrize("rules", [{}, CLOCKWISE, BOSS_OR_FRIEND])
def test_misdeal_and_all_pass_deal_alike_in_every_rotation(rules):
    misdeal = {"dealer": "Ann", "misdeal": {"player": "Dee", "hand": LOW}}
    after = rounds(rules, misdeal, {"dealer": "Dee", "all_pass": True})
    assert [outcome.state["next_dealer"] for outcome in after] == ["Dee", "Dee"]


def test_clockwise_rotation_goes_on_and_refuses_a_wrong_dealer():
    first, second, third = rounds(
        CLOCKWISE,
        hand(15, "H", 3, dealer="Ann"),
        hand(15, "H", 3),  # its dealer left out: still Ben, the one the rotation named
        hand(15, "H", 3, dealer="Cy"),
    )
    assert [o.state["next_dealer"] for o in (first, second, third)] == ["Ben", "Cy", "Dee"]
    error = violation(hand(15, "H", 3, dealer="Eve"), table(**CLOCKWISE), second.state)
    assert (error.code, error.field) == ("wrong_dealer", "dealer")
    assert error.message == (
        "Cy deals this hand (the deal passes to the next player after the previous dealer), "
        "not 'Eve'."
    )


def test_clockwise_after_a_misdeal_passes_from_its_declarer():
    misdeal = {"dealer": "Ann", "misdeal": {"player": "Dee", "hand": LOW}}
    *_, last = rounds(CLOCKWISE, misdeal, hand(15, "H", 3, dealer="Dee"))
    assert last.state["next_dealer"] == "Eve"


def test_clockwise_first_hand_free_then_checked():
    first, second = rounds(CLOCKWISE, hand(15, "H", 3), hand(15, "H", 3, dealer="Eve"))
    assert (first.state["next_dealer"], second.state["next_dealer"]) == (None, "Ann")


def test_boss_if_won_else_friend_refuses_the_wrong_dealer():
    tab = table(**BOSS_OR_FRIEND)
    lost = play(hand(18, "C", 5), tab)
    error = violation(hand(15, "H", 3, dealer="Ann"), tab, lost.state)
    assert error.code == "wrong_dealer"
    assert "Ben deals this hand (the previous hand's boss deals after a win or an exact bid" in (
        error.message
    )


def test_bidding_starts_with_the_rotations_dealer():
    bidding = [{"player": "Ben", "bid": 15, "trump": "H"}, *passes("Cy", "Dee", "Eve", "Ann")]
    _first, second = rounds(
        CLOCKWISE,
        hand(15, "H", 3, dealer="Ann"),
        hand(15, "H", 3, boss="Ben", dealer="Ben", bidding=bidding,
             friend={"card": "HA", "player": "Cy"}),
    )  # fmt: skip
    assert second.state["next_dealer"] == "Cy"


def test_next_dealer_pure_function():
    rules = MightyRules({"next_dealer": "clockwise"})
    kwargs = {"boss": "Cy", "friend": "Dee", "result": {"outcome": "opposition_win"}}
    assert next_dealer(rules, PLAYERS, dealer="Eve", **kwargs) == "Ann"
    assert next_dealer(rules, PLAYERS, dealer=None, **kwargs) is None
    assert next_dealer(MightyRules({}), PLAYERS, dealer=None, **kwargs) == "Dee"
    assert next_dealer(MightyRules(BOSS_OR_FRIEND), PLAYERS, dealer=None, **kwargs) == "Dee"


# -- friend_card_in_own_hand --------------------------------------------------------------------


FORBIDDEN = MightyRules({"friend_card_in_own_hand": "forbidden"})


@pytest.mark.parametrize(
    ("friend", "boss", "where", "field"),
    [
        ({"card": "SK", "player": "Ann"}, "Ann", "hand", "friend.player"),
        ({"card": "JK", "kitty": True}, "Ann", "kitty", "friend.kitty"),
        ({"card": "JK", "kitty": True}, None, "kitty", "friend.kitty"),
    ],
)
def test_a_called_card_the_boss_held_is_refused_when_forbidden(friend, boss, where, field):
    assert friend_card_held(friend, boss) == where
    check_friend_card_held(MightyRules({}), friend, boss)  # the default: a self friend
    with pytest.raises(Refusal) as caught:
        check_friend_card_held(FORBIDDEN, friend, boss)
    assert (caught.value.code, caught.value.field) == ("friend_card_held_by_boss", field)
    message = caught.value.message
    assert f"{card_words(friend['card'])}" in message and friend["card"] not in message


@pytest.mark.parametrize(
    ("friend", "boss"),
    [
        ({"card": "SK", "player": "Ben"}, "Ann"),
        ({"card": "SK", "player": "Ann"}, None),  # a dry run without the contract
        ({"card": "SK"}, "Ann"),  # the tricks have not shown the holder yet
        ({"none": True}, "Ann"),
        ({"first_trick": "Ann"}, "Ann"),
        (None, "Ann"),
    ],
)
def test_other_friends_pass_the_check(friend, boss):
    assert friend_card_held(friend, boss) is None
    check_friend_card_held(FORBIDDEN, friend, boss)


def test_friend_card_option_words():
    assert GAME.resolve_rules({})["friend_card_in_own_hand"] == "self_friend"
    assert (
        GAME.resolve_rules({"friend_card_in_own_hand": "forbidden"})["friend_card_in_own_hand"]
        == "forbidden"
    )
    with pytest.raises(Refusal):
        GAME.resolve_rules({"friend_card_in_own_hand": "allowed"})


# -- "T" for ten --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"), [("HT", "H10"), ("ht", "H10"), ("H10", "H10"), ("♠T", "S10"), ("CT", "C10")]
)
def test_t_is_ten(text, card):
    assert parse_card(text) == card


def test_t_is_printed_as_ten_in_a_round():
    outcome = play(hand(15, "H", 3, friend={"card": "dt", "player": "Ben"}))
    assert outcome.input["friend"] == {"card": "D10", "player": "Ben"}
    misdeal = play({"misdeal": {"player": "Ben", "hand": ["ST" if c == "H10" else c for c in LOW]}})
    assert "S10" in misdeal.input["misdeal"]["hand"]


@pytest.mark.parametrize("text", ["T", "HTT", "H1", "HT0", "XT"])
def test_t_alone_is_not_a_card(text):
    with pytest.raises(Refusal) as caught:
        parse_card(text)
    assert caught.value.code == "invalid_card"


# -- presets ------------------------------------------------------------------------------------

ONLINE = {
    "win_formula": "pagat",
    "critic": "win",
    "lose_formula": "shortfall",
    "declared_run_double": False,
    "double_no_mighty": False,
    "double_no_joker": False,
    "double_no_trump": True,
    "double_no_friend": True,
    "loss_multipliers": ["no_trump", "no_friend"],
    "back_run": "double",
    "back_run_when": "ruling_under_10",
    "friend_card_in_own_hand": "forbidden",
    "next_dealer": "clockwise",
}


def test_presets_korean_wiki_is_the_default():
    assert [preset.key for preset in GAME.presets] == ["korean_wiki", "online", "network_kill"]
    assert GAME.default_preset == "korean_wiki"
    defaults = GAME.resolve_rules({})
    assert GAME.resolve_rules({}, "korean_wiki") == defaults
    assert GAME.resolve_rules(None, None) == defaults
    assert GAME.rules_changed(defaults) == []


def test_online_preset_values_and_explicit_rules_win():
    online = GAME.resolve_rules({}, "online")
    assert {key: online[key] for key in ONLINE} == ONLINE
    assert online["min_bid"] == 13
    changed = GAME.resolve_rules({"critic": "draw", "min_bid": 12}, "online")
    assert (changed["critic"], changed["min_bid"], changed["win_formula"]) == ("draw", 12, "pagat")
    assert GAME.rules_changed(changed, "online") == ["min_bid", "critic"]
    assert GAME.rules_changed(online, "online") == []
    assert GAME.rules_changed(online) == [
        key for key in GAME.resolve_rules({}) if key in ONLINE and key not in (
            "double_no_trump", "double_no_friend")
    ]  # fmt: skip


def test_rules_changed_counts_a_missing_option_as_its_default():
    stored = {key: value for key, value in GAME.resolve_rules({}).items() if key != "next_dealer"}
    assert GAME.rules_changed(stored) == []
    assert GAME.rules_changed(stored, "online") == [
        key for key in GAME.resolve_rules({}) if key in ONLINE and key not in (
            "double_no_trump", "double_no_friend")
    ]  # fmt: skip


@pytest.mark.parametrize("preset", ["nope", "", 5, ["online"], "ONLINE"])
def test_an_unknown_preset_is_invalid_rules(preset):
    for call in (GAME.resolve_rules, GAME.rules_changed):
        with pytest.raises(Refusal) as caught:
            call({}, preset)
        assert (caught.value.code, caught.value.field) == ("invalid_rules", "preset")


def test_online_preset_scores_a_hand_as_online_programs_do():
    """Heart 15, n = 18: pagat 2 x 2 + 3 = 7; NT 14 lost with 9: shortfall 5, x2 NT, x2 back-run."""
    tab = table(**ONLINE)
    assert play(hand(15, "H", 2), tab).result["m"] == 7
    lost = play(hand(14, "NT", 11), tab).result
    assert (lost["back_run"], lost["multipliers"], lost["m"]) == (True, ["no_trump"], 20)
    assert lost["deltas"] == deltas(-40, -20, 20, 20, 20)
