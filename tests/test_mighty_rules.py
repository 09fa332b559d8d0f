"""Pure tests of the Mighty rules: cards, auction, contract changes, friend, score and state."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from refapp.games.base import RuleViolation, Table
from refapp.games.mighty import (
    DECK,
    HOLDERS,
    TRUMPS,
    Bid,
    Mighty,
    allowed_contract_changes,
    beats,
    contract_change_price,
    joker_call_card,
    lowest_next_bid,
    mighty_card,
    misdeal_value,
    parse_card,
    parse_trump,
    run_auction,
)

PLAYERS = ("Ann", "Ben", "Cy", "Dee", "Eve")
GAME = Mighty()


def table(**overrides) -> Table:
    """Return a five-player table with the given house rules."""
    return Table(PLAYERS, GAME.resolve_rules(overrides))


def fresh(tab: Table) -> dict:
    """Return the state before the first hand."""
    return GAME.start(tab.players, tab.rules, {})[1]


def play(raw, tab: Table | None = None, state: dict | None = None, partial: bool = False):
    """Play one round on a fresh (or given) table and state."""
    tab = tab or table()
    return GAME.play(tab, fresh(tab) if state is None else state, raw, partial=partial)


def violation(raw, tab: Table | None = None, state: dict | None = None, partial=False):
    """Return the RuleViolation a round raises."""
    with pytest.raises(RuleViolation) as caught:
        play(raw, tab, state, partial)
    return caught.value


def hand(bid=15, trump="H", points=3, boss="Ann", friend=None, **extra) -> dict:
    """Return a played hand's input with a friend card HA held by Ben unless told."""
    raw = {
        "contract": {"boss": boss, "bid": bid, "trump": trump},
        "friend": friend if friend is not None else {"card": "HA", "player": "Ben"},
        "opposition_points": points,
    }
    raw.update(extra)
    return raw


def passes(*players: str) -> list[dict]:
    return [{"player": p, "pass": True} for p in players]


def deltas(*values: int) -> dict[str, int]:
    return dict(zip(PLAYERS, values, strict=True))


# -- cards and special cards ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [("SA", "SA"), ("h10", "H10"), (" d3 ", "D3"), ("jk", "JK"), ("Joker", "JK"), ("♠A", "SA"),
     ("CT", "C10")],
)  # fmt: skip
def test_parse_card_canonical(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "S1", "X5", "S11", "JJ", 10, None, "H 1 0 0"])
def test_parse_card_refuses(text):
    with pytest.raises(RuleViolation) as caught:
        parse_card(text, "friend.card")
    assert caught.value.code == "invalid_card"
    assert caught.value.field == "friend.card"


def test_parse_trump():
    assert [parse_trump(t) for t in ("s", "H", " d", "C", "nt")] == ["S", "H", "D", "C", "NT"]
    with pytest.raises(RuleViolation) as caught:
        parse_trump("X", "contract.trump")
    assert caught.value.code == "invalid_value"
    assert "'X'" in caught.value.message


def test_deck_has_53_cards():
    assert len(set(DECK)) == 53


def test_mighty_and_joker_call_by_trump():
    rules = GAME.resolve_rules({})
    assert [mighty_card(t, rules) for t in TRUMPS] == ["DA", "SA", "SA", "SA", "SA"]
    assert [joker_call_card(t, rules) for t in TRUMPS] == ["C3", "C3", "C3", "S3", "C3"]
    other = GAME.resolve_rules({"alt_mighty": "CA", "alt_joker_call": "H3"})
    assert mighty_card("S", other) == "CA"
    assert joker_call_card("C", other) == "H3"


# -- session set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 6])
def test_five_players_only(count):
    with pytest.raises(RuleViolation) as caught:
        GAME.check_players([f"P{i}" for i in range(count)], GAME.resolve_rules({}))
    assert caught.value.code == "bad_player_count"


def test_defaults_follow_the_seed():
    rules = GAME.resolve_rules({})
    assert rules["min_bid"] == 13
    assert rules["friend_types"] == ["card", "none"]
    assert rules["misdeal"] == "point_cards"
    assert rules["critic"] == "ruling_plus_one"
    assert rules["back_run"] == "flag"


@pytest.mark.parametrize(
    "overrides",
    [{"critic": "maybe"}, {"friend_types": []}, {"friend_types": ["self"]}, {"min_bid": 21},
     {"unknown": 1}],
)  # fmt: skip
def test_bad_house_rules(overrides):
    with pytest.raises(RuleViolation) as caught:
        GAME.resolve_rules(overrides)
    assert caught.value.code == "invalid_rules"


def test_public_state_before_the_first_hand():
    tab = table()
    shown = GAME.public_state(tab, fresh(tab), dict.fromkeys(PLAYERS, 0))
    assert shown["next_dealer"] is None
    assert shown["dealer_free"] is True
    assert shown["min_bid"] == 13
    assert shown["mighty_card"] == {"S": "DA", "H": "SA", "D": "SA", "C": "SA", "NT": "SA"}
    assert shown["joker_call_card"]["C"] == "S3"
    json.dumps(shown)
    assert GAME.is_over(tab, fresh(tab), {}) is False


