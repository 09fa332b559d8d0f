"""The Great Dalmuti's pure rules: deal, revolutions, tax, legal plays, scoring and the state."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refapp.games.base import RuleViolation, Table, leaders
from refapp.games.dalmuti import (
    JESTER,
    RANK_NAMES,
    ROLE_NAMES,
    ROLES,
    Dalmuti,
    check_play,
    deck,
    deck_size,
    hand_sizes,
    parse_card,
    play_rank,
    points,
    rank_name,
    ranks_from_draw,
    revolt,
    revolution_kinds,
    role_name,
    role_of,
    start_tricks,
    take_turn,
    tribute_due,
)

GAME = Dalmuti()
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
FIVE = NAMES[:5]
TAX = {
    "greater_peasant": [5, 6],
    "greater_dalmuti": [12, 12],
    "lesser_peasant": [7],
    "lesser_dalmuti": [11],
}
# five players, full deck: 16 cards each (Eve is the Greater Peasant, Dee the Lesser Peasant)
EVE = [2, 4, 4, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12, "J"]
DEE = [3, 5, 6, 6, 8, 9, 10, 10, 11, 11, 11, 12, 12, 12, 12, 12]
ANN = [1, 2, 3, 3, 5, 5, 6, 7, 7, 8, 9, 10, 11, 12, 12, "J"]


def seat(count: int = 5, **rules) -> tuple[Table, dict]:
    """Return a table of count players under these house rules and its first state."""
    players = NAMES[:count]
    resolved = GAME.resolve_rules(rules)
    GAME.check_players(players, resolved)
    seats, state = GAME.start(players, resolved, {})
    return Table(seats, resolved), state


def refused(code: str, call, *args, **kwargs) -> RuleViolation:
    """Run call, expect a RuleViolation with code, and return it."""
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


def hand(table: Table, state: dict, body: dict, partial: bool = False):
    """Play one hand (or dry-run it) and return the outcome."""
    return GAME.play(table, state, body, partial=partial)


def order(*names: str) -> list[str]:
    """Return names as a finishing order."""
    return list(names)


# -- cards, deck, names ----------------------------------------------------------------------------


def test_the_deck_has_r_copies_of_rank_r_and_two_jesters():
    cards = deck()
    assert sum(cards.values()) == 80
    assert cards[1] == 1 and cards[12] == 12 and cards[JESTER] == 2


@pytest.mark.parametrize(("removed", "size"), [([], 80), ([12], 68), ([11, 12], 57)])
def test_removed_ranks_shrink_the_deck(removed, size):
    assert deck_size({"removed_ranks": removed}) == size


@pytest.mark.parametrize(("raw", "card"), [(1, 1), (12, 12), ("J", "J"), (" j ", "J"), ("7", 7)])
def test_cards_are_ranks_or_jesters(raw, card):
    assert parse_card(raw, "x") == card


@pytest.mark.parametrize("raw", [0, 13, -1, "X", True, None, 2.5, [3], "²"])
def test_anything_else_is_an_invalid_rank(raw):
    error = refused("invalid_rank", parse_card, raw, "tribute.greater_peasant")
    assert error.field == "tribute.greater_peasant"


def test_rank_and_role_names_in_four_languages():
    for language in ("en", "de", "ko", "hu"):
        assert set(RANK_NAMES[language]) == {*range(1, 13), JESTER}
        assert set(ROLE_NAMES[language]) == set(ROLES)
    assert rank_name(9) == "Cook" and rank_name(JESTER, "de") == "Narr"
    assert rank_name(11, "ko") == "광부" and rank_name(4, "hu") == "báróné"
    assert role_name("greater_peasant", "hu") == "Nagy Paraszt"


# -- players, ranks and roles ----------------------------------------------------------------------


@pytest.mark.parametrize(("count", "allowed"), [(3, False), (4, True), (8, True), (9, False)])
def test_four_to_eight_players(count, allowed):
    rules = GAME.resolve_rules({})
    if allowed:
        GAME.check_players(NAMES[:count], rules)
    else:
        refused("bad_player_count", GAME.check_players, NAMES[:count], rules)


def test_allow_any_count_seats_three_to_ten():
    rules = GAME.resolve_rules({"allow_any_count": True})
    GAME.check_players(NAMES[:3], rules)
    GAME.check_players(NAMES[:10], rules)
    refused("bad_player_count", GAME.check_players, NAMES[:2], rules)


def test_a_deck_too_small_to_deal_is_refused():
    rules = GAME.resolve_rules({"removed_ranks": list(range(3, 13))})
    error = refused("invalid_rules", GAME.check_players, NAMES[:4], rules)
    assert error.field == "rules.removed_ranks"


@pytest.mark.parametrize(
    "rules", [{"tax_timing": "later"}, {"removed_ranks": [13]}, {"hands_to_play": 0}, {"x": 1}]
)
def test_bad_house_rules(rules):
    refused("invalid_rules", GAME.resolve_rules, rules)


def test_roles_by_rank_position():
    assert [role_of(p, 5) for p in range(1, 6)] == [
        "greater_dalmuti",
        "lesser_dalmuti",
        "merchant",
        "lesser_peasant",
        "greater_peasant",
    ]
    assert "merchant" not in [role_of(p, 4) for p in range(1, 5)]
    assert [role_of(p, 3) for p in range(1, 4)] == [
        "greater_dalmuti",
        "merchant",
        "greater_peasant",
    ]


def test_players_as_entered_are_the_first_ranks():
    table, state = seat(5)
    public = GAME.public_state(table, state, {})
    assert public["ranks"] == list(FIVE)
    assert public["roles"]["Ann"] == "greater_dalmuti"
    assert public["roles"]["Cy"] == "merchant"
    assert public["dealer"] == "Eve"
    assert public["role_titles"]["Eve"] == "Greater Peasant"


def test_initial_draw_orders_the_ranks_jester_last():
    draw = {"Ann": 7, "Ben": 1, "Cy": "J", "Dee": 3, "Eve": 12}
    seats, state = GAME.start(FIVE, GAME.resolve_rules({}), {"initial_draw": draw})
    assert seats == FIVE
    assert state["ranks"] == ["Ben", "Dee", "Ann", "Eve", "Cy"]


def test_tied_draws_must_be_redrawn():
    draw = {"Ann": 7, "Ben": 1, "Cy": 7, "Dee": 3, "Eve": 12}
    error = refused("draw_tie", ranks_from_draw, FIVE, draw)
    assert "Ann and Cy both drew 7" in error.message


@pytest.mark.parametrize(
    ("draw", "code"),
    [
        ({"Ann": 7, "Ben": 1, "Cy": 2, "Dee": 3, "Zed": 12}, "unknown_player"),
        ({"Ann": 7, "Ben": 1, "Cy": 2, "Dee": 3}, "missing_field"),
        ({"Ann": 7, "Ben": 1, "Cy": 2, "Dee": 3, "Eve": 13}, "invalid_rank"),
        ([7, 1, 2, 3, 4], "invalid_value"),
    ],
)
def test_bad_draws(draw, code):
    refused(code, ranks_from_draw, FIVE, draw)


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (4, [20] * 4),
        (5, [16] * 5),
        (6, [14, 14, 13, 13, 13, 13]),
        (7, [12, 12, 12, 11, 11, 11, 11]),
        (8, [10] * 8),
    ],
)
def test_hand_sizes_with_the_full_deck(count, sizes):
    table, state = seat(count)
    assert list(GAME.public_state(table, state, {})["hand_sizes"].values()) == sizes


def test_korean_custom_gives_the_extra_cards_from_the_greater_peasant_up():
    sizes = hand_sizes(NAMES[:6], {"extra_cards_to": "greater_peasant_first"})
    assert list(sizes.values()) == [13, 13, 13, 13, 14, 14]


def test_hand_sizes_without_elevens_and_twelves():
    table, state = seat(4, removed_ranks=[11, 12])
    assert list(GAME.public_state(table, state, {})["hand_sizes"].values()) == [15, 14, 14, 14]


# -- a whole hand and its score --------------------------------------------------------------------


def test_points_are_the_players_below():
    table, state = seat(5)
    outcome = hand(
        table, state, {"tribute": TAX, "finish_order": order("Cy", "Ann", "Eve", "Ben", "Dee")}
    )
    assert outcome.result["deltas"] == {"Ann": 3, "Ben": 1, "Cy": 4, "Dee": 0, "Eve": 2}
    assert outcome.result["ranks_after"] == ["Cy", "Ann", "Eve", "Ben", "Dee"]
    assert outcome.result["revolution"] is None
    assert "Cy went out 1st of 5: 4 points (players below)." in outcome.result["explanation"]
    public = GAME.public_state(table, outcome.state, {})
    assert public["ranks"] == ["Cy", "Ann", "Eve", "Ben", "Dee"]
    assert public["dealer"] == "Dee"
    assert public["hands_played"] == 1


def test_players_below_plus_one():
    table, state = seat(4, scoring="players_below_plus_one")
    outcome = hand(table, state, {"tribute": TAX, "finish_order": order("Dee", "Cy", "Ben", "Ann")})
    assert outcome.result["deltas"] == {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}


def test_rising_bonus_pays_the_dalmutis_for_their_peasants_rise():
    table, state = seat(5, rising_bonus=True)
    finish = order("Eve", "Dee", "Ann", "Ben", "Cy")
    outcome = hand(table, state, {"tribute": TAX, "finish_order": finish})
    # Eve (GP) rose 4 places: +4 to Ann (GD); Dee (LP) rose 2 places: +2 to Ben (LD)
    assert outcome.result["rising_bonus"] == {"Eve": 0, "Dee": 0, "Ann": 4, "Ben": 2, "Cy": 0}
    assert outcome.result["deltas"] == {"Ann": 6, "Ben": 3, "Cy": 0, "Dee": 3, "Eve": 4}


def test_rising_bonus_is_never_negative():
    table, state = seat(5, rising_bonus=True)
    outcome = hand(table, state, {"tribute": TAX, "finish_order": order(*FIVE)})
    assert outcome.result["deltas"] == {"Ann": 4, "Ben": 3, "Cy": 2, "Dee": 1, "Eve": 0}


def test_rising_bonus_follows_the_ranks_during_a_greater_revolution():
    table, state = seat(5, rising_bonus=True)
    revolution = {"player": "Eve", "kind": "greater"}
    # during: Eve, Dee, Cy, Ben, Ann - Ann is the hand's Greater Peasant and wins
    outcome = hand(table, state, {"revolution": revolution, "finish_order": order(*FIVE)})
    assert outcome.result["rising_bonus"]["Eve"] == 4
    assert outcome.result["rising_bonus"]["Dee"] == 2


@pytest.mark.parametrize(
    ("finish", "code"),
    [
        (["Ann", "Ben", "Cy", "Dee", "Dee"], "finish_order_invalid"),
        (["Ann", "Ben", "Cy", "Dee"], "finish_order_invalid"),
        (["Ann", "Ben", "Cy", "Dee", "Zed"], "unknown_player"),
        ("Ann", "invalid_value"),
    ],
)
def test_the_finish_order_names_everyone_once(finish, code):
    table, state = seat(5)
    error = refused(code, hand, table, state, {"tribute": TAX, "finish_order": finish})
    assert error.field == "finish_order"


def test_a_hand_needs_its_finish_order():
    table, state = seat(5)
    refused("missing_field", hand, table, state, {"tribute": TAX})


def test_stored_input_replays_to_the_same_result():
    table, state = seat(5)
    body = {
        "tribute": {
            "greater_peasant": [4, "2"],
            "greater_dalmuti": [12, 11],
            "lesser_peasant": 3,
            "lesser_dalmuti": [12],
        },
        "hands": {" Eve": EVE, "Dee": DEE},
        "finish_order": [" Ann", "Ben", "Cy", "Dee", "Eve"],
    }
    first = hand(table, state, body)
    assert first.input["tribute"]["greater_peasant"] == [2, 4]
    assert first.input["tribute"]["lesser_peasant"] == [3]
    assert list(first.input["hands"]) == ["Dee", "Eve"]
    again = hand(table, state, first.input)
    assert again.input == first.input and again.result == first.result


def test_the_session_ends_after_hands_to_play():
    table, state = seat(4, hands_to_play=2)
    assert GAME.public_state(table, state, {})["hands_total"] == 2
    for _ in range(2):
        assert not GAME.is_over(table, state, {})
        state = hand(table, state, {"tribute": TAX, "finish_order": order(*NAMES[:4])}).state
    assert GAME.is_over(table, state, {})


def test_without_a_hand_count_the_table_decides_the_end():
    table, state = seat(4)
    assert GAME.public_state(table, state, {})["hands_total"] is None
    assert not GAME.is_over(table, {**state, "hands_played": 500}, {})


# -- revolutions -----------------------------------------------------------------------------------


def test_a_plain_revolution_cancels_the_tax_and_keeps_the_ranks():
    table, state = seat(6)
    body = {"revolution": {"player": "Ben", "kind": "plain"}, "finish_order": order(*NAMES[:6])}
    outcome = hand(table, state, body)
    assert outcome.result["revolution"] == "plain"
    assert outcome.result["ranks_during"] == list(NAMES[:6])
    refused("tribute_not_allowed", hand, table, state, {**body, "tribute": TAX})


def test_a_greater_revolution_reverses_every_rank():
    table, state = seat(5)
    body = {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": order(*FIVE)}
    outcome = hand(table, state, body)
    assert outcome.result["ranks_during"] == ["Eve", "Dee", "Cy", "Ben", "Ann"]
    assert outcome.result["revolution"] == "greater"
    assert outcome.result["ranks_after"] == list(FIVE)


def test_only_the_greater_peasant_may_reverse_the_ranks():
    table, state = seat(5)
    body = {"revolution": {"player": "Ben", "kind": "greater"}, "finish_order": order(*FIVE)}
    error = refused("revolution_kind_not_allowed", hand, table, state, body)
    assert error.field == "revolution.kind"


def test_without_greater_revolutions_the_greater_peasant_declares_a_plain_one():
    table, state = seat(5, greater_revolution=False)
    greater = {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": order(*FIVE)}
    refused("revolution_kind_not_allowed", hand, table, state, greater)
    plain = {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": order(*FIVE)}
    assert hand(table, state, plain).result["ranks_during"] == list(FIVE)


def test_the_greater_peasant_may_choose_plain_unless_the_house_says_no():
    plain = {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": order(*FIVE)}
    table, state = seat(5)
    assert hand(table, state, plain).result["revolution"] == "plain"
    table, state = seat(5, gp_may_choose_plain=False)
    refused("revolution_kind_not_allowed", hand, table, state, plain)


def test_lesser_peasant_revolution_reverses_all_but_the_greater_peasant():
    body = {"revolution": {"player": "Dee", "kind": "greater"}, "finish_order": order(*FIVE)}
    table, state = seat(5)
    refused("revolution_kind_not_allowed", hand, table, state, body)
    table, state = seat(5, lesser_peasant_revolution=True)
    outcome = hand(table, state, body)
    assert outcome.result["ranks_during"] == ["Dee", "Cy", "Ben", "Ann", "Eve"]
    assert GAME.public_state(table, state, {})["greater_revolution_by"] == ["Dee", "Eve"]


def test_a_revolution_needs_both_jesters_in_the_hand_entered():
    table, state = seat(5)
    body = {
        "revolution": {"player": "Eve", "kind": "plain"},
        "hands": {"Eve": EVE},
        "finish_order": order(*FIVE),
    }
    error = refused("revolution_without_jesters", hand, table, state, body)
    assert error.field == "revolution.player"
    two = [*EVE[:-2], "J", "J"]
    assert hand(table, state, {**body, "hands": {"Eve": two}}).result["revolution"] == "plain"


def test_a_jester_in_another_hand_rules_out_a_revolution():
    table, state = seat(5)
    body = {
        "revolution": {"player": "Cy", "kind": "plain"},
        "hands": {"Ann": ANN},
        "finish_order": order(*FIVE),
    }
    refused("revolution_without_jesters", hand, table, state, body)


@pytest.mark.parametrize(
    ("revolution", "code"),
    [
        ({"player": "Ben", "kind": "huge"}, "invalid_value"),
        ({"player": "Ben"}, "missing_field"),
        ({"kind": "plain"}, "missing_field"),
        ({"player": "Zed", "kind": "plain"}, "unknown_player"),
        ("Ben", "invalid_value"),
    ],
)
def test_malformed_revolutions(revolution, code):
    table, state = seat(5)
    refused(code, hand, table, state, {"revolution": revolution, "finish_order": order(*FIVE)})


def test_revolution_kinds_by_role():
    ranks = list(FIVE)
    assert revolution_kinds(ranks, "Eve", {}) == ("plain", "greater")
    assert revolution_kinds(ranks, "Ann", {}) == ("plain",)
    assert revolution_kinds(ranks, "Eve", {"gp_may_choose_plain": False}) == ("greater",)


# -- the tax ---------------------------------------------------------------------------------------


def test_the_tax_due_names_givers_counts_and_which_cards():
    table, state = seat(5)
    due = GAME.public_state(table, state, {})["tribute_due"]
    assert [(d["from"], d["to"], d["count"], d["which"]) for d in due] == [
        ("Eve", "Ann", 2, "best"),
        ("Ann", "Eve", 2, "any"),
        ("Dee", "Ben", 1, "best"),
        ("Ben", "Dee", 1, "any"),
    ]


def test_the_state_lists_each_exchange_with_the_api_keys_only():
    """Regression: API.md's tribute_due items are exactly {from, to, count, which}.

    The golden runner compares lists whole, so the engine's own keys (role, after_receiving)
    made every state check of tribute_due fail.
    """
    table, state = seat(4, tax_timing="sequential")
    due = GAME.public_state(table, state, {})["tribute_due"]
    assert due == [
        {"from": "Dee", "to": "Ann", "count": 2, "which": "best"},
        {"from": "Ann", "to": "Dee", "count": 2, "which": "any"},
        {"from": "Cy", "to": "Ben", "count": 1, "which": "best"},
        {"from": "Ben", "to": "Cy", "count": 1, "which": "any"},
    ]


def test_three_players_exchange_only_between_the_greater_pair():
    table, state = seat(3, allow_any_count=True)
    due = tribute_due(list(table.players), table.rules, 0)
    assert [d["role"] for d in due] == ["greater_peasant", "greater_dalmuti"]
    body = {"tribute": {"greater_peasant": [1, 2], "greater_dalmuti": [12, 12]}}
    assert hand(table, state, {**body, "finish_order": order(*NAMES[:3])}).result["tax"]
    extra = {"tribute": {**TAX}, "finish_order": order(*NAMES[:3])}
    error = refused("invalid_value", hand, table, state, extra)
    assert error.field == "tribute.lesser_peasant"


def test_the_tax_is_required_when_due():
    table, state = seat(5)
    error = refused("tribute_required", hand, table, state, {"finish_order": order(*FIVE)})
    assert "Eve gives Ann 2 best card(s)" in error.message
    partial = {k: v for k, v in TAX.items() if k != "lesser_dalmuti"}
    error = refused(
        "tribute_required", hand, table, state, {"tribute": partial, "finish_order": order(*FIVE)}
    )
    assert error.field == "tribute.lesser_dalmuti"


def test_no_tax_when_the_house_rule_is_off():
    table, state = seat(5, tax=False)
    assert GAME.public_state(table, state, {})["tribute_due"] == []
    assert hand(table, state, {"finish_order": order(*FIVE)}).result["tax"] is False
    refused(
        "tribute_not_allowed", hand, table, state, {"tribute": TAX, "finish_order": order(*FIVE)}
    )


def test_tax_first_hand_off_skips_only_the_first_hand():
    table, state = seat(5, tax_first_hand=False)
    refused(
        "tribute_not_allowed", hand, table, state, {"tribute": TAX, "finish_order": order(*FIVE)}
    )
    state = hand(table, state, {"finish_order": order(*FIVE)}).state
    assert len(GAME.public_state(table, state, {})["tribute_due"]) == 4
    refused("tribute_required", hand, table, state, {"finish_order": order(*FIVE)})


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"greater_peasant": [2]}, "wrong_tribute_count", "tribute.greater_peasant"),
        ({"greater_dalmuti": [12, 11, 10]}, "wrong_tribute_count", "tribute.greater_dalmuti"),
        ({"lesser_dalmuti": []}, "wrong_tribute_count", "tribute.lesser_dalmuti"),
        ({"greater_peasant": [2, "J"]}, "jester_in_tribute", "tribute.greater_peasant"),
        ({"lesser_dalmuti": ["J"]}, "jester_in_tribute", "tribute.lesser_dalmuti"),
        ({"greater_peasant": [2, 13]}, "invalid_rank", "tribute.greater_peasant"),
        ({"lesser_peasant": ["two"]}, "invalid_rank", "tribute.lesser_peasant"),
        ({"greater_peasant": [1, 1]}, "supply_exceeded", "tribute.greater_peasant"),
        ({"greater_peasant": [2, 2], "lesser_peasant": [2]}, "supply_exceeded", "tribute"),
        ({"merchant": [5]}, "invalid_value", "tribute.merchant"),
    ],
)
def test_tribute_refusals_without_hands(change, code, field):
    table, state = seat(5)
    body = {"tribute": {**TAX, **change}, "finish_order": order(*FIVE)}
    error = refused(code, hand, table, state, body)
    assert error.field == field


def test_a_removed_rank_cannot_be_given():
    table, state = seat(5, removed_ranks=[12])
    error = refused(
        "supply_exceeded", hand, table, state, {"tribute": TAX, "finish_order": order(*FIVE)}
    )
    assert "out of the deck" in error.message


def test_peasants_give_their_best_cards():
    table, state = seat(5)
    ok = {
        "greater_peasant": [2, 4],
        "greater_dalmuti": [12, 11],
        "lesser_peasant": [3],
        "lesser_dalmuti": [12],
    }
    hands = {"Eve": EVE, "Dee": DEE, "Ann": ANN}
    assert hand(table, state, {"tribute": ok, "hands": hands, "finish_order": order(*FIVE)})
    for role, cards in (("greater_peasant", [2, 7]), ("lesser_peasant", [5])):
        body = {"tribute": {**ok, role: cards}, "hands": hands, "finish_order": order(*FIVE)}
        error = refused("tribute_not_best", hand, table, state, body)
        assert error.field == f"tribute.{role}"


def test_cards_given_must_have_been_held():
    table, state = seat(5)
    tribute = {**TAX, "greater_peasant": [2, 3]}
    error = refused(
        "card_not_in_hand",
        hand,
        table,
        state,
        {"tribute": tribute, "hands": {"Eve": EVE}, "finish_order": order(*FIVE)},
    )
    assert error.field == "tribute.greater_peasant"


def test_simultaneous_timing_gives_from_the_hand_as_dealt():
    table, state = seat(5)
    tribute = {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [4, 12]}
    body = {"tribute": tribute, "hands": {"Ann": ANN}, "finish_order": order(*FIVE)}
    error = refused("card_not_in_hand", hand, table, state, body)
    assert error.field == "tribute.greater_dalmuti"


def test_sequential_timing_lets_a_dalmuti_pass_on_the_tribute():
    table, state = seat(5, tax_timing="sequential")
    tribute = {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [4, 12]}
    body = {"tribute": tribute, "hands": {"Ann": ANN}, "finish_order": order(*FIVE)}
    assert hand(table, state, body).result["deltas"]["Ann"] == 4
    tribute["greater_dalmuti"] = [4, 4]
    refused("card_not_in_hand", hand, table, state, body)
    due = tribute_due(list(table.players), table.rules, 0)
    assert [d["after_receiving"] for d in due] == [False, True, False, True]


def test_sequential_supply_counts_a_passed_on_card_once():
    tribute = {**TAX, "greater_peasant": [1, 2], "greater_dalmuti": [1, 12]}
    body = {"tribute": tribute, "finish_order": order(*FIVE)}
    table, state = seat(5)
    refused("supply_exceeded", hand, table, state, body)
    table, state = seat(5, tax_timing="sequential")
    assert hand(table, state, body).result["tax"] is True


def test_hands_and_tribute_together_respect_the_deck():
    table, state = seat(5)
    body = {"tribute": {**TAX, "greater_peasant": [1, 2]}, "hands": {"Ann": ANN}}
    error = refused("supply_exceeded", hand, table, state, {**body, "finish_order": order(*FIVE)})
    assert error.field == "tribute"


def test_hands_must_have_the_dealt_size():
    table, state = seat(6)
    body = {"tribute": TAX, "hands": {"Ann": [12] * 13}, "finish_order": order(*NAMES[:6])}
    error = refused("wrong_hand_size", hand, table, state, body)
    assert error.field == "hands.Ann" and "dealt 14 cards" in error.message


def test_hands_together_cannot_exceed_the_deck():
    table, state = seat(5)
    twin = [1, *ANN[1:]]
    body = {"tribute": TAX, "hands": {"Ann": ANN, "Ben": twin}, "finish_order": order(*FIVE)}
    error = refused("supply_exceeded", hand, table, state, body)
    assert error.field == "hands"


@pytest.mark.parametrize(
    ("hands", "code"),
    [
        ({"Zed": ANN}, "unknown_player"),
        ({"Ann": "cards"}, "invalid_value"),
        ([ANN], "invalid_value"),
    ],
)
def test_malformed_hands(hands, code):
    table, state = seat(5)
    refused(
        code, hand, table, state, {"tribute": TAX, "hands": hands, "finish_order": order(*FIVE)}
    )


def test_merchant_trades_are_a_house_rule_between_merchants():
    body = {"tribute": TAX, "merchant_trades": [["Dee", "Cy"]], "finish_order": order(*NAMES[:6])}
    table, state = seat(6)
    refused("invalid_value", hand, table, state, body)
    table, state = seat(6, merchant_trade=True)
    assert hand(table, state, body).input["merchant_trades"] == [["Cy", "Dee"]]
    for trades in ([["Cy", "Ann"]], [["Cy", "Dee"], ["Dee", "Cy"]], [["Cy"]]):
        refused("invalid_value", hand, table, state, {**body, "merchant_trades": trades})
    revolution = {"player": "Ben", "kind": "plain"}
    after = {**body, "tribute": None, "revolution": revolution}
    refused("tribute_not_allowed", hand, table, state, after)


# -- dry runs --------------------------------------------------------------------------------------


def test_a_dry_run_of_the_tribute_alone():
    table, state = seat(5)
    outcome = hand(table, state, {"tribute": TAX}, partial=True)
    assert outcome.result["complete"] is False and "deltas" not in outcome.result
    assert outcome.state == state
    body = {"tribute": {**TAX, "greater_peasant": [2, 7]}, "hands": {"Eve": EVE}}
    refused("tribute_not_best", hand, table, state, body, partial=True)


def test_a_dry_run_of_one_role_of_the_tribute():
    table, state = seat(5)
    outcome = hand(table, state, {"tribute": {"greater_peasant": [2, 4]}}, partial=True)
    assert outcome.input["tribute"] == {"greater_peasant": [2, 4]}


def test_a_dry_run_of_a_revolution_alone():
    table, state = seat(5)
    body = {"revolution": {"player": "Eve", "kind": "greater"}}
    outcome = hand(table, state, body, partial=True)
    assert outcome.result["ranks_during"] == ["Eve", "Dee", "Cy", "Ben", "Ann"]
    assert outcome.result["tax"] is False


def test_a_dry_run_of_the_finish_order_alone_scores_but_is_incomplete():
    table, state = seat(5)
    outcome = hand(table, state, {"finish_order": order(*FIVE)}, partial=True)
    assert outcome.result["deltas"]["Ann"] == 4
    assert outcome.result["complete"] is False
    assert outcome.state == state


def test_a_dry_run_of_nothing():
    table, state = seat(5)
    assert hand(table, state, {}, partial=True).result["complete"] is False


# -- legal plays -----------------------------------------------------------------------------------


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
    tricks = start_tricks(["Ann", "Ben", "Cy"], {"Ann": 3, "Ben": 3, "Cy": 3})
    refused("supply_exceeded", take_turn, tricks, "Ann", [11], removed=[11, 12])
    assert take_turn(tricks, "Ann", [10], removed=[11, 12])["last"]["rank"] == 10


def test_a_trick_ends_when_everyone_with_cards_passed_and_its_last_player_leads():
    tricks = start_tricks(["Ann", "Ben", "Cy"], {"Ann": 3, "Ben": 3, "Cy": 3})
    refused("out_of_turn", take_turn, tricks, "Ben", [5])
    refused("wrong_play_count", take_turn, tricks, "Ann", None)
    tricks = take_turn(tricks, "Ann", [9])
    tricks = take_turn(tricks, "Ben", [7])
    tricks = take_turn(tricks, "Cy", None)
    assert tricks["to_play"] == "Ann"
    tricks = take_turn(tricks, "Ann", [])
    assert tricks["last"] is None and tricks["to_play"] == "Ben"


def test_a_passed_player_may_play_again_in_the_same_trick():
    tricks = start_tricks(["Ann", "Ben", "Cy"], {"Ann": 3, "Ben": 3, "Cy": 3})
    tricks = take_turn(tricks, "Ann", [9])
    tricks = take_turn(tricks, "Ben", None)
    tricks = take_turn(tricks, "Cy", [8])
    tricks = take_turn(tricks, "Ann", None)
    tricks = take_turn(tricks, "Ben", [5])
    assert tricks["last"]["player"] == "Ben" and tricks["to_play"] == "Cy"


def test_going_out_passes_the_lead_clockwise_and_the_last_holder_finishes_last():
    tricks = start_tricks(["Ann", "Ben", "Cy"], {"Ann": 1, "Ben": 2, "Cy": 2})
    tricks = take_turn(tricks, "Ann", [4])
    assert tricks["finish_order"] == ["Ann"]
    tricks = take_turn(tricks, "Ben", None)
    tricks = take_turn(tricks, "Cy", None)
    assert tricks["last"] is None and tricks["to_play"] == "Ben"
    tricks = take_turn(tricks, "Ben", [10, 10])
    assert tricks["over"] and tricks["finish_order"] == ["Ann", "Ben", "Cy"]
    refused("out_of_turn", take_turn, tricks, "Cy", [3])


# -- properties ------------------------------------------------------------------------------------


@st.composite
def finished_hands(draw):
    """Draw a table size, house rules, a revolution (or none) and a finishing order."""
    count = draw(st.integers(3, 10))
    players = list(NAMES[:count])
    rules = {
        "allow_any_count": True,
        "scoring": draw(st.sampled_from(["players_below", "players_below_plus_one"])),
        "rising_bonus": draw(st.booleans()),
        "lesser_peasant_revolution": True,
    }
    kind = draw(st.sampled_from([None, "plain", "greater"]))
    revolution = None
    if kind:
        declarer = players[-1] if kind == "greater" else draw(st.sampled_from(players))
        if kind == "greater" and count >= 4:
            declarer = draw(st.sampled_from(players[-2:]))
        revolution = {"player": declarer, "kind": kind}
    return players, rules, revolution, draw(st.permutations(players))


@given(finished_hands())
def test_points_sum_to_the_triangle_plus_bonuses(case):
    players, rules, revolution, finish = case
    table, state = seat(len(players), **rules)
    body = {"revolution": revolution, "finish_order": list(finish), "tribute": None}
    outcome = hand(table, state, body, partial=True)
    result = outcome.result
    count = len(players)
    bonus = sum(result.get("rising_bonus", {}).values())
    extra = count if rules["scoring"] == "players_below_plus_one" else 0
    assert sum(result["deltas"].values()) == count * (count - 1) // 2 + extra + bonus
    assert set(result["deltas"]) == set(players)
    assert all(isinstance(delta, int) and delta >= 0 for delta in result["deltas"].values())
    assert bonus <= (count - 1) + (count - 2)
    assert sorted(result["ranks_after"]) == sorted(players)
    assert sorted(result["ranks_during"]) == sorted(players)
    assert result["deltas"][finish[0]] >= result["deltas"][finish[-1]]


@given(finished_hands())
def test_ranks_after_a_hand_are_the_finish_order(case):
    players, rules, revolution, finish = case
    table, state = seat(len(players), **{**rules, "tax": False})
    outcome = hand(table, state, {"revolution": revolution, "finish_order": list(finish)})
    assert outcome.state["ranks"] == list(finish)
    assert GAME.public_state(table, outcome.state, {})["dealer"] == finish[-1]


@given(
    st.integers(3, 10),
    st.sets(st.integers(1, 12), max_size=4),
    st.sampled_from(["greater_dalmuti_first", "greater_peasant_first"]),
)
def test_hand_sizes_sum_to_the_deck(count, removed, extra):
    rules = {"removed_ranks": sorted(removed), "extra_cards_to": extra}
    sizes = hand_sizes(list(NAMES[:count]), rules)
    assert sum(sizes.values()) == deck_size(rules) == 80 - sum(removed)
    assert max(sizes.values()) - min(sizes.values()) <= 1


@given(st.integers(3, 10).flatmap(lambda n: st.permutations(NAMES[:n])))
def test_a_greater_revolution_twice_is_the_identity(ranks):
    ranks = list(ranks)
    once = revolt(ranks, {"player": ranks[-1], "kind": "greater"})
    assert [once.index(name) + 1 for name in ranks] == [len(ranks) - i for i in range(len(ranks))]
    assert revolt(once, {"player": once[-1], "kind": "greater"}) == ranks
    lesser = revolt(ranks, {"player": ranks[-2], "kind": "greater"})
    assert lesser[-1] == ranks[-1]
    assert revolt(lesser, {"player": lesser[-2], "kind": "greater"}) == ranks


@given(st.integers(3, 10))
def test_points_by_position_count_the_players_below(count):
    assert [points(p, count) for p in range(1, count + 1)] == list(range(count - 1, -1, -1))


def legal_plays(held: Counter, last: dict | None) -> list[list]:
    """Return every play a hand could make now (one per rank and size, jesters added last)."""
    jesters = held[JESTER]
    plays = []
    for rank in range(1, 13):
        for size in range(1, held[rank] + jesters + 1):
            plain = min(size, held[rank])
            if plain == 0:
                continue
            plays.append([rank] * plain + [JESTER] * (size - plain))
    plays += [[JESTER] * size for size in range(1, jesters + 1)]
    if last is None:
        return plays
    return [p for p in plays if len(p) == len(last["cards"]) and play_rank(p) < last["rank"]]


@settings(deadline=None, max_examples=40)
@given(st.integers(3, 8), st.randoms(use_true_random=False))
def test_random_hands_play_out_to_a_full_finish_order(count, rng):
    players = list(NAMES[:count])
    cards = list(deck().elements())
    rng.shuffle(cards)
    sizes = hand_sizes(players, {})
    hands, start = {}, 0
    for name in players:
        hands[name] = Counter(cards[start : start + sizes[name]])
        start += sizes[name]
    tricks = start_tricks(players, sizes)
    played = 0
    while not tricks["over"]:
        player = tricks["to_play"]
        options = legal_plays(hands[player], tricks["last"])
        choice = rng.choice(options) if options and rng.random() < 0.8 else None
        if tricks["last"] is None:
            choice = rng.choice(options)
        tricks = take_turn(tricks, player, choice, hand=list(hands[player].elements()))
        if choice:
            hands[player] -= Counter(choice)
            played += len(choice)
        assert tricks["holding"] == {n: sum(h.values()) for n, h in hands.items()}
    assert sorted(tricks["finish_order"]) == sorted(players)
    last = tricks["finish_order"][-1]
    assert played + sum(hands[last].values()) == 80


JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 14),
        st.floats(allow_nan=True),
        st.sampled_from([*FIVE, "J", "Zed", "plain", "greater", "12", ""]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from([*FIVE, "player", "kind", *TAX]), inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=300)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "revolution": JUNK,
            "tribute": JUNK,
            "hands": JUNK,
            "finish_order": st.one_of(JUNK, st.permutations(FIVE)),
        },
    ),
    st.booleans(),
)
def test_any_input_is_scored_or_refused_with_a_code(body, partial):
    table, state = seat(5, merchant_trade=True)
    try:
        outcome = hand(table, state, body, partial=partial)
    except RuleViolation as error:
        assert error.code and error.message
        return
    if not partial:
        assert hand(table, state, outcome.input).result == outcome.result


def test_the_explanation_accounts_for_every_player():
    table, state = seat(6, rising_bonus=True)
    finish = order("Fay", "Ann", "Eve", "Ben", "Dee", "Cy")
    lines = hand(table, state, {"tribute": TAX, "finish_order": finish}).result["explanation"]
    for name in finish:
        assert any(line.startswith(f"{name} ") for line in lines)
    assert lines[-1] == "This hand: Ann +9, Ben +4, Cy 0, Dee +1, Eve +3, Fay +5."


# -- worked table cases (golden style, values from the rules file) ---------------------------------

FOUR, P5, SIX, SEVEN, NINE, TEN = (list(NAMES[:count]) for count in (4, 5, 6, 7, 9, 10))
CY_JESTERS = [2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, "J", "J"]


def due(gp: str, gd: str, lp: str | None = None, ld: str | None = None) -> list[dict]:
    """Return the state's tribute_due: each peasant's tribute, then the Dalmuti's return."""
    pairs = [(gp, gd, 2)] + ([(lp, ld, 1)] if lp else [])
    items = []
    for peasant, dalmuti, count in pairs:
        items.append({"from": peasant, "to": dalmuti, "count": count, "which": "best"})
        items.append({"from": dalmuti, "to": peasant, "count": count, "which": "any"})
    return items


