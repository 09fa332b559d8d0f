"""Worked cases from the rules audit: (rules, rounds) with the state threaded."""

from __future__ import annotations

import pytest

from refapp.games.errors import Refusal

from .support import GAME, deltas, fresh, hand, passes, table, violation


def ok(raw, moves=None, result=None, state=None, dry_run=False) -> dict:
    """Return an audit step that scores: deltas, a subset of the result and of the state."""
    return {"raw": raw, "deltas": moves, "result": result or {}, "state": state or {},
            "dry_run": dry_run}  # fmt: skip


def bad(raw, code, dry_run=False) -> dict:
    """Return an audit step refused with this error code (the state is unchanged)."""
    return {"raw": raw, "error": code, "dry_run": dry_run}


def bid(player, count, trump) -> dict:
    return {"player": player, "bid": count, "trump": trump}


def won_by_ann(count, trump) -> list[dict]:
    """Return an auction Ann wins with (count, trump), everyone else passing."""
    return [bid("Ann", count, trump), *passes("Ben", "Cy", "Dee", "Eve")]


def contract_only(count, trump, boss="Ann") -> dict:
    return {"contract": {"boss": boss, "bid": count, "trump": trump}}


ZERO = deltas(0, 0, 0, 0, 0)


PLAIN = ["S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "H2", "H3"]


ONE_TEN = ["D10", *PLAIN[:9]]


SPECIAL = {"S": "DA", "H": "SA", "D": "SA", "C": "SA", "NT": "SA"}


CALL = {"S": "C3", "H": "C3", "D": "C3", "C": "S3", "NT": "C3"}


AUDIT_CASES = [
    pytest.param({"win_formula": "taken_minus_10"}, [
        ok(hand(15, "S", 0, joker_holder="kitty"), deltas(80, 40, -40, -40, -40),
           {"base": 10, "m": 40, "multipliers": ["run", "no_joker"]}),
        ok(hand(15, "S", 2), deltas(16, 8, -8, -8, -8), {"base": 8, "m": 8}),
    ], id="MA-01 taken_minus_10: m = n - 10, then the run and no joker double"),
    pytest.param({"win_formula": "pagat"}, [
        ok(hand(16, "NT", 1), deltas(36, 18, -18, -18, -18),
           {"base": 9, "m": 18, "multipliers": ["no_trump"]}),
        ok(hand(13, "H", 6), deltas(2, 1, -1, -1, -1), {"base": 1, "m": 1}),
        ok(hand(13, "H", 7), deltas(2, 1, -1, -1, -1), {"outcome": "critic", "m": 1}),
    ], id="MA-02 pagat: 2(B-13) + (n-B); a critic still gives 1"),
    pytest.param({"lose_formula": "shortfall"}, [
        ok(hand(17, "H", 6), deltas(-6, -3, 3, 3, 3), {"m": 3, "multipliers": []}),
        ok(hand(17, "H", 6, friend={"none": True}), deltas(-12, 3, 3, 3, 3), {"m": 3}),
    ], id="MA-03 lose shortfall, with a friend and with none"),
    pytest.param({"run": "none"}, [
        ok(hand(14, "NT", 0, friend={"none": True}), deltas(64, -16, -16, -16, -16),
           {"m": 16, "multipliers": ["no_trump", "no_friend"], "ruling_points": 20}),
    ], id="MA-04 run none: no-trump and no friend still double"),
    pytest.param({"run": "fixed_20"}, [
        ok(hand(20, "NT", 0), deltas(160, 80, -80, -80, -80),
           {"m": 80, "multipliers": ["run", "declared_run", "no_trump"]}),
    ], id="MA-05 run fixed_20 sets 20, then declared run and no-trump double"),
    pytest.param({"declared_run_double": False}, [
        ok(hand(20, "H", 0, mighty_holder="kitty"), deltas(80, 40, -40, -40, -40),
           {"m": 40, "multipliers": ["run", "no_mighty"]}),
    ], id="MA-06 declared_run_double false"),
    pytest.param({"double_no_trump": False, "double_no_mighty": False, "double_no_joker": False,
                  "double_no_friend": False}, [
        ok(hand(20, "NT", 0, friend={"none": True}, mighty_holder="kitty", joker_holder="kitty"),
           deltas(160, -40, -40, -40, -40), {"m": 40, "multipliers": ["run", "declared_run"]}),
    ], id="MA-07 every double_* option off"),
    pytest.param({"no_card_means": "buried_only"}, [
        ok(hand(15, "H", 3, mighty_holder="opposition", joker_holder="kitty"),
           deltas(20, 10, -10, -10, -10), {"m": 10, "multipliers": ["no_joker"]}),
    ], id="MA-08 buried_only: only the card in the kitty doubles"),
    pytest.param({"back_run": "double"}, [
        ok(hand(15, "D", 15), deltas(-80, -40, 40, 40, 40), {"back_run": True, "m": 40}),
        ok(hand(15, "D", 14), deltas(-36, -18, 18, 18, 18), {"back_run": False, "m": 18}),
    ], id="MA-09 back-run boundary under back_run double"),
    pytest.param({"back_run": "seed_penalty"}, [
        ok(hand(16, "S", 16, friend={"card": "SK", "player": "Ann"}),
           deltas(-160, 24, 24, 24, 24), {"back_run": True, "m": 24}),
        ok(hand(16, "S", 15, friend={"card": "SK", "player": "Cy"}),
           deltas(-44, 22, -22, 22, 22), {"back_run": False, "m": 22}),
    ], id="MA-10 seed_penalty with a self friend; one short of a back-run"),
    pytest.param({}, [
        ok(hand(16, "NT", 4, friend={"none": True}, mighty_holder="kitty"),
           deltas(4, -1, -1, -1, -1), {"outcome": "critic", "m": 1, "multipliers": []}),
    ], id="MA-11 critic: m = 1 with no multipliers, boss alone takes 4"),
    pytest.param({"friend_types": ["card", "none", "first_trick"]}, [
        ok(hand(14, "D", 4, friend={"first_trick": "Cy"}), deltas(8, -4, 4, -4, -4),
           state={"next_dealer": "Cy"}),
        ok(hand(14, "D", 4, friend={"first_trick": "Ann"}), deltas(16, -4, -4, -4, -4),
           {"multipliers": []}, state={"next_dealer": "Ann"}),
        bad(hand(14, "D", 4, friend={"first_trick": "Ann"}, mighty_holder="friend"),
            "holder_conflict"),
        bad(hand(14, "D", 4, friend={"first_trick": "Zed"}), "unknown_player"),
    ], id="MA-12 first_trick friend; the boss winning trick 1 is a self friend"),
    pytest.param({"friend_types": ["card"]}, [
        bad(hand(14, "D", 4, friend={"none": True}), "friend_type_not_allowed"),
        bad(hand(14, "D", 4, friend={"first_trick": "Ben"}), "friend_type_not_allowed"),
        ok(hand(14, "D", 4), deltas(8, 4, -4, -4, -4)),
    ], id="MA-13 friend_type_not_allowed"),
    pytest.param({}, [
        bad(hand(15, "H", 3, friend={"card": "JK", "player": "Ben"}, joker_holder="kitty"),
            "holder_conflict"),
        bad(hand(15, "H", 3, friend={"none": True}, joker_holder="friend"), "holder_conflict"),
        bad(hand(15, "H", 3, friend={"card": "HA", "player": "Ann"}, mighty_holder="friend"),
            "holder_conflict"),
        bad(hand(15, "H", 0, mighty_holder="opposition"), "holder_conflict"),
        bad(hand(15, "S", 3, friend={"card": "DA", "player": "Ben"}, mighty_holder="opposition"),
            "holder_conflict"),
        ok(hand(15, "S", 3, friend={"card": "SA", "player": "Ben"}, mighty_holder="opposition"),
           deltas(20, 10, -10, -10, -10), {"multipliers": ["no_mighty"]}),
        ok(hand(15, "H", 3, friend={"card": "SA", "player": "Ben"}, mighty_holder="friend"),
           deltas(10, 5, -5, -5, -5)),
        ok(hand(15, "H", 1, mighty_holder="opposition"), deltas(20, 10, -10, -10, -10)),
    ], id="MA-14 holder conflicts and holders that agree"),
    pytest.param({}, [
        ok({**hand(15, "H", 3), "dealer": "Eve"}, deltas(10, 5, -5, -5, -5),
           state={"next_dealer": "Ben"}),
        bad({**hand(15, "H", 3), "dealer": "Ann"}, "wrong_dealer"),
        ok({**hand(15, "H", 3, boss="Cy", friend={"none": True}), "dealer": "Ben"},
           deltas(-10, -10, 40, -10, -10), state={"next_dealer": "Cy"}),
        bad({"dealer": "Ben", "misdeal": {"player": "Dee", "hand": PLAIN}}, "wrong_dealer"),
        ok({"dealer": "Cy", "misdeal": {"player": "Dee", "hand": PLAIN}}, ZERO,
           {"outcome": "misdeal"}, {"next_dealer": "Dee"}),
        bad({"dealer": "Cy", "all_pass": True}, "wrong_dealer"),
        ok({"dealer": "Dee", "all_pass": True}, ZERO, {"outcome": "all_pass"},
           {"next_dealer": "Dee", "min_bid": 13}),
        ok({"dealer": "Dee", "bidding": passes("Dee", "Eve", "Ann", "Ben", "Cy")}, ZERO,
           {"outcome": "all_pass"}, {"next_dealer": "Dee"}),
        ok({**hand(15, "H", 3, boss="Eve", friend={"card": "HA", "player": "Eve"}),
            "dealer": "Dee"}, deltas(-5, -5, -5, -5, 20), state={"next_dealer": "Eve"}),
        ok({**hand(15, "H", 3, friend={"card": "JK", "player": "Cy"}), "dealer": "Eve"},
           deltas(10, -5, 5, -5, -5), state={"next_dealer": "Cy"}),
    ], id="MA-15 dealer: friend, boss, misdeal declarer, same dealer after all pass"),
    pytest.param({"all_pass": "open_kitty"}, [
        ok({"dealer": "Ann", "all_pass": True}, ZERO, {"outcome": "all_pass"},
           {"min_bid": 15, "next_dealer": "Ann"}),
        bad({"dealer": "Ann", "bidding": [bid("Ann", 14, "S")]}, "bid_too_low", dry_run=True),
        bad(hand(14, "H", 3), "bid_too_low"),
        ok({"dealer": "Ann", "bidding": won_by_ann(15, "H"), **hand(15, "H", 3)},
           deltas(10, 5, -5, -5, -5), state={"min_bid": 13, "next_dealer": "Ben"}),
    ], id="MA-16 open_kitty: the next auction opens at min_bid + 2, then 13 again"),
    pytest.param({"all_pass": "open_kitty", "min_bid": 14}, [
        ok({"bidding": passes("Cy", "Dee", "Eve", "Ann", "Ben")}, ZERO,
           state={"min_bid": 16, "next_dealer": "Cy"}),
    ], id="MA-17 open_kitty from a log of passes, with min_bid 14"),
    pytest.param({"bid20_ends_auction": True}, [
        ok({"dealer": "Ann", "bidding": [bid("Ann", 20, "S")], **hand(20, "S", 0)},
           deltas(80, 40, -40, -40, -40), {"m": 40}),
        bad({"dealer": "Ben", "bidding": [bid("Ben", 20, "S"), bid("Cy", 20, "NT")]},
            "out_of_turn", dry_run=True),
    ], id="MA-18 bid20_ends_auction"),
    pytest.param({}, [
        ok({"dealer": "Ann", "bidding": [bid("Ann", 20, "S"), bid("Ben", 20, "NT"),
                                         *passes("Cy", "Dee", "Eve", "Ann")],
            **hand(20, "NT", 0, boss="Ben", friend={"card": "HA", "player": "Cy"})},
           deltas(-80, 160, 80, -80, -80), {"m": 80}),
        bad({"bidding": [bid("Cy", 20, "S"), bid("Dee", 20, "NT"), bid("Eve", 20, "NT")]},
            "bid_not_higher", dry_run=True),
    ], id="MA-19 by default 20 NT still beats 20 in a suit"),
    pytest.param({"pass_is_final": False}, [
        ok({"dealer": "Ann", "bidding": [bid("Ann", 13, "S"), *passes("Ben"), bid("Cy", 14, "S"),
                                         *passes("Dee", "Eve", "Ann"), bid("Ben", 15, "H"),
                                         *passes("Cy", "Dee", "Eve", "Ann")],
            **hand(15, "H", 3, boss="Ben", friend={"card": "HA", "player": "Ann"})},
           deltas(5, 10, -5, -5, -5)),
        bad({"dealer": "Ann", "bidding": [bid("Ann", 13, "S"), *passes("Ben", "Cy", "Dee"),
                                          bid("Eve", 14, "S")], **hand(14, "S", 3, boss="Eve")},
            "auction_not_finished"),
    ], id="MA-20 pass_is_final false: a passer bids again"),
    pytest.param({"no_trump_beats_same_number": False}, [
        bad({"dealer": "Ann", "bidding": [bid("Ann", 13, "S"), bid("Ben", 13, "NT")]},
            "bid_not_higher", dry_run=True),
        ok({"dealer": "Ann", "bidding": [bid("Ann", 13, "S"), bid("Ben", 14, "NT"),
                                         *passes("Cy", "Dee", "Eve", "Ann")],
            **hand(14, "NT", 4, boss="Ben", friend={"none": True})},
           deltas(-16, 64, -16, -16, -16), {"m": 16, "multipliers": ["no_trump", "no_friend"]}),
    ], id="MA-21 no_trump_beats_same_number false"),
    pytest.param({}, [
        bad({"bidding": won_by_ann(20, "H"), **contract_only(20, "NT")}, "trump_locked",
            dry_run=True),
        bad({"bidding": won_by_ann(20, "NT"), **contract_only(20, "H")}, "trump_locked",
            dry_run=True),
        ok({"bidding": won_by_ann(19, "H"), **hand(20, "S", 0)}, deltas(80, 40, -40, -40, -40)),
        ok({"bidding": won_by_ann(19, "NT"), **hand(20, "D", 0)}, deltas(80, 40, -40, -40, -40)),
    ], id="MA-22 a bid of 20 locks the trump; 19 may change it at 20"),
    pytest.param({"allow_no_trump_at_20": True}, [
        ok({"bidding": won_by_ann(20, "H"), **hand(20, "NT", 0)}, deltas(160, 80, -80, -80, -80),
           {"m": 80}),
        bad({"bidding": won_by_ann(20, "H"), **contract_only(20, "S")}, "trump_locked",
            dry_run=True),
        bad({"bidding": won_by_ann(20, "NT"), **contract_only(20, "S")}, "trump_locked",
            dry_run=True),
    ], id="MA-23 allow_no_trump_at_20 opens only suit 20 -> NT 20"),
    pytest.param({"from_no_trump_cost": 3}, [
        bad({"bidding": won_by_ann(15, "NT"), **contract_only(17, "S")},
            "trump_change_too_cheap", dry_run=True),
        ok({"bidding": won_by_ann(15, "NT"), **hand(18, "S", 1)}, deltas(16, 8, -8, -8, -8)),
        ok({"bidding": won_by_ann(18, "NT"), **hand(20, "S", 0)}, deltas(80, 40, -40, -40, -40)),
        ok({"bidding": won_by_ann(15, "H"), **hand(17, "S", 1)}, deltas(14, 7, -7, -7, -7)),
    ], id="MA-24 from_no_trump_cost 3, capped at 20"),
    pytest.param({"suit_change_cost": 3, "to_no_trump_cost": 0}, [
        ok({"bidding": won_by_ann(15, "H"), **hand(15, "NT", 4)}, deltas(20, 10, -10, -10, -10)),
        bad({"bidding": won_by_ann(15, "H"), **contract_only(17, "S")},
            "trump_change_too_cheap", dry_run=True),
        ok({"bidding": won_by_ann(15, "H"), **hand(18, "S", 1)}, deltas(16, 8, -8, -8, -8)),
        ok({"bidding": won_by_ann(18, "H"), **hand(20, "S", 0)}, deltas(80, 40, -40, -40, -40)),
        bad({"bidding": won_by_ann(15, "NT"), **contract_only(16, "S")},
            "trump_change_too_cheap", dry_run=True),
    ], id="MA-25 suit_change_cost 3 and to_no_trump_cost 0"),
    pytest.param({"to_no_trump_cost": 2}, [
        bad({"bidding": won_by_ann(19, "H"), **contract_only(20, "NT")},
            "trump_change_too_cheap", dry_run=True),
        ok({"bidding": won_by_ann(18, "H"), **hand(20, "NT", 0)}, deltas(160, 80, -80, -80, -80)),
    ], id="MA-26 to_no_trump_cost 2: the NT price is not capped at 20"),
    pytest.param({"suit_change_cost": 0, "from_no_trump_cost": 0}, [
        bad({"bidding": won_by_ann(15, "H"), **contract_only(15, "S")},
            "trump_change_too_cheap", dry_run=True),
        bad({"bidding": won_by_ann(15, "NT"), **contract_only(15, "S")},
            "trump_change_too_cheap", dry_run=True),
        ok({"bidding": won_by_ann(15, "H"), **hand(16, "S", 2)}, deltas(12, 6, -6, -6, -6)),
    ], id="MA-27 a suit change always needs a raise (c1 > c0)"),
    pytest.param({"alt_mighty": "CA", "alt_joker_call": "H3"}, [
        ok({"dealer": "Ann"}, ZERO, dry_run=True,
           state={"mighty_card": {**SPECIAL, "S": "CA"}, "joker_call_card": {**CALL, "C": "H3"}}),
        bad(hand(15, "S", 3, friend={"card": "CA", "player": "Ben"}, mighty_holder="kitty"),
            "holder_conflict"),
        ok(hand(15, "S", 3, friend={"card": "DA", "player": "Ben"}, mighty_holder="kitty"),
           deltas(20, 10, -10, -10, -10), {"multipliers": ["no_mighty"]}),
    ], id="MA-28 alt_mighty and alt_joker_call in the state and the holder checks"),
    pytest.param({}, [
        ok({}, ZERO, dry_run=True, state={"next_dealer": None, "min_bid": 13,
                                          "mighty_card": SPECIAL, "joker_call_card": CALL}),
        bad(hand(15, "H", 3, friend={"card": "S1", "player": "Ben"}), "invalid_card"),
        bad(hand(15, "H", 21), "invalid_points"),
        bad(hand(15, "H", -1), "invalid_points"),
        bad(hand(15, "H", 2.5), "invalid_points"),
        bad({**contract_only(15, "H"), "friend": {"none": True}}, "missing_field"),
        bad(hand(15, "X", 3), "invalid_value"),
        bad(hand(15, "H", 3, boss="Zed"), "unknown_player"),
        bad({**hand(15, "H", 3), "dealer": "Zed"}, "unknown_player"),
        bad({"bidding": won_by_ann(15, "H"), **hand(15, "H", 3, boss="Ben")},
            "boss_not_auction_winner"),
        bad({"bidding": won_by_ann(15, "H")[:3], **hand(15, "H", 3)}, "auction_not_finished"),
        bad({"misdeal": {"player": "Cy", "hand": PLAIN[:9]}}, "invalid_hand"),
        bad({"misdeal": {"player": "Cy", "hand": [*PLAIN[:9], "Z9"]}}, "invalid_hand"),
    ], id="MA-29 the default special cards and the input errors"),
    pytest.param({"misdeal": "half_ten_strict"}, [
        bad({"misdeal": {"player": "Cy", "hand": ONE_TEN}}, "misdeal_not_allowed"),
        ok({"misdeal": {"player": "Cy", "hand": ["SA", "JK", "HK", *PLAIN[:7]]}}, ZERO,
           state={"next_dealer": "Cy"}),
    ], id="MA-30 half_ten_strict refuses 0.5 and allows 0"),
    pytest.param({"misdeal": "half_ten"}, [
        ok({"misdeal": {"player": "Cy", "hand": ONE_TEN}}, ZERO, {"hand_value": 0.5}),
        bad({"misdeal": {"player": "Cy", "hand": ["D10", "H10", *PLAIN[:8]]}},
            "misdeal_not_allowed"),
    ], id="MA-31 half_ten allows 0.5 but not two tens"),
    pytest.param({}, [
        bad({"misdeal": {"player": "Cy", "hand": ONE_TEN}}, "misdeal_not_allowed"),
        ok({"misdeal": {"player": "Cy", "hand": ["SA", "JK", "D10", *PLAIN[:7]]}}, ZERO),
    ], id="MA-32 point_cards: a ten counts 1, SA 0, the joker -1"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "rounds"), AUDIT_CASES)
def test_audit_case(rules, rounds):
    """Each step scores (or is refused) as the rules say; refused steps change nothing."""
    tab = table(**rules)
    state = fresh(tab)
    for step in rounds:
        if "error" in step:
            error = violation(step["raw"], tab, state, partial=step["dry_run"])
            assert error.code == step["error"], error.message
            continue
        out = GAME.play(tab, state, step["raw"], partial=step["dry_run"])
        if step["deltas"] is not None:
            assert out.result["deltas"] == step["deltas"]
        assert {key: out.result[key] for key in step["result"]} == step["result"]
        if not step["dry_run"]:
            state = out.state
        shown = GAME.public_state(tab, state, {})
        assert {key: shown[key] for key in step["state"]} == step["state"]


@pytest.mark.parametrize(
    "overrides",
    [{"win_formula": "double"}, {"friend_types": "card"}, {"friend_types": ["card", "card"]},
     {"to_no_trump_cost": "1"}, {"declared_run_double": "yes"}, {"alt_joker_call": "D3"},
     {"run": None}, {"misdeal": "never"}, {"all_pass": "again"}, {"no_card_means": "kitty"},
     {"back_run": "triple"}, {"lose_formula": "double"}, {"min_bid": "13"}],
)  # fmt: skip
def test_audit_bad_option_values(overrides):
    with pytest.raises(Refusal) as caught:
        GAME.resolve_rules(overrides)
    assert caught.value.code == "invalid_rules"
    assert caught.value.field == f"rules.{next(iter(overrides))}"