# -- the score -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "rules", "expected", "outcome", "m"),
    [
        (hand(15, "H", 3, friend={"card": "JK", "player": "Ben"}), {}, deltas(10, 5, -5, -5, -5),
         "ruling_win", 5),
        (hand(18, "C", 5), {}, deltas(-12, -6, 6, 6, 6), "opposition_win", 6),
        (hand(14, "D", 6), {}, deltas(2, 1, -1, -1, -1), "critic", 1),
        (hand(14, "D", 6), {"critic": "draw"}, deltas(0, 0, 0, 0, 0), "critic", 0),
        (hand(14, "D", 6), {"critic": "win"}, deltas(8, 4, -4, -4, -4), "critic", 4),
        (hand(16, "S", 0), {}, deltas(24, 12, -12, -12, -12), "ruling_win", 12),
        (hand(16, "S", 0), {"run": "fixed_20"}, deltas(40, 20, -20, -20, -20), "ruling_win", 20),
        (hand(16, "S", 0), {"run": "none"}, deltas(12, 6, -6, -6, -6), "ruling_win", 6),
        (hand(20, "H", 0), {}, deltas(80, 40, -40, -40, -40), "ruling_win", 40),
        (hand(20, "H", 0), {"declared_run_double": False}, deltas(40, 20, -20, -20, -20),
         "ruling_win", 20),
        (hand(14, "NT", 4), {}, deltas(16, 8, -8, -8, -8), "ruling_win", 8),
        (hand(14, "NT", 4), {"double_no_trump": False}, deltas(8, 4, -4, -4, -4), "ruling_win", 4),
        (hand(15, "D", 4, mighty_holder="kitty"), {}, deltas(20, 10, -10, -10, -10),
         "ruling_win", 10),
        (hand(15, "D", 3, mighty_holder="opposition"), {"no_card_means": "buried_only"},
         deltas(10, 5, -5, -5, -5), "ruling_win", 5),
        (hand(16, "C", 3, joker_holder="opposition"), {}, deltas(24, 12, -12, -12, -12),
         "ruling_win", 12),
        (hand(16, "C", 3, joker_holder="kitty"), {"double_no_joker": False},
         deltas(12, 6, -6, -6, -6), "ruling_win", 6),
        (hand(17, "S", 2, friend={"none": True}), {}, deltas(56, -14, -14, -14, -14),
         "ruling_win", 14),
        (hand(17, "S", 2, friend={"none": True}), {"double_no_friend": False},
         deltas(28, -7, -7, -7, -7), "ruling_win", 7),
        (hand(15, "H", 4, friend={"card": "HA", "player": "Ann"}), {}, deltas(20, -5, -5, -5, -5),
         "ruling_win", 5),
        (hand(15, "H", 8, friend={"none": True}), {}, deltas(-24, 6, 6, 6, 6), "opposition_win", 6),
        (hand(14, "S", 15), {}, deltas(-36, -18, 18, 18, 18), "opposition_win", 18),
        (hand(14, "S", 15), {"back_run": "double"}, deltas(-72, -36, 36, 36, 36),
         "opposition_win", 36),
        (hand(14, "S", 15), {"back_run": "seed_penalty"}, deltas(-140, -14, 18, 18, 18),
         "opposition_win", 18),
        (hand(14, "S", 15, friend={"none": True}), {"back_run": "seed_penalty"},
         deltas(-140, 18, 18, 18, 18), "opposition_win", 18),
        (hand(18, "C", 5), {"lose_formula": "shortfall"}, deltas(-6, -3, 3, 3, 3),
         "opposition_win", 3),
        (hand(15, "H", 2), {"win_formula": "taken_minus_10"}, deltas(16, 8, -8, -8, -8),
         "ruling_win", 8),
        (hand(15, "H", 2), {"win_formula": "pagat"}, deltas(14, 7, -7, -7, -7), "ruling_win", 7),
        (hand(16, "H", 4), {"win_formula": "pagat", "critic": "win"}, deltas(12, 6, -6, -6, -6),
         "critic", 6),
    ],
)  # fmt: skip
def test_score(raw, rules, expected, outcome, m):
    result = play(raw, table(**rules)).result
    assert result["deltas"] == expected
    assert result["outcome"] == outcome
    assert result["m"] == m
    assert result["explanation"]
    json.dumps(result)


def test_seed_example_1_result_fields():
    result = play(hand(15, "H", 3, friend={"card": "JK", "player": "Ben"})).result
    assert result["ruling_points"] == 17
    assert result["base"] == 5
    assert result["multipliers"] == []
    assert result["back_run"] is False
    assert result["explanation"][-1] == (
        "Ann (boss) +10, Ben (friend) +5, Cy, Dee and Eve (opposition) -5 each."
    )