def roles(*ranks: str) -> dict[str, str]:
    """Return the state's roles for ranks given Greater Dalmuti first."""
    return {name: role_of(index, len(ranks)) for index, name in enumerate(ranks, 1)}


def below(*finish: str) -> dict[str, int]:
    """Return the default points of a finishing order: one per player below."""
    return {name: len(finish) - index for index, name in enumerate(finish, 1)}


def step(body: dict, **expect) -> dict:
    """Return one hand of a case: its input and what it must give (deltas, result, state, error)."""
    return {"body": body, **expect}


def dry(body: dict, **expect) -> dict:
    """Return a dry-run step: checked (and scored if complete) but not recorded."""
    return step(body, dry_run=True, **expect)


TABLE_CASES = {
    "four players without 11s and 12s: 57 cards, an 11 is out of the deck": {
        "players": FOUR,
        "rules": {"removed_ranks": [11, 12]},
        "state": {"hand_sizes": {"Ann": 15, "Ben": 14, "Cy": 14, "Dee": 14}},
        "rounds": [
            dry({"tribute": {**TAX, "greater_dalmuti": [11, 10]}}, error="supply_exceeded"),
            step(
                {
                    "tribute": {**TAX, "greater_dalmuti": [10, 10], "lesser_dalmuti": [9]},
                    "hands": {"Ann": [1, 2, 3, 3, 3, 4, 4, 4, 4, 6, 6, 6, 6, 6, "J"]},
                    "finish_order": FOUR,
                },
                error="card_not_in_hand",
            ),
            step(
                {
                    "tribute": {**TAX, "greater_dalmuti": [10, 10], "lesser_dalmuti": [10]},
                    "finish_order": FOUR,
                },
                deltas=below(*FOUR),
            ),
        ],
    },
    "five players without 12s: 14, 14, 14, 13, 13 and hands to match": {
        "players": P5,
        "rules": {"removed_ranks": [12]},
        "state": {"hand_sizes": {"Ann": 14, "Ben": 14, "Cy": 14, "Dee": 13, "Eve": 13}},
        "rounds": [
            dry({"hands": {"Eve": [*EVE[:11], 11, 11, "J"]}}, error="wrong_hand_size"),
            dry({"hands": {"Eve": [*EVE[:11], 11, 12]}}, error="supply_exceeded"),
            dry(
                {
                    "tribute": {**TAX, "greater_peasant": [2, 4], "greater_dalmuti": [11, 11]},
                    "hands": {"Eve": [*EVE[:11], 11, 11]},
                },
                result={"complete": False},
            ),
        ],
    },
    "the Korean deal gives the odd cards from the Greater Peasant up": {
        "players": SEVEN,
        "rules": {"extra_cards_to": "greater_peasant_first"},
        "state": {"hand_sizes": dict(zip(SEVEN, [11, 11, 11, 11, 12, 12, 12], strict=True))},
        "rounds": [dry({"hands": {"Ann": [12] * 12}}, error="wrong_hand_size")],
    },
    "three players: the middle one is a merchant, only the greater pair pays tax": {
        "players": NAMES[:3],
        "rules": {"allow_any_count": True},
        "state": {
            "hand_sizes": {"Cy": 27, "Ann": 27, "Ben": 26},
            "roles": roles("Cy", "Ann", "Ben"),
        },
        "rounds": [
            step({"finish_order": ["Cy", "Ann", "Ben"]}, error="tribute_required"),
            step(
                {
                    "tribute": {"greater_peasant": [1, 2], "greater_dalmuti": [12, 12]},
                    "finish_order": ["Cy", "Ann", "Ben"],
                },
                deltas={"Cy": 2, "Ann": 1, "Ben": 0},
                state={
                    "ranks": ["Cy", "Ann", "Ben"],
                    "dealer": "Ben",
                    "tribute_due": due("Ben", "Cy"),
                },
            ),
        ],
    },
    "nine players: nine cards each but the last, and every role": {
        "players": NINE,
        "rules": {"allow_any_count": True},
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": NINE[::-1]},
                deltas=below(*NINE[::-1]),
                state={
                    "roles": roles(*NINE[::-1]),
                    "hand_sizes": {**dict.fromkeys(NINE[1:], 9), "Ann": 8},
                    "tribute_due": due("Ann", "Ida", "Ben", "Hal"),
                    "dealer": "Ann",
                },
            )
        ],
    },
    "ten players: eight cards each": {
        "players": TEN,
        "rules": {"allow_any_count": True},
        "state": {"hand_sizes": dict.fromkeys(TEN, 8), "roles": roles(*TEN)},
        "rounds": [step({"tribute": TAX, "finish_order": TEN}, deltas=below(*TEN))],
    },
    "the first ranks from a draw, a jester the worst; the seats stay as entered": {
        "players": FOUR,
        "setup": {"initial_draw": {"Ann": "J", "Ben": 12, "Cy": 2, "Dee": 11}},
        "start": {
            "ranks": ["Cy", "Dee", "Ben", "Ann"],
            "roles": roles("Cy", "Dee", "Ben", "Ann"),
            "dealer": "Ann",
            "tribute_due": due("Ann", "Cy", "Ben", "Dee"),
        },
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": FOUR},
                deltas=below(*FOUR),
                result={"ranks_before": ["Cy", "Dee", "Ben", "Ann"], "ranks_after": list(FOUR)},
            )
        ],
    },
    "a merchant's revolution: no tax, ranks stay, the next hand is taxed": {
        "players": P5,
        "rounds": [
            step(
                {
                    "revolution": {"player": "Cy", "kind": "plain"},
                    "hands": {"Cy": CY_JESTERS},
                    "tribute": TAX,
                    "finish_order": P5,
                },
                error="tribute_not_allowed",
            ),
            step(
                {
                    "revolution": {"player": "Cy", "kind": "plain"},
                    "hands": {"Cy": CY_JESTERS},
                    "finish_order": P5[::-1],
                },
                deltas=below(*P5[::-1]),
                result={"revolution": "plain", "ranks_during": list(P5)},
                state={"tribute_due": due("Ann", "Eve", "Ben", "Dee"), "hands_played": 1},
            ),
            step({"finish_order": P5}, error="tribute_required"),
        ],
    },
    "the Greater Peasant's greater revolution; the finish order ranks the next hand": {
        "players": P5,
        "rounds": [
            step(
                {"revolution": {"player": "Ben", "kind": "greater"}, "finish_order": P5},
                error="revolution_kind_not_allowed",
            ),
            step(
                {
                    "revolution": {"player": "Eve", "kind": "greater"},
                    "finish_order": ["Dee", "Ann", "Eve", "Cy", "Ben"],
                },
                deltas={"Dee": 4, "Ann": 3, "Eve": 2, "Cy": 1, "Ben": 0},
                result={
                    "revolution": "greater",
                    "ranks_during": ["Eve", "Dee", "Cy", "Ben", "Ann"],
                },
                state={
                    "ranks": ["Dee", "Ann", "Eve", "Cy", "Ben"],
                    "roles": roles("Dee", "Ann", "Eve", "Cy", "Ben"),
                    "dealer": "Ben",
                    "tribute_due": due("Ben", "Dee", "Cy", "Ann"),
                },
            ),
            step(
                {"tribute": TAX, "finish_order": P5},
                deltas=below(*P5),
                result={"ranks_before": ["Dee", "Ann", "Eve", "Cy", "Ben"]},
            ),
        ],
        "totals": {"Ann": 7, "Ben": 3, "Cy": 3, "Dee": 5, "Eve": 2},
    },
    "gp_may_choose_plain off: the Greater Peasant's revolution is greater": {
        "players": P5,
        "rules": {"gp_may_choose_plain": False},
        "rounds": [
            step(
                {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": P5},
                error="revolution_kind_not_allowed",
            ),
            step(
                {"revolution": {"player": "Ben", "kind": "plain"}, "finish_order": P5},
                deltas=below(*P5),
            ),
        ],
    },
    "greater_revolution off: the Greater Peasant's revolution is plain": {
        "players": P5,
        "rules": {"greater_revolution": False},
        "rounds": [
            step(
                {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": P5},
                error="revolution_kind_not_allowed",
            ),
            step(
                {"revolution": {"player": "Eve", "kind": "plain"}, "finish_order": P5},
                deltas=below(*P5),
                result={"revolution": "plain", "ranks_during": list(P5)},
            ),
        ],
    },
    "the Lesser Peasant's revolution reverses all but the Greater Peasant": {
        "players": SIX,
        "rules": {"lesser_peasant_revolution": True},
        "rounds": [
            step(
                {"revolution": {"player": "Cy", "kind": "greater"}, "finish_order": SIX},
                error="revolution_kind_not_allowed",
            ),
            step(
                {"revolution": {"player": "Eve", "kind": "greater"}, "finish_order": SIX},
                deltas=below(*SIX),
                result={"ranks_during": ["Eve", "Dee", "Cy", "Ben", "Ann", "Fay"]},
            ),
        ],
    },
    "a revolution needs both jesters in the hand entered": {
        "players": P5,
        "rounds": [
            step(
                {
                    "revolution": {"player": "Eve", "kind": "greater"},
                    "hands": {"Eve": EVE},
                    "finish_order": P5,
                },
                error="revolution_without_jesters",
            ),
            step(
                {
                    "revolution": {"player": "Dee", "kind": "plain"},
                    "hands": {"Dee": DEE},
                    "finish_order": P5,
                },
                error="revolution_without_jesters",
            ),
        ],
    },
    "tax off: a tribute is refused and none is due": {
        "players": FOUR,
        "rules": {"tax": False},
        "state": {"tribute_due": [], "hands_played": 1},
        "rounds": [
            step({"tribute": TAX, "finish_order": FOUR}, error="tribute_not_allowed"),
            step({"finish_order": FOUR}, deltas=below(*FOUR)),
        ],
    },
    "tax_first_hand off: no tax in the first hand, due from the second": {
        "players": FOUR,
        "rules": {"tax_first_hand": False},
        "state": {"tribute_due": due("Dee", "Ann", "Cy", "Ben"), "hands_played": 2},
        "rounds": [
            step({"tribute": TAX, "finish_order": FOUR}, error="tribute_not_allowed"),
            step(
                {"finish_order": FOUR[::-1]},
                deltas=below(*FOUR[::-1]),
                state={"tribute_due": due("Ann", "Dee", "Ben", "Cy")},
            ),
            step({"finish_order": FOUR}, error="tribute_required"),
            step({"tribute": TAX, "finish_order": FOUR}, deltas=below(*FOUR)),
        ],
    },
    "sequential timing: a Dalmuti may give back a card received in tribute": {
        "players": P5,
        "rules": {"tax_timing": "sequential"},
        "rounds": [
            step(
                {
                    "tribute": {
                        "greater_peasant": [2, 4],
                        "greater_dalmuti": [4, 12],
                        "lesser_peasant": [3],
                        "lesser_dalmuti": [3],
                    },
                    "hands": {"Ann": ANN, "Dee": DEE, "Eve": EVE},
                    "finish_order": P5,
                },
                deltas=below(*P5),
            )
        ],
    },
    "simultaneous timing: a Dalmuti gives from the hand as dealt": {
        "players": P5,
        "rounds": [
            step(
                {
                    "tribute": {
                        "greater_peasant": [2, 4],
                        "greater_dalmuti": [4, 12],
                        "lesser_peasant": [3],
                        "lesser_dalmuti": [12],
                    },
                    "hands": {"Ann": ANN, "Dee": DEE, "Eve": EVE},
                    "finish_order": P5,
                },
                error="card_not_in_hand",
            ),
        ],
    },
    "tax and finish-order refusals, then a good hand": {
        "players": P5,
        "state": {"hands_played": 1, "hands_total": None},
        "rounds": [
            dry(
                {"tribute": {**TAX, "lesser_peasant": [5]}, "hands": {"Dee": DEE}},
                error="tribute_not_best",
            ),
            dry(
                {"tribute": {**TAX, "greater_peasant": [4, 4]}, "hands": {"Eve": EVE}},
                error="tribute_not_best",
            ),
            dry(
                {"tribute": {**TAX, "greater_peasant": [2, 3]}, "hands": {"Eve": EVE}},
                error="card_not_in_hand",
            ),
            dry({"tribute": {**TAX, "greater_dalmuti": [12, "J"]}}, error="jester_in_tribute"),
            dry({"tribute": {**TAX, "lesser_dalmuti": [13]}}, error="invalid_rank"),
            dry({"tribute": {**TAX, "lesser_dalmuti": [11, 12]}}, error="wrong_tribute_count"),
            dry({"tribute": TAX, "hands": {"Ben": [12] * 15}}, error="wrong_hand_size"),
            step(
                {"tribute": {**TAX, "lesser_peasant": None}, "finish_order": P5},
                error="tribute_required",
            ),
            step({"tribute": TAX, "finish_order": P5[:4]}, error="finish_order_invalid"),
            step({"tribute": TAX, "finish_order": [*P5[:4], "Zed"]}, error="unknown_player"),
            step({"tribute": TAX, "finish_order": P5}, deltas=below(*P5)),
        ],
    },
    "players below plus one": {
        "players": P5,
        "rules": {"scoring": "players_below_plus_one"},
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": ["Cy", "Ann", "Eve", "Ben", "Dee"]},
                deltas={"Ann": 4, "Ben": 2, "Cy": 5, "Dee": 1, "Eve": 3},
            )
        ],
    },
    "rising bonus: the Dalmutis gain what their peasants rose, never less than 0": {
        "players": P5,
        "rules": {"rising_bonus": True},
        "rounds": [
            # Eve (GP) rose 5 -> 1: Ann +4; Dee (LP) rose 4 -> 3: Ben +1
            step(
                {"tribute": TAX, "finish_order": ["Eve", "Ann", "Dee", "Ben", "Cy"]},
                deltas={"Ann": 7, "Ben": 2, "Cy": 0, "Dee": 2, "Eve": 4},
            ),
            # Cy (GP) rose 5 -> 2: Eve +3; Ben (LP) fell 4 -> 5: Ann +0
            step(
                {"tribute": TAX, "finish_order": ["Eve", "Cy", "Dee", "Ann", "Ben"]},
                deltas={"Eve": 7, "Cy": 3, "Dee": 2, "Ann": 1, "Ben": 0},
            ),
        ],
    },
    "rising bonus after a greater revolution follows the ranks during the hand": {
        "players": P5,
        "rules": {"rising_bonus": True},
        "rounds": [
            # during: Eve, Dee, Cy, Ben, Ann; Ann (GP) rose 5 -> 1: Eve +4; Ben (LP) 4 -> 2: Dee +2
            step(
                {
                    "revolution": {"player": "Eve", "kind": "greater"},
                    "finish_order": ["Ann", "Ben", "Eve", "Cy", "Dee"],
                },
                deltas={"Ann": 4, "Ben": 3, "Cy": 1, "Dee": 2, "Eve": 6},
            )
        ],
    },
    "hands_to_play ends the session; the highest totals share the win": {
        "players": FOUR,
        "rules": {"hands_to_play": 2},
        "rounds": [
            step(
                {"tribute": TAX, "finish_order": FOUR}, state={"hands_played": 1, "hands_total": 2}
            ),
            step(
                {"tribute": TAX, "finish_order": FOUR[::-1]},
                deltas=below(*FOUR[::-1]),
                state={"hands_played": 2, "hands_left": 0},
            ),
        ],
        "totals": dict.fromkeys(FOUR, 3),
        "over": True,
        "winners": list(FOUR),
    },
}