def test_the_maximum():
    raw = hand(20, "NT", 0, friend={"none": True}, mighty_holder="kitty", joker_holder="kitty")
    result = play(raw).result
    assert result["deltas"] == deltas(2560, -640, -640, -640, -640)
    assert result["multipliers"] == [
        "run", "declared_run", "no_trump", "no_mighty", "no_joker", "no_friend",
    ]  # fmt: skip
    assert "= 640" in result["explanation"][3]


def test_explanation_shows_the_arithmetic():
    result = play(hand(15, "NT", 0, friend={"card": "HA", "player": "Ben"})).result
    assert "Base 5 = 15 - 10; x2 run; x2 no-trump = 20." in result["explanation"][3]
    assert result["deltas"] == deltas(40, 20, -20, -20, -20)


def test_back_run_boundary():
    assert play(hand(13, "H", 13)).result["back_run"] is True
    assert play(hand(13, "H", 12)).result["back_run"] is False


def test_seed_penalty_says_not_zero_sum():
    result = play(hand(14, "S", 15), table(back_run="seed_penalty")).result
    assert sum(result["deltas"].values()) != 0
    assert any("not zero-sum" in line for line in result["explanation"])


def test_first_trick_friend():
    tab = table(friend_types=["card", "first_trick"])
    friend = play(hand(15, "H", 3, friend={"first_trick": "Cy"}), tab)
    assert friend.result["deltas"] == deltas(10, -5, 5, -5, -5)
    assert friend.state["next_dealer"] == "Cy"
    alone = play(hand(15, "H", 3, friend={"first_trick": "Ann"}), tab)
    assert alone.result["deltas"] == deltas(20, -5, -5, -5, -5)
    assert alone.result["multipliers"] == []


def test_stored_input_is_normalised():
    raw = hand(15, "nt", 3, friend={"card": "jk", "player": " Ben "}, mighty_holder="Boss")
    stored = play(raw).input
    assert stored["contract"] == {"boss": "Ann", "bid": 15, "trump": "NT"}
    assert stored["friend"] == {"card": "JK", "player": "Ben"}
    assert stored["mighty_holder"] == "boss"


# -- score input errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ({"friend": {"none": True}, "opposition_points": 3}, "missing_field", "contract"),
        (hand(friend={}), "invalid_value", "friend"),
        ({"contract": {"boss": "Ann", "bid": 15}, "friend": {"none": True},
          "opposition_points": 3}, "missing_field", "contract.trump"),
        (hand(boss="Zed"), "unknown_player", "contract.boss"),
        (hand(friend={"card": "HA", "player": "Zed"}), "unknown_player", "friend.player"),
        (hand(friend={"card": "HA"}), "missing_field", "friend.player"),
        (hand(friend={"player": "Ben"}), "missing_field", "friend.card"),
        (hand(friend={"card": "H1", "player": "Ben"}), "invalid_card", "friend.card"),
        (hand(friend={"first_trick": "Ben"}), "friend_type_not_allowed", "friend.first_trick"),
        (hand(friend={"none": False}), "invalid_value", "friend.none"),
        (hand(friend={"none": True, "card": "HA", "player": "Ben"}), "invalid_value", "friend"),
        (hand(points=21), "invalid_points", "opposition_points"),
        (hand(points=-1), "invalid_points", "opposition_points"),
        (hand(points="many"), "invalid_points", "opposition_points"),
        (hand(points=2.5), "invalid_points", "opposition_points"),
        (hand(bid=12), "bid_too_low", "contract.bid"),
        (hand(bid=21), "bid_too_high", "contract.bid"),
        (hand(bid="fifteen"), "invalid_value", "contract.bid"),
        (hand(trump="X"), "invalid_value", "contract.trump"),
        (hand(mighty_holder="dog"), "invalid_value", "mighty_holder"),
        (hand(friend={"none": True}, mighty_holder="friend"), "holder_conflict", "mighty_holder"),
        (hand(friend={"card": "HA", "player": "Ann"}, joker_holder="friend"), "holder_conflict",
         "joker_holder"),
        (hand(friend={"card": "SA", "player": "Ben"}, mighty_holder="kitty"), "holder_conflict",
         "mighty_holder"),
        (hand(friend={"card": "JK", "player": "Ben"}, joker_holder="opposition"),
         "holder_conflict", "joker_holder"),
        (hand(friend={"card": "SA", "player": "Ann"}, mighty_holder="opposition"),
         "holder_conflict", "mighty_holder"),
        (hand(points=0, mighty_holder="opposition"), "holder_conflict", "opposition_points"),
        ("not an object", "invalid_value", "round"),
    ],
)  # fmt: skip
def test_hand_errors(raw, code, field):
    error = violation(raw)
    assert (error.code, error.field) == (code, field)
    assert error.message


def test_friend_card_holders_that_agree():
    ok = hand(15, "S", 3, friend={"card": "DA", "player": "Ben"}, mighty_holder="friend")
    assert play(ok).result["outcome"] == "ruling_win"
    # with spades trump SA is an ordinary card, so nothing follows from naming it
    plain = hand(15, "S", 3, friend={"card": "SA", "player": "Ben"}, mighty_holder="boss")
    assert play(plain).result["multipliers"] == []
    buried = hand(15, "H", 3, friend={"card": "SA", "player": "Ann"}, mighty_holder="kitty")
    assert play(buried).result["multipliers"] == ["no_mighty"]


def test_error_message_quotes_the_value():
    error = violation(hand(friend={"card": "Q9", "player": "Ben"}))
    assert "'Q9'" in error.message
    assert error.as_dict()["code"] == "invalid_card"


# -- misdeal -------------------------------------------------------------------------------------

LOW = ["SA", "JK", "H10", "C2", "D3", "D4", "H5", "C6", "S7", "D8"]
ONE = ["HK", "D10", "JK", "C2", "C4", "D5", "H6", "S7", "S8", "D9"]


def test_misdeal_value_counts():
    assert misdeal_value(LOW, "point_cards") == 0
    assert misdeal_value(ONE, "point_cards") == 1
    assert misdeal_value(ONE, "half_ten") == 0.5
    assert misdeal_value(["H10", "D10", "C10"], "half_ten") == 1.5


def test_misdeal_round():
    out = play({"misdeal": {"player": "Cy", "hand": [c.lower() for c in LOW]}})
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.result["outcome"] == "misdeal"
    assert out.input["misdeal"]["hand"] == LOW
    assert out.state["next_dealer"] == "Cy"


@pytest.mark.parametrize(
    ("rules", "cards", "allowed"),
    [
        ({}, ONE, False),
        ({"misdeal": "half_ten"}, ONE, True),
        ({"misdeal": "half_ten_strict"}, ONE, False),
        ({"misdeal": "half_ten_strict"}, ["H10", "JK", "C9", *LOW[3:]], True),
        ({"misdeal": "off"}, LOW, False),
    ],
)
def test_misdeal_limits(rules, cards, allowed):
    raw = {"misdeal": {"player": "Cy", "hand": cards}}
    if allowed:
        assert play(raw, table(**rules)).result["outcome"] == "misdeal"
    else:
        assert violation(raw, table(**rules)).code == "misdeal_not_allowed"


@pytest.mark.parametrize(
    ("cards", "field"),
    [(LOW[:9], "misdeal.hand"), ([*LOW[:9], "SA"], "misdeal.hand.10"),
     ([*LOW[:9], "ZZ"], "misdeal.hand.10")],
)  # fmt: skip
def test_misdeal_bad_hand(cards, field):
    error = violation({"misdeal": {"player": "Cy", "hand": cards}})
    assert (error.code, error.field) == ("invalid_hand", field)


def test_misdeal_mixed_with_a_hand():
    raw = {"misdeal": {"player": "Cy", "hand": LOW}, "opposition_points": 3}
    assert violation(raw).code == "invalid_value"


# -- the auction ---------------------------------------------------------------------------------


def test_beats_and_lowest_next_bid():
    rules = GAME.resolve_rules({})
    assert beats(Bid(13, "NT"), Bid(13, "S"), rules)
    assert not beats(Bid(13, "H"), Bid(13, "S"), rules)
    assert not beats(Bid(13, "NT"), Bid(13, "NT"), rules)
    assert beats(Bid(14, "S"), Bid(13, "NT"), rules)
    assert lowest_next_bid(None, rules) == (13, TRUMPS)
    assert lowest_next_bid(Bid(14, "D"), rules) == (14, ("NT",))
    assert lowest_next_bid(Bid(14, "NT"), rules) == (15, TRUMPS)
    assert lowest_next_bid(Bid(20, "NT"), rules) is None
    plain = GAME.resolve_rules({"no_trump_beats_same_number": False})
    assert not beats(Bid(13, "NT"), Bid(13, "S"), plain)
    assert lowest_next_bid(Bid(14, "D"), plain) == (15, TRUMPS)


def test_auction_incrementally():
    tab = table()
    log = [{"player": "Ben", "bid": 13, "trump": "S"}]
    auction = run_auction(tab, log, dealer="Ben")
    assert (auction.next_bidder, auction.lowest_next) == ("Cy", (13, ("NT",)))
    log += [*passes("Cy", "Dee"), {"player": "Eve", "bid": 14, "trump": "h"}]
    auction = run_auction(tab, log, dealer="Ben")
    assert auction.next_bidder == "Ann"
    assert auction.highest == Bid(14, "H")
    log += passes("Ann", "Ben")
    auction = run_auction(tab, log, dealer="Ben")
    assert auction.finished and auction.winner == "Eve"
    assert auction.next_bidder is None
    assert auction.entries[3] == {"player": "Eve", "bid": 14, "trump": "H"}