def subset(expected, actual) -> bool:
    """Return True if expected is contained in actual (objects by key, anything else equal)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and subset(value, actual[key]) for key, value in expected.items()
        )
    return expected == actual


@pytest.mark.parametrize("name", list(TABLE_CASES))
def test_worked_table_case(name):
    case = TABLE_CASES[name]
    rules = GAME.resolve_rules(case.get("rules", {}))
    GAME.check_players(case["players"], rules)
    seats, state = GAME.start(case["players"], rules, case.get("setup", {}))
    assert seats == tuple(case["players"])
    table = Table(seats, rules)
    totals = dict.fromkeys(seats, 0)
    assert subset(case.get("start", {}), GAME.public_state(table, state, totals))
    for number, played in enumerate(case["rounds"], 1):
        partial = played.get("dry_run", False)
        if "error" in played:
            refused(played["error"], hand, table, state, played["body"], partial)
            continue
        outcome = hand(table, state, played["body"], partial)
        result = outcome.result
        assert set(result.get("deltas", seats)) == set(seats), number
        if "deltas" in played:
            assert result["deltas"] == played["deltas"], (number, result)
        assert subset(played.get("result", {}), result), (number, result)
        if not partial:
            state = outcome.state
            totals = {name: totals[name] + result["deltas"][name] for name in seats}
        public = GAME.public_state(table, state, totals)
        assert subset(played.get("state", {}), public), (number, public)
    assert subset(case.get("state", {}), GAME.public_state(table, state, totals))
    assert subset(case.get("totals", {}), totals), totals
    assert GAME.is_over(table, state, totals) is case.get("over", False)
    if "winners" in case:
        assert sorted(leaders(totals)) == sorted(case["winners"])


@pytest.mark.parametrize(
    ("players", "rules", "setup", "code"),
    [
        (NAMES[:3], {}, {}, "bad_player_count"),
        (NINE, {}, {}, "bad_player_count"),
        ([*TEN, "Kit"], {"allow_any_count": True}, {}, "bad_player_count"),
        (FOUR, {}, {"initial_draw": {"Ann": "J", "Ben": "j", "Cy": 2, "Dee": 11}}, "draw_tie"),
        (FOUR, {}, {"initial_draw": {"Ann": 13, "Ben": 5, "Cy": 2, "Dee": 4}}, "invalid_rank"),
        (FOUR, {}, {"initial_draw": {"Ann": 1, "Ben": 5, "Cy": 2, "Zed": 4}}, "unknown_player"),
        (FOUR, {"scoring": "points"}, {}, "invalid_rules"),
        (FOUR, {"removed_ranks": [0]}, {}, "invalid_rules"),
    ],
)
def test_worked_refused_tables(players, rules, setup, code):
    def open_table():
        resolved = GAME.resolve_rules(rules)
        GAME.check_players(players, resolved)
        GAME.start(players, resolved, setup)

    refused(code, open_table)