def test_auction_skips_players_who_passed():
    tab = table()
    log = [*passes("Ann", "Ben"), {"player": "Cy", "bid": 13, "trump": "D"}]
    log += [{"player": "Dee", "bid": 14, "trump": "D"}, *passes("Eve")]
    assert run_auction(tab, log).next_bidder == "Cy"


def test_auction_starts_with_the_first_entry_without_a_dealer():
    assert run_auction(table(), passes("Cy")).next_bidder == "Dee"
    assert run_auction(table(), []).next_bidder is None
    assert run_auction(table(), [], dealer="Eve").next_bidder == "Eve"


def test_pass_not_final():
    tab = table(pass_is_final=False)
    log = [{"player": "Ann", "bid": 13, "trump": "S"}, *passes("Ben")]
    log += [{"player": "Cy", "bid": 14, "trump": "S"}, *passes("Dee", "Eve", "Ann")]
    log += [{"player": "Ben", "bid": 15, "trump": "H"}]
    auction = run_auction(tab, log)
    assert auction.next_bidder == "Cy" and not auction.finished
    auction = run_auction(tab, [*log, *passes("Cy", "Dee", "Eve", "Ann")])
    assert auction.winner == "Ben"


def test_bid_of_20_ends_the_auction_when_the_rule_says_so():
    log = [{"player": "Ann", "bid": 20, "trump": "S"}]
    assert run_auction(table(bid20_ends_auction=True), log).winner == "Ann"
    open_auction = run_auction(table(), log)
    assert not open_auction.finished
    assert open_auction.lowest_next == (20, ("NT",))
    late = [*log, {"player": "Ben", "bid": 20, "trump": "NT"}]
    with pytest.raises(RuleViolation) as caught:
        run_auction(table(bid20_ends_auction=True), late)
    assert caught.value.code == "out_of_turn"


@pytest.mark.parametrize(
    ("log", "code", "field"),
    [
        ([{"player": "Ben", "bid": 13, "trump": "S"}, {"player": "Cy", "bid": 13, "trump": "NT"},
          {"player": "Dee", "bid": 13, "trump": "H"}], "bid_not_higher", "bidding.3.bid"),
        ([{"player": "Ben", "bid": 14, "trump": "S"}, {"player": "Cy", "bid": 14, "trump": "H"}],
         "bid_not_higher", "bidding.2.bid"),
        ([{"player": "Ben", "bid": 12, "trump": "S"}], "bid_too_low", "bidding.1.bid"),
        ([{"player": "Ben", "bid": 21, "trump": "S"}], "bid_too_high", "bidding.1.bid"),
        ([{"player": "Cy", "bid": 13, "trump": "S"}], "out_of_turn", "bidding.1.player"),
        ([*passes("Ben"), {"player": "Cy", "bid": 14, "trump": "D"}, *passes("Dee"),
          {"player": "Eve", "bid": 15, "trump": "D"}, *passes("Ann"),
          {"player": "Ben", "bid": 16, "trump": "S"}], "bid_after_pass", "bidding.6.player"),
        ([{"player": "Ben", "bid": 13, "trump": "S"}, *passes("Cy", "Dee", "Eve", "Ann"),
          {"player": "Ben", "bid": 14, "trump": "S"}], "out_of_turn", "bidding.6.player"),
        ([{"player": "Ben", "bid": 13}], "missing_field", "bidding.1.trump"),
        ([{"player": "Ben"}], "missing_field", "bidding.1.bid"),
        ([{"bid": 13, "trump": "S"}], "missing_field", "bidding.1.player"),
        ([{"player": "Ben", "pass": True, "bid": 13, "trump": "S"}], "invalid_value", "bidding.1"),
        ([{"player": "Ben", "pass": "yes"}], "invalid_value", "bidding.1.pass"),
        ([{"player": "Zed", "pass": True}], "unknown_player", "bidding.1.player"),
        (["Ben"], "invalid_value", "bidding.1"),
    ],
)  # fmt: skip
def test_auction_errors(log, code, field):
    error = violation({"dealer": "Ben", "bidding": log}, partial=True)
    assert (error.code, error.field) == (code, field)


WON = [{"player": "Ann", "bid": 15, "trump": "H"}, *passes("Ben", "Cy", "Dee", "Eve")]


def test_dry_run_of_an_unfinished_auction():
    log = [{"player": "Ben", "bid": 14, "trump": "S"}, *passes("Cy")]
    out = play({"dealer": "Ben", "bidding": log}, partial=True)
    assert out.result["complete"] is False
    assert out.result["next_bidder"] == "Dee"
    assert out.result["min_next_bid"] == 14
    assert out.result["min_next_bid_trumps"] == ["NT"]
    assert out.result["highest_bid"] == {"player": "Ben", "bid": 14, "trump": "S"}
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.input == {"dealer": "Ben", "bidding": [log[0], log[1]]}


def test_dry_run_of_a_finished_auction_lists_contract_changes():
    out = play({"bidding": WON}, partial=True)
    assert out.result["winning_bid"] == {"player": "Ann", "bid": 15, "trump": "H"}
    assert out.result["contract_changes"] == {"S": 17, "H": 15, "D": 17, "C": 17, "NT": 16}


def test_dry_run_of_a_contract_alone():
    out = play({"contract": {"boss": "Cy", "bid": 16, "trump": "d"}}, partial=True)
    assert out.result["complete"] is False
    assert out.input == {"contract": {"boss": "Cy", "bid": 16, "trump": "D"}}


def test_dry_run_of_a_whole_hand_scores_it():
    assert play(hand(), partial=True).result["deltas"] == deltas(10, 5, -5, -5, -5)


def test_unfinished_auction_without_dry_run():
    raw = hand(15, "H", 3, bidding=WON[:3])
    assert violation(raw).code == "auction_not_finished"
    assert violation({"bidding": WON[:3], "contract": raw["contract"]}, partial=True).code == (
        "auction_not_finished"
    )


def test_boss_must_win_the_auction():
    error = violation(hand(15, "H", 3, boss="Ben", friend={"none": True}, bidding=WON))
    assert (error.code, error.field) == ("boss_not_auction_winner", "contract.boss")


def test_full_hand_with_bidding():
    log = [
        {"player": "Ben", "bid": 13, "trump": "S"}, {"player": "Cy", "bid": 13, "trump": "NT"},
        {"player": "Dee", "bid": 14, "trump": "D"}, *passes("Eve"),
        {"player": "Ann", "bid": 14, "trump": "NT"}, {"player": "Ben", "bid": 15, "trump": "S"},
        *passes("Cy", "Dee", "Ann"),
    ]  # fmt: skip
    raw = hand(15, "S", 4, boss="Ben", friend={"card": "JK", "player": "Cy"}, bidding=log)
    out = play({**raw, "dealer": "Ben"})
    assert out.result["deltas"] == {"Ann": -5, "Ben": 10, "Cy": 5, "Dee": -5, "Eve": -5}
    assert out.result["winning_bid"] == {"player": "Ben", "bid": 15, "trump": "S"}


# -- contract changes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "code"),
    [
        ((16, "S"), "trump_change_too_cheap"),
        ((14, "H"), "contract_lowered"),
        ((15, "NT"), "trump_change_too_cheap"),
        ((16, "NT"), None),
        ((17, "S"), None),
        ((18, "H"), None),
        ((15, "H"), None),
    ],
)
def test_contract_change_from_15_hearts(final, code):
    raw = hand(final[0], final[1], 1, bidding=WON)
    if code is None:
        assert play(raw).result["outcome"] == "ruling_win"
    else:
        assert violation(raw).code == code


def test_contract_change_prices():
    rules = GAME.resolve_rules({})
    assert contract_change_price(19, "H", "S", rules) == 20
    assert contract_change_price(19, "H", "NT", rules) == 20
    assert contract_change_price(15, "NT", "S", rules) == 17
    assert contract_change_price(20, "H", "S", rules) is None
    assert contract_change_price(20, "H", "NT", rules) is None
    assert contract_change_price(20, "H", "H", rules) == 20
    three = GAME.resolve_rules({"from_no_trump_cost": 3, "allow_no_trump_at_20": True})
    assert contract_change_price(15, "NT", "D", three) == 18
    assert contract_change_price(20, "H", "NT", three) == 20
    assert contract_change_price(20, "NT", "H", three) is None
    assert allowed_contract_changes(18, "NT", rules) == {
        "S": 20, "H": 20, "D": 20, "C": 20, "NT": 18,
    }  # fmt: skip


def test_trump_locked_at_20():
    bidding = [{"player": "Ann", "bid": 20, "trump": "H"}, *passes("Ben", "Cy", "Dee", "Eve")]
    error = violation(hand(20, "NT", 0, bidding=bidding))
    assert (error.code, error.field) == ("trump_locked", "contract.trump")
    allowed = play(hand(20, "NT", 0, bidding=bidding), table(allow_no_trump_at_20=True))
    assert allowed.result["outcome"] == "ruling_win"


# -- all pass, dealers and the state -------------------------------------------------------------


def test_all_pass_redeal():
    out = play({"dealer": "Cy", "all_pass": True})
    assert out.result["outcome"] == "all_pass"
    assert out.result["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert out.state["next_dealer"] == "Cy"
    assert out.state["min_bid"] == 13


def test_all_pass_by_bidding_log():
    out = play({"dealer": "Dee", "bidding": passes("Dee", "Eve", "Ann", "Ben", "Cy")})
    assert out.result["outcome"] == "all_pass"
    assert out.input["all_pass"] is True
    assert out.state["next_dealer"] == "Dee"


def test_all_pass_open_kitty_raises_the_minimum_once():
    tab = table(all_pass="open_kitty")
    state = play({"dealer": "Ann", "all_pass": True}, tab).state
    assert state["min_bid"] == 15 and state["kitty_open"] is True
    assert GAME.public_state(tab, state, {})["min_bid"] == 15
    error = violation({"dealer": "Ann", "bidding": [{"player": "Ann", "bid": 14, "trump": "S"}]},
                      tab, state, partial=True)  # fmt: skip
    assert error.code == "bid_too_low"
    assert violation(hand(14), tab, state).code == "bid_too_low"
    again = play({"all_pass": True}, tab, state).state
    assert again["min_bid"] == 13 and again["kitty_open"] is False
    after = play(hand(15), tab, state).state
    assert after["min_bid"] == 13


def test_all_pass_errors():
    assert violation({"all_pass": "yes"}).code == "invalid_value"
    assert violation({**hand(), "all_pass": True}).code == "invalid_value"
    assert violation({"all_pass": True, "bidding": WON}).code == "invalid_value"
    everyone = passes("Ann", "Ben", "Cy", "Dee", "Eve")
    assert violation({**hand(), "bidding": everyone}).code == "boss_not_auction_winner"


def test_dealer_sequence():
    tab = table()
    state = fresh(tab)
    state = GAME.play(tab, state, {**hand(), "dealer": "Eve"}).state  # first dealer is free
    assert state["next_dealer"] == "Ben"  # the friend deals next
    error = violation({**hand(), "dealer": "Ann"}, tab, state)
    assert (error.code, error.field) == ("wrong_dealer", "dealer")
    state = GAME.play(tab, state, {**hand(friend={"none": True}), "dealer": "Ben"}).state
    assert state["next_dealer"] == "Ann"  # no friend: the boss deals
    self_friend = hand(friend={"card": "HA", "player": "Ann"})
    state = GAME.play(tab, state, {**self_friend, "dealer": "Ann"}).state
    assert state["next_dealer"] == "Ann"
    state = GAME.play(tab, state, {"misdeal": {"player": "Dee", "hand": LOW}}).state
    assert state["next_dealer"] == "Dee"
    assert violation({"dealer": "Ann", "all_pass": True}, tab, state).code == "wrong_dealer"
    state = GAME.play(tab, state, {"all_pass": True}).state
    assert state["next_dealer"] == "Dee"
    assert GAME.public_state(tab, state, {})["next_dealer"] == "Dee"
    json.dumps(state)


def test_unknown_dealer():
    assert violation({**hand(), "dealer": "Zed"}).code == "unknown_player"


# -- properties ----------------------------------------------------------------------------------

RULE_CHOICES = {
    "win_formula": ["bid_minus_10", "taken_minus_10", "pagat"],
    "critic": ["ruling_plus_one", "draw", "win"],
    "lose_formula": ["twice_shortfall", "shortfall"],
    "run": ["double", "fixed_20", "none"],
    "declared_run_double": [True, False],
    "double_no_trump": [True, False],
    "double_no_mighty": [True, False],
    "double_no_joker": [True, False],
    "double_no_friend": [True, False],
    "no_card_means": ["not_held_by_ruling", "buried_only"],
    "back_run": ["flag", "double", "seed_penalty"],
}
house_rules = st.fixed_dictionaries({key: st.sampled_from(v) for key, v in RULE_CHOICES.items()})


@st.composite
def played_hands(draw):
    """Draw a played hand's input: any contract, friend, points and holders."""
    boss = draw(st.sampled_from(PLAYERS))
    kind = draw(st.sampled_from(["card", "self", "none"]))
    if kind == "none":
        friend = {"none": True}
    else:
        others = [p for p in PLAYERS if p != boss]
        player = boss if kind == "self" else draw(st.sampled_from(others))
        friend = {"card": draw(st.sampled_from(DECK)), "player": player}
    raw = hand(
        draw(st.integers(13, 20)),
        draw(st.sampled_from(TRUMPS)),
        draw(st.integers(0, 20)),
        boss=boss,
        friend=friend,
    )
    for key in ("mighty_holder", "joker_holder"):
        holder = draw(st.sampled_from([None, *HOLDERS]))
        if holder is not None:
            raw[key] = holder
    return raw


def scored(raw, rules):
    try:
        return play(raw, table(**rules)).result
    except RuleViolation as error:
        if error.code != "holder_conflict":
            raise
        reject()


@settings(max_examples=400, suppress_health_check=[HealthCheck.filter_too_much])
@given(played_hands(), house_rules)
def test_property_zero_sum_and_signs(raw, rules):
    result = scored(raw, rules)
    moves = result["deltas"]
    assert set(moves) == set(PLAYERS)
    assert all(isinstance(d, int) for d in moves.values())
    if not (result["back_run"] and rules["back_run"] == "seed_penalty"):
        assert sum(moves.values()) == 0
    boss = moves[raw["contract"]["boss"]]
    if result["outcome"] == "ruling_win":
        assert boss > 0
    elif result["outcome"] == "opposition_win":
        assert boss < 0
    else:
        assert result["outcome"] == "critic"
        assert boss >= 0
        assert (boss > 0) == (result["m"] > 0)
        if rules["critic"] == "draw":
            assert result["m"] == 0
    if result["outcome"] in ("ruling_win", "opposition_win"):
        assert isinstance(result["m"], int) and result["m"] > 0
    json.dumps(result)


@settings(max_examples=400, suppress_health_check=[HealthCheck.filter_too_much])
@given(played_hands(), house_rules.filter(lambda r: r["win_formula"] != "pagat"))
def test_property_boss_never_beyond_2560(raw, rules):
    result = scored(raw, rules)
    assert abs(result["deltas"][raw["contract"]["boss"]]) <= 2560


@settings(max_examples=200)
@given(st.data())
def test_property_legal_auctions_always_finish(data):
    """Playing only what the auction says is legal never raises and always ends."""
    tab = table(
        pass_is_final=data.draw(st.booleans()),
        no_trump_beats_same_number=data.draw(st.booleans()),
        bid20_ends_auction=data.draw(st.booleans()),
    )
    dealer = data.draw(st.sampled_from(PLAYERS))
    log: list[dict] = []
    auction = run_auction(tab, log, dealer=dealer)
    while not auction.finished:
        assert len(log) < 200  # bids only go up, so an auction is short
        floor = auction.lowest_next
        if floor is None or data.draw(st.integers(0, 2)) == 0:
            log.append({"player": auction.next_bidder, "pass": True})
        else:
            count = data.draw(st.integers(floor[0], 20))
            trump = data.draw(st.sampled_from(floor[1] if count == floor[0] else TRUMPS))
            log.append({"player": auction.next_bidder, "bid": count, "trump": trump})
        auction = run_auction(tab, log, dealer=dealer)
    if auction.all_passed:
        assert play({"dealer": dealer, "bidding": log}, tab).result["outcome"] == "all_pass"
    else:
        won = auction.highest
        raw = hand(won.count, won.trump, 0, boss=auction.winner, friend={"none": True})
        assert play({**raw, "dealer": dealer, "bidding": log}, tab).result["outcome"] == (
            "ruling_win"
        )


# -- regressions from the spec audit -------------------------------------------------------------


def test_no_trump_price_is_not_capped_at_20():
    """Suit -> NT: c1 >= c0 + to_no_trump_cost, with no cap (only suit changes are capped)."""
    rules = GAME.resolve_rules({"to_no_trump_cost": 2})
    assert contract_change_price(18, "H", "NT", rules) == 20
    assert contract_change_price(19, "H", "NT", rules) == 21
    assert contract_change_price(19, "H", "S", rules) == 20
    bidding = [{"player": "Ann", "bid": 19, "trump": "H"}, *passes("Ben", "Cy", "Dee", "Eve")]
    error = violation(hand(20, "NT", 0, bidding=bidding), table(to_no_trump_cost=2))
    assert (error.code, error.field) == ("trump_change_too_cheap", "contract.bid")
    assert "21" in error.message


def test_pagat_formula_has_no_floor():
    """pagat: m = 2(B-13) + (n-B), so a critic scored as a win at 13 is worth 0."""
    result = play(hand(13, "H", 7), table(win_formula="pagat", critic="win")).result
    assert (result["outcome"], result["base"], result["m"]) == ("critic", 0, 0)
    assert result["deltas"] == deltas(0, 0, 0, 0, 0)


def test_friend_card_mighty_may_be_reported_as_held_by_the_boss():
    """The friend card SA held by a real friend puts the mighty on the ruling side: boss is too."""
    result = play(hand(15, "H", 3, friend={"card": "SA", "player": "Ben"}, mighty_holder="boss"))
    assert result.result["multipliers"] == []
    joker = hand(15, "H", 3, friend={"card": "JK", "player": "Ben"}, joker_holder="boss")
    assert play(joker).result["deltas"] == deltas(10, 5, -5, -5, -5)


def test_back_run_double_is_not_a_ruling_multiplier():
    """Multipliers apply only when the ruling side wins; a doubled back-run lists none."""
    result = play(hand(14, "S", 15), table(back_run="double")).result
    assert (result["base"], result["m"], result["multipliers"]) == (18, 36, [])
    assert result["back_run"] is True
    assert "x2 back-run = 36" in result["explanation"][3]


# -- worked cases from the spec audit: (rules, rounds) with the state threaded -------------------


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
    """Each step scores (or is refused) as the spec says; refused steps change nothing."""
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
    with pytest.raises(RuleViolation) as caught:
        GAME.resolve_rules(overrides)
    assert caught.value.code == "invalid_rules"
    assert caught.value.field == f"rules.{next(iter(overrides))}"
