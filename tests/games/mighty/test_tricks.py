"""Refereeing the play: who takes a trick, a hand's plays checked in order, what
ten tricks show, a dry run's next play, one trick judged alone, and properties of legal play."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refapp.games.errors import Refusal
from refapp.games.mighty import DECK, JOKER, RANKS, TRUMPS, Play, decide_trick, is_point_card
from refapp.games.mighty import judge_trick as judge
from refapp.games.mighty.tricks.trick import REASONS, Specials, led_suit

from .support import PLAYERS, play, table, violation

GOLDEN = {
    case["id"]: case
    for case in json.loads(
        (Path(__file__).parents[2] / "golden" / "mighty-tricks.json").read_text(encoding="utf-8")
    )
}
LEGAL = settings(deadline=None, max_examples=60)


def golden(case_id: str) -> dict:
    """Return a copy of a golden case's (first) round input."""
    return copy.deepcopy(GOLDEN[case_id]["rounds"][0]["input"])


def plays(text: str) -> list[dict]:
    """Return a trick's plays from "Ann:HA Ben:JK/C Cy:C3!" (a led joker's suit, a call)."""
    found = []
    for word in text.split():
        player, card = word.split(":")
        entry = {"player": player, "card": card.rstrip("!")}
        if "/" in card:
            entry["card"], entry["suit"] = card.split("/")
        if card.endswith("!"):
            entry["call"] = True
        found.append(entry)
    return found


def dry(*tricks: str, boss="Ann", trump="D", bid=14, friend=None, rules=None, **extra):
    """Return a dry run's input: a contract, a friend and the tricks written as plays()."""
    raw = {
        "contract": {"boss": boss, "bid": bid, "trump": trump},
        "friend": friend or {"card": "HK", "player": "Ben"},
        "tricks": [plays(text) for text in tricks],
    }
    raw.update(extra)
    return raw


def run(raw, partial=True, **rules):
    """Play a round on a fresh table with the given house rules."""
    return play(raw, table(**rules), partial=partial)


def refused(raw, partial=True, **rules) -> Refusal:
    """Return the Refusal a round raises."""
    return violation(raw, table(**rules), partial=partial)


def cards(text: str) -> list[Play]:
    """Return plays by Ann, Ben, Cy, ... of "HA JK/C C3!" for decide_trick."""
    found = []
    for player, word in zip(PLAYERS, text.split(), strict=False):
        card = word.rstrip("!")
        suit = None
        if "/" in card:
            card, suit = card.split("/")
        found.append(Play(player, card, suit, word.endswith("!")))
    return found


# -- who takes one trick ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "number", "played", "rules", "index", "reason"),
    [
        # strength: mighty > joker > trump A..2 > led suit A..2; other cards are dead
        ("D", 2, "HA HQ SA H10 HK", {}, 2, "mighty"),
        ("D", 2, "HA JK SA H10 HK", {}, 2, "mighty"),
        ("D", 2, "HA JK D2 H10 HK", {}, 1, "joker"),
        ("S", 2, "HA H4 S2 S3 H2", {}, 3, "trump"),
        ("H", 2, "C2 DA C3 SK D3", {}, 2, "lead"),
        ("D", 3, "HQ H4 H2 HA H6", {}, 3, "lead"),
        # no-trump: mighty > joker > led suit
        ("NT", 2, "HA H4 S2 S3 H2", {}, 0, "lead"),
        ("NT", 2, "H5 SA HK JK H2", {}, 1, "mighty"),
        ("NT", 5, "SK SJ S7 S9 JK", {}, 4, "joker"),
        # the mighty by trump and house rule
        ("S", 2, "SA SK DA S3 S2", {}, 2, "mighty"),
        ("S", 2, "SA SK CA S3 DA", {"alt_mighty": "CA"}, 2, "mighty"),
        # the joker is dead in tricks 1 and 10: the mighty, trump or the led suit take it
        ("D", 1, "HA JK D2 H10 HK", {}, 2, "trump"),
        ("D", 10, "HA JK H2 H10 HK", {}, 0, "lead"),
        ("D", 10, "H2 JK SA H10 HK", {}, 2, "mighty"),
        # a led joker names the suit; alive it wins
        ("H", 2, "JK/C C2 CA H2 D5", {}, 0, "joker"),
        # a dead joker led: trump, the mighty or the named suit win; else its leader
        ("H", 10, "JK/C C2 CA S2 D5", {}, 2, "lead"),
        ("D", 10, "JK/C H9 HK S9 HA", {}, 0, "leader_by_default"),
        ("D", 1, "JK/C H9 HK S9 HA", {}, 0, "leader_by_default"),
        ("D", 1, "JK/C H9 D2 S9 HA", {}, 2, "trump"),
        ("D", 10, "JK/C H9 SA S9 HA", {}, 2, "mighty"),
        # the joker call: the called joker is dead; C3, or S3 (or H3) when clubs are trump
        ("S", 3, "C3! JK C2 C9 CQ", {}, 4, "lead"),
        ("S", 3, "C3! JK S2 C9 CQ", {}, 2, "trump"),
        ("C", 3, "S3! JK S2 S9 SQ", {}, 4, "lead"),
        ("C", 3, "H3! JK H2 H9 HQ", {"alt_joker_call": "H3"}, 4, "lead"),
        # a call flag on a joker-call card that is not this trump's does nothing
        ("C", 3, "C3! JK C2 C9 CQ", {}, 1, "joker"),
        # a led mighty asks for its own suit and wins
        ("H", 4, "SA S2 H2 S3 S4", {}, 0, "mighty"),
    ],
)  # fmt: skip
def test_decide_trick(trump, number, played, rules, index, reason):
    trick = cards(played)
    decision = decide_trick(trump, number, trick, table(**rules).rules)
    assert (decision.index, decision.reason) == (index, reason)
    assert decision.winner == PLAYERS[index]
    assert decision.card == trick[index].card
    assert decision.points == tuple(p.card for p in trick if is_point_card(p.card))


def test_decide_trick_lists_the_point_cards_in_play_order():
    decision = decide_trick("D", 2, cards("HA HQ SA H10 H2"), table().rules)
    assert decision.points == ("HA", "HQ", "SA", "H10")
    assert decision.reason in REASONS


# -- a hand's tricks, play by play --------------------------------------------------------------


def test_dry_run_tells_each_finished_trick_and_the_next_play():
    result = run(dry("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK", "Cy:H8")).result
    assert result["tricks"] == [
        {
            "number": 1,
            "leader": "Ann",
            "winner": "Cy",
            "card": "SA",
            "reason": "mighty",
            "points": ["HA", "HQ", "SA", "H10", "HK"],
            "plays": plays("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK"),
        }
    ]
    assert (result["next_player"], result["must_play"]) == ("Dee", [{"follow": "H"}])
    assert result["complete"] is False
    assert set(result["deltas"].values()) == {0}
    assert (
        "Trick 1: Cy takes it with ♠A (the mighty); point cards: ♥A ♥Q ♠A ♥10 ♥K."
        in (result["explanation"])
    )


@pytest.mark.parametrize(
    ("tricks", "options", "player", "must"),
    [
        # nobody has played yet: the boss leads trick 1
        ((), {}, "Ann", []),
        # a finished trick: its winner leads the next, anything
        (("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK",), {}, "Cy", []),
        # the order of play wraps from Eve to Ann
        (("Dee:HA Eve:HJ",), {"boss": "Dee", "trump": "S"}, "Ann", [{"follow": "H"}]),
        # Ben did not follow hearts in trick 1: the tricks show him void
        (("Ann:HA Ben:C5 Cy:H6 Dee:H8 Eve:H2", "Ann:HK"), {}, "Ben", []),
        # a led joker names the suit to follow
        (("Ann:HA Ben:H2 Cy:H3 Dee:H4 Eve:H5", "Ann:JK/C"), {}, "Ben", [{"follow": "C"}]),
        # a joker call: the joker if held
        (("Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7", "Dee:C3!"), {"boss": "Dee", "trump": "S"},
         "Eve", [{"follow": "C"}, {"joker_if_held": True}]),
        # ... unless the joker is already out
        (("Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7", "Dee:C3! Eve:JK"),
         {"boss": "Dee", "trump": "S"}, "Ann", [{"follow": "C"}]),
        # a call in trick 1 has no effect
        (("Dee:C3!",), {"boss": "Dee", "trump": "S"}, "Eve", [{"follow": "C"}]),
        # an empty last trick is a trick not begun
        (("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK", ""), {}, "Cy", []),
    ],
)  # fmt: skip
def test_next_player_and_must_play(tricks, options, player, must):
    result = run(dry(*tricks, **options)).result
    assert (result["next_player"], result["must_play"]) == (player, must)


def test_must_play_knows_a_suit_is_exhausted():
    tricks = [
        "Ann:SA Ben:S2 Cy:S3 Dee:S4 Eve:S5",
        "Ann:SK Ben:S6 Cy:S7 Dee:S8 Eve:S9",
        "Ann:SQ Ben:S10 Cy:SJ Dee:H2 Eve:H3",
        "Ann:HA Ben:H4 Cy:H5 Dee:H6 Eve:H7",
        "Ann:JK/S",
    ]
    result = run(dry(*tricks, trump="C")).result
    assert (result["next_player"], result["must_play"]) == ("Ben", [])


@pytest.mark.parametrize(
    ("tricks", "options", "code", "field"),
    [
        # leaders: the boss in trick 1, then the last trick's winner
        (("Ben:HA",), {}, "wrong_leader", "tricks.0.0.player"),
        (("Cy:CA Dee:C10 Eve:C2 Ann:CK Ben:SA", "Cy:SK"), {"boss": "Cy"}, "wrong_leader",
         "tricks.1.0.player"),
        # the order of the table; a player twice in a trick
        (("Ann:HA Cy:H2",), {}, "out_of_turn", "tricks.0.1.player"),
        (("Ann:HA Ben:H2 Ben:H3",), {}, "out_of_turn", "tricks.0.2.player"),
        # no card twice in the hand
        (("Ann:HA Ben:H2 Cy:H3 Dee:H4 Eve:H5", "Ann:H2"), {}, "card_played_twice",
         "tricks.1.0.card"),
        (("Ann:HA Ben:HA",), {}, "card_played_twice", "tricks.0.1.card"),
        # the form of a play
        (("Ann:H1",), {}, "invalid_card", "tricks.0.0.card"),
        (("Ann:HA Ben:XX",), {}, "invalid_card", "tricks.0.1.card"),
        (("Zed:HA",), {}, "unknown_player", "tricks.0.0.player"),
        (("Ann:JK",), {}, "missing_field", "tricks.0.0.suit"),
        (("Ann:JK/NT",), {}, "invalid_value", "tricks.0.0.suit"),
        (("Ann:HA/C",), {}, "invalid_value", "tricks.0.0.suit"),
        (("Ann:HA Ben:JK/C",), {}, "invalid_value", "tricks.0.1.suit"),
        (("Ann:HA!",), {}, "invalid_value", "tricks.0.0.call"),
        (("Ann:HA Ben:C3!",), {}, "invalid_value", "tricks.0.1.call"),
        # C3 is not the joker call when clubs are trump (S3 is)
        (("Ann:C3!",), {"trump": "C"}, "invalid_value", "tricks.0.0.call"),
        # at most 5 plays a trick, all 5 unless it is the last one sent
        (("Ann:HA Ben:H2 Cy:H3 Dee:H4 Eve:H5 Ann:H6",), {}, "invalid_value", "tricks.0"),
        (("Ann:HA Ben:H2", "Ann:HK"), {}, "invalid_value", "tricks.0"),
        (("", "Ann:HK"), {}, "invalid_value", "tricks.0"),
    ],
)  # fmt: skip
def test_play_errors(tricks, options, code, field):
    error = refused(dry(*tricks, **options))
    assert (error.code, error.field) == (code, field)
    assert error.message


@pytest.mark.parametrize(
    ("tricks", "code", "field"),
    [
        ("not a list", "invalid_value", "tricks"),
        (["not a list"], "invalid_value", "tricks.0"),
        ([["HA"]], "invalid_value", "tricks.0.0"),
        ([[{"player": "Ann"}]], "missing_field", "tricks.0.0.card"),
        ([[{"card": "HA"}]], "missing_field", "tricks.0.0.player"),
        ([[{"player": "Ann", "card": "C3", "call": "yes"}]], "invalid_value", "tricks.0.0.call"),
    ],
)
def test_tricks_form_errors(tricks, code, field):
    raw = dry()
    raw["tricks"] = tricks
    error = refused(raw)
    assert (error.code, error.field) == (code, field)


def test_tricks_need_the_contract():
    error = refused({"tricks": [plays("Ann:HA")]})
    assert (error.code, error.field) == ("missing_field", "contract")


def test_a_misdeal_round_carries_no_tricks():
    raw = {"misdeal": {"player": "Ann", "hand": ["S2"]}, "tricks": []}
    assert refused(raw, partial=False).code == "invalid_value"


def test_call_false_is_no_call_and_is_not_stored():
    raw = dry()
    raw["tricks"] = [[{"player": "Ann", "card": "ha", "call": False}]]
    assert run(raw).input["tricks"] == [[{"player": "Ann", "card": "HA"}]]


def test_stored_tricks_are_canonical():
    raw = dry()
    raw["tricks"] = [
        [{"player": " Ann ", "card": "jk", "suit": "c"}, {"player": "Ben", "card": "ct"}]
    ]
    assert run(raw).input["tricks"] == [
        [{"player": "Ann", "card": "JK", "suit": "C"}, {"player": "Ben", "card": "C10"}]
    ]


# -- revokes: a later card proves the suit was held ----------------------------------------------


def test_revoke_is_proven_by_the_later_card():
    error = refused(dry("Ann:HA Ben:C5 Cy:H6 Dee:H8 Eve:H2", "Ann:HK Ben:H4"))
    assert (error.code, error.field) == ("revoke", "tricks.1.1")
    assert "Ben" in error.message and "trick 1" in error.message and "♥4" in error.message


def test_revoke_against_the_suit_a_led_joker_named():
    raw = dry(
        "Ann:HA Ben:H2 Cy:H3 Dee:H4 Eve:H5", "Ann:JK/C Ben:S2 Cy:C4 Dee:C5 Eve:C6", "Ann:S3 Ben:C7"
    )
    error = refused(raw)
    assert (error.code, error.field) == ("revoke", "tricks.2.1")
    assert "trick 2" in error.message and "♣7" in error.message


def test_a_later_mighty_proves_a_revoke_against_another_card():
    # hearts trump, so the mighty SA is a spade: Ben held it when he threw D2 on spades
    error = refused(dry("Ann:SK Ben:D2 Cy:S2 Dee:S3 Eve:S4", "Ann:C2 Ben:SA", trump="H"))
    assert (error.code, error.field) == ("revoke", "tricks.1.1")


@pytest.mark.parametrize(
    "tricks",
    [
        # the mighty instead of following proves nothing about hearts
        ("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK", "Cy:H8 Dee:H9 Eve:H7 Ann:H6 Ben:H5"),
        # nor does the joker
        ("Ann:HA Ben:JK Cy:H3 Dee:H4 Eve:H5", "Ann:HK Ben:H2"),
        # and a later joker is no card of any suit
        ("Ann:HA Ben:C2 Cy:H3 Dee:H4 Eve:H5", "Ann:HK Ben:JK"),
        # a later mighty after following is fine
        ("Ann:SK Ben:S2 Cy:S3 Dee:S4 Eve:S5", "Ann:C2 Ben:SA"),
    ],
)
def test_no_revoke(tricks):
    assert run(dry(*tricks)).result["complete"] is False


# -- the joker call -----------------------------------------------------------------------------

CALL_TRUMP = {"boss": "Dee", "trump": "S"}  # the mighty DA, the joker call C3


def test_joker_call_ignored():
    raw = dry(
        "Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7",
        "Dee:C3! Eve:C4 Ann:C5 Ben:C8 Cy:C10",
        "Cy:CA Dee:C6 Eve:CK Ann:JK",
        **CALL_TRUMP,
    )
    error = refused(raw)
    assert (error.code, error.field) == ("joker_call_ignored", "tricks.2.3")
    assert "Ann" in error.message and "trick 2" in error.message


@pytest.mark.parametrize(
    "tricks",
    [
        # the mighty may answer the call instead
        ("Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7", "Dee:C3! Eve:C4 Ann:DA Ben:C8 Cy:C10", "Ann:JK/H"),
        # the call binds the others only: the caller may keep the joker
        ("Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7", "Dee:C3! Eve:C4 Ann:C5 Ben:C8 Cy:C10",
         "Cy:CA Dee:JK"),
        # a call in trick 1 is accepted and has no effect
        ("Dee:C3! Eve:C4 Ann:C5 Ben:C8 Cy:C10", "Cy:CA Dee:C6 Eve:CK Ann:JK"),
        # without the call flag C3 is just a club
        ("Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7", "Dee:C3 Eve:C4 Ann:C5 Ben:C8 Cy:C10",
         "Cy:CA Dee:C6 Eve:CK Ann:JK"),
    ],
)  # fmt: skip
def test_joker_call_answered(tricks):
    assert run(dry(*tricks, **CALL_TRUMP)).result["complete"] is False


def test_the_called_joker_is_dead():
    result = run(dry("Dee:HA Eve:H10 Ann:H8 Ben:HJ Cy:H7", "Dee:C3! Eve:JK Ann:C2 Ben:C9 Cy:CQ",
                     **CALL_TRUMP)).result  # fmt: skip
    assert (result["tricks"][1]["winner"], result["tricks"][1]["reason"]) == ("Cy", "lead")


# -- trick 1 ------------------------------------------------------------------------------------

BOSS_EVE_CLUBS = {"boss": "Eve", "trump": "C"}


@pytest.mark.parametrize(
    ("tricks", "options", "rules", "code", "field"),
    [
        # the boss led trump, then plays a non-trump
        (("Eve:CA Ann:H3 Ben:C5 Cy:C3 Dee:C2", "Eve:HA"), BOSS_EVE_CLUBS, {},
         "trump_led_in_first_trick", "tricks.1.0"),
        # a joker led naming trump counts as leading trump
        (("Eve:JK/C Ann:C4 Ben:C5 Cy:C6 Dee:C2", "Cy:HA Dee:H2 Eve:H3"), BOSS_EVE_CLUBS, {},
         "trump_led_in_first_trick", "tricks.1.2"),
        # a later mighty or joker proves nothing, a later plain card does
        (("Eve:CA Ann:C4 Ben:C5 Cy:C3 Dee:C2", "Eve:SA Ann:S2 Ben:S3 Cy:S4 Dee:S5",
          "Eve:JK/H Ann:H2 Ben:H3 Cy:H4 Dee:H5", "Eve:H6"), BOSS_EVE_CLUBS, {},
         "trump_led_in_first_trick", "tricks.3.0"),
        # no trump in trick 1: a player who trumped, then plays a non-trump
        (("Ann:HA Ben:D2 Cy:H3 Dee:H4 Eve:H5", "Ben:C2"), {}, {"trick1_trump": "none"},
         "trump_in_first_trick", "tricks.1.0"),
        # ... the mighty and the joker included
        (("Ann:HA Ben:D2 Cy:H3 Dee:H4 Eve:H5", "Ben:SA"), {}, {"trick1_trump": "none"},
         "trump_in_first_trick", "tricks.1.0"),
        (("Ann:HA Ben:D2 Cy:H3 Dee:H4 Eve:H5", "Ben:JK/C"), {}, {"trick1_trump": "none"},
         "trump_in_first_trick", "tricks.1.0"),
        # no trump in trick 1: the boss leading trump is still trump_led_in_first_trick
        (("Ann:DA Ben:D2 Cy:D3 Dee:D4 Eve:D5", "Ann:H2"), {}, {"trick1_trump": "none"},
         "trump_led_in_first_trick", "tricks.1.0"),
        # within one play a revoke comes first: Ben held hearts and trumped
        (("Ann:HA Ben:D2 Cy:H3 Dee:H4 Eve:H5", "Ben:H6"), {}, {"trick1_trump": "none"},
         "revoke", "tricks.1.0"),
        # ... and so for the boss: trumped spades in trick 2, then leads a spade
        (("Eve:C5 Ann:C4 Ben:CA Cy:C3 Dee:C2", "Ben:SK Cy:S2 Dee:S3 Eve:C6 Ann:S4", "Eve:S5"),
         BOSS_EVE_CLUBS, {}, "revoke", "tricks.2.0"),
    ],
)  # fmt: skip
def test_first_trick_errors(tricks, options, rules, code, field):
    error = refused(dry(*tricks, **options), **rules)
    assert (error.code, error.field) == (code, field)
    assert error.message


@pytest.mark.parametrize(
    ("tricks", "options", "rules"),
    [
        # others may trump trick 1 when void (the default, no_lead)
        (("Ann:HA Ben:D2 Cy:H3 Dee:H4 Eve:H5", "Ben:C2"), {}, {}),
        # a boss with nothing but trump (the mighty and the joker aside) may lead it
        (("Eve:CA Ann:C4 Ben:C5 Cy:C3 Dee:C2", "Eve:SA Ann:S2 Ben:S3 Cy:S4 Dee:S5",
          "Eve:JK/H Ann:H2 Ben:H3 Cy:H4 Dee:H5", "Eve:CK"), BOSS_EVE_CLUBS, {}),
        # following a trump lead is not trumping
        (("Ann:DA Ben:D2 Cy:D3 Dee:D4 Eve:D5", "Ann:D6 Ben:C2"), {}, {"trick1_trump": "none"}),
        # no-trump: no trump to lead
        (("Ann:SK Ben:S2 Cy:S3 Dee:S4 Eve:S5", "Ann:H2"), {"trump": "NT"}, {}),
    ],
)  # fmt: skip
def test_first_trick_allowed(tricks, options, rules):
    assert run(dry(*tricks, **options), **rules).result["complete"] is False


# -- the first play that breaks a rule is the one reported ---------------------------------------


@pytest.mark.parametrize(
    ("tricks", "code", "field"),
    [
        (("Ann:HA Ben:C5 Cy:H6 Dee:H8 Eve:H2", "Ann:HK Ben:H4 Cy:X9"), "revoke", "tricks.1.1"),
        (("Ann:HA Ben:C5 Cy:H6 Dee:H8 Eve:Q2", "Ann:HK Ben:H4"), "invalid_card",
         "tricks.0.4.card"),
        # the revoke is played before the sixth play, or before the next trick begins
        (("Ann:HA Ben:C5 Cy:H6 Dee:H8 Eve:H2", "Ann:HK Ben:H4 Cy:H9 Dee:H3 Eve:H7 Ann:H5"),
         "revoke", "tricks.1.1"),
        (("Ann:HA Ben:C5 Cy:H6 Dee:H8 Eve:H2", "Ann:HK Ben:H4", "Ann:HQ"), "revoke",
         "tricks.1.1"),
        # an unfinished trick is refused once the next one begins, before its plays
        (("Ann:HA Ben:H2", "Ann:X9"), "invalid_value", "tricks.0"),
        (("Ann:HA Ben:H2 Cy:H3 Dee:H4 Eve:H5 Ann:H6", "Ann:X9"), "invalid_value", "tricks.0"),
    ],
)  # fmt: skip
def test_first_broken_rule_is_reported(tricks, code, field):
    error = refused(dry(*tricks))
    assert (error.code, error.field) == (code, field)


# -- ten tricks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case_id", [key for key in GOLDEN if "deltas" in GOLDEN[key]["rounds"][0]])
def test_golden_hands_score(case_id):
    case = GOLDEN[case_id]
    step = case["rounds"][0]
    result = run(step["input"], partial=False, **case["rules"]).result
    assert result["deltas"] == step["deltas"]
    for key in ("opposition_points", "mighty_holder", "joker_holder", "m", "multipliers"):
        assert result[key] == step["result"][key]
    assert [trick["winner"] for trick in result["tricks"]] == [
        trick["winner"] for trick in step["result"]["tricks"]
    ]


def test_ten_tricks_derive_what_was_left_out():
    raw = golden("MT-01")
    raw["friend"] = {"card": "HA"}
    outcome = run(raw, partial=False)
    assert outcome.result["deltas"] == {"Ann": -16, "Ben": 32, "Cy": -16, "Dee": -16, "Eve": 16}
    assert outcome.result["friend"] == "Eve"
    assert outcome.result["kitty"] == ["S5", "C5", "C4"]
    assert outcome.input["friend"] == {"card": "HA", "player": "Eve"}
    assert outcome.input["opposition_points"] == 4
    assert (outcome.input["mighty_holder"], outcome.input["joker_holder"]) == ("boss", "opposition")
    # the stored input replays to the same result
    again = run(outcome.input, partial=False)
    assert again.result["deltas"] == outcome.result["deltas"]
    assert again.input == outcome.input
    lines = outcome.result["explanation"]
    assert "♥A was played by Eve in trick 4, so Eve is the friend." in lines
    assert "The tricks give the opposition 4 point cards, in tricks 5, 10." in lines
    assert "The joker was played by Dee (an opponent) in trick 5." in lines
    assert "The kitty holds ♠5 ♣5 ♣4." in lines


def test_ten_tricks_scored_as_the_same_totals_entered():
    raw = golden("MT-02")
    by_tricks = run(raw, partial=False).result
    del raw["tricks"]
    raw.update(opposition_points=4, mighty_holder="friend", joker_holder="boss")
    by_hand = run(raw, partial=False).result
    for key in ("deltas", "outcome", "m", "multipliers", "ruling_points", "friend", "back_run"):
        assert by_tricks[key] == by_hand[key]


def test_entered_values_that_agree_are_accepted():
    raw = golden("MT-01")
    raw.update(opposition_points=4, mighty_holder="boss", joker_holder="opposition")
    assert run(raw, partial=False).result["m"] == 16


def test_the_boss_playing_the_called_card_is_a_self_friend():
    raw = golden("MT-01")
    raw["friend"] = {"card": "DA"}  # Ben, the boss, led it in trick 1
    result = run(raw, partial=False).result
    assert (result["friend"], result["self_friend"]) == (None, True)
    assert result["opposition_points"] == 9
    assert result["deltas"]["Ben"] == -4 * result["deltas"]["Ann"]
    assert "♦A was played by the boss Ben in trick 1: a self friend." in result["explanation"]


@pytest.mark.parametrize(
    "friend", [{"card": "HK", "kitty": True}, {"card": "HK", "player": "Ann"}, {"card": "HK"}]
)
def test_a_called_card_nobody_played_is_in_the_kitty(friend):
    raw = golden("MT-05")
    raw["friend"] = friend
    outcome = run(raw, partial=False)
    assert outcome.result["deltas"] == {"Ann": 24, "Ben": -6, "Cy": -6, "Dee": -6, "Eve": -6}
    assert outcome.result["self_friend"] is True
    assert "HK" in outcome.result["kitty"]
    if "player" not in friend:
        assert outcome.input["friend"] == {"card": "HK", "kitty": True}


def test_first_trick_friend_is_trick_ones_winner():
    raw = golden("MT-01")
    raw["friend"] = {"first_trick": "Ben"}  # the boss took trick 1: a self friend
    result = run(raw, partial=False, friend_types=["card", "none", "first_trick"]).result
    assert (result["friend"], result["self_friend"]) == (None, True)


@pytest.mark.parametrize(
    ("case_id", "change", "rules", "field"),
    [
        ("MT-11", {}, {}, "opposition_points"),
        ("MT-01", {"opposition_points": 5}, {}, "opposition_points"),
        ("MT-03", {"opposition_points": 3}, {}, "opposition_points"),
        ("MT-01", {"friend": {"card": "HA", "player": "Cy"}}, {}, "friend.player"),
        ("MT-01", {"friend": {"card": "HA", "player": "Ben"}}, {}, "friend.player"),
        ("MT-01", {"friend": {"card": "HA", "kitty": True}}, {}, "friend.kitty"),
        ("MT-05", {"friend": {"card": "HK", "player": "Ben"}}, {}, "friend.player"),
        ("MT-04", {"friend": {"first_trick": "Cy"}}, {"friend_types": ["card", "first_trick"]},
         "friend.first_trick"),
        ("MT-01", {"mighty_holder": "friend"}, {}, "mighty_holder"),
        ("MT-01", {"joker_holder": "kitty"}, {}, "joker_holder"),
        ("MT-05", {"mighty_holder": "kitty"}, {}, "mighty_holder"),
        # before holder_conflict: without tricks this is a holder conflict
        ("MT-01", {"opposition_points": 0, "mighty_holder": "opposition"}, {},
         "opposition_points"),
        ("MT-01", {"friend": {"none": True}, "joker_holder": "friend"}, {}, "joker_holder"),
    ],
)  # fmt: skip
def test_tricks_disagree(case_id, change, rules, field):
    raw = golden(case_id)
    raw.update(change)
    error = refused(raw, partial=False, **rules)
    assert (error.code, error.field) == ("tricks_disagree", field)
    assert error.message


def test_tricks_disagree_names_the_tricks():
    error = refused(golden("MT-11"), partial=False)
    assert "(tricks " in error.message and "10" in error.message


def test_holder_conflict_without_tricks_still_applies():
    raw = golden("MT-01")
    del raw["tricks"]
    raw.update(opposition_points=0, mighty_holder="opposition")
    assert refused(raw, partial=False).code == "holder_conflict"


def test_a_stored_hand_needs_all_ten_tricks():
    raw = golden("MT-01")
    raw["tricks"] = raw["tricks"][:9]
    error = refused(raw, partial=False)
    assert (error.code, error.field) == ("tricks_incomplete", "tricks")
    raw = golden("MT-01")
    raw["tricks"][9] = raw["tricks"][9][:4]
    assert refused(raw, partial=False).code == "tricks_incomplete"
    # a dry run may be unfinished, and needs no points
    result = run(golden("MT-01") | {"tricks": raw["tricks"]}).result
    assert (result["complete"], result["next_player"]) == (False, "Ann")
    assert len(result["tricks"]) == 9


def test_at_most_ten_tricks():
    raw = golden("MT-01")
    raw["tricks"].append(plays("Ann:S5"))
    error = refused(raw)
    assert (error.code, error.field) == ("invalid_value", "tricks")


def test_dry_run_of_ten_tricks_without_a_friend_lists_them():
    raw = golden("MT-01")
    del raw["friend"]
    result = run(raw).result
    assert result["complete"] is False and len(result["tricks"]) == 10
    assert "next_player" not in result


def test_dry_run_reveals_a_friend_card_already_played():
    raw = dry("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK", friend={"card": "HQ"})
    assert run(raw).input["friend"] == {"card": "HQ", "player": "Ben"}
    raw = dry("Ann:HA Ben:HQ Cy:SA Dee:H10 Eve:HK", friend={"card": "DK"})
    outcome = run(raw)
    assert outcome.input["friend"] == {"card": "DK"}
    assert (
        "Friend: whoever holds ♦K; it has not been played yet." in (outcome.result["explanation"])
    )


def test_friend_player_is_still_required_without_tricks():
    raw = golden("MT-01")
    del raw["tricks"]
    raw.update(friend={"card": "HA"}, opposition_points=4)
    assert refused(raw, partial=False).field == "friend.player"


@pytest.mark.parametrize(
    "friend", [{"card": "HA", "kitty": "yes"}, {"card": "HA", "kitty": True, "player": "Eve"}]
)
def test_friend_kitty_form_errors(friend):
    raw = golden("MT-01")
    raw["friend"] = friend
    error = refused(raw, partial=False)
    assert (error.code, error.field) == ("invalid_value", "friend.kitty")


# -- one trick alone (POST /api/mighty/trick) ----------------------------------------------------


def test_judge_trick():
    answer = judge(
        {
            "trump": "d",
            "trick": 10,
            "plays": plays("Eve:JK/C Ann:H9 Ben:HK Cy:S9 Dee:HA"),
        }
    )
    assert (answer["winner"], answer["reason"], answer["points"]) == (
        "Eve",
        "leader_by_default",
        ["HK", "HA"],
    )
    assert answer["card"] == "JK" and answer["index"] == 0
    assert answer["explanation"]


def test_judge_trick_without_names_and_with_rules():
    answer = judge(
        {
            "trump": "S",
            "trick": 4,
            "plays": [{"card": "SA"}, {"card": "CA"}, {"card": "S2"}],
            "rules": {"alt_mighty": "CA"},
        }
    )
    assert (answer["winner"], answer["index"], answer["reason"]) == (None, 1, "mighty")
    assert answer["plays"] == [{"card": "SA"}, {"card": "CA"}, {"card": "S2"}]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ([], "invalid_value", "body"),
        ({"trick": 1, "plays": [{"card": "SA"}]}, "missing_field", "trump"),
        ({"trump": "X", "trick": 1, "plays": [{"card": "SA"}]}, "invalid_value", "trump"),
        ({"trump": "S", "plays": [{"card": "SA"}]}, "missing_field", "trick"),
        ({"trump": "S", "trick": 11, "plays": [{"card": "SA"}]}, "invalid_value", "trick"),
        ({"trump": "S", "trick": "one", "plays": [{"card": "SA"}]}, "invalid_value", "trick"),
        ({"trump": "S", "trick": 1, "plays": []}, "invalid_value", "plays"),
        ({"trump": "S", "trick": 1, "plays": [{"card": "S2"}] * 6}, "invalid_value", "plays"),
        ({"trump": "S", "trick": 1, "plays": [{"card": "S2"}, {"card": "S2"}]},
         "card_played_twice", "plays.1.card"),
        ({"trump": "S", "trick": 1, "plays": plays("Ann:S2 Ann:S3")}, "out_of_turn",
         "plays.1.player"),
        ({"trump": "S", "trick": 1, "plays": [{"card": "S1"}]}, "invalid_card", "plays.0.card"),
        ({"trump": "S", "trick": 1, "plays": [{"card": "JK"}]}, "missing_field", "plays.0.suit"),
        ({"trump": "S", "trick": 2, "plays": [{"card": "S3", "call": True}]}, "invalid_value",
         "plays.0.call"),
        ({"trump": "S", "trick": 2, "plays": [{"card": "S3", "player": 5}]}, "invalid_value",
         "plays.0.player"),
        ({"trump": "S", "trick": 2, "plays": [{"card": "S3"}], "rules": {"alt_mighty": "JK"}},
         "invalid_rules", "rules.alt_mighty"),
    ],
)  # fmt: skip
def test_judge_trick_errors(body, code, field):
    with pytest.raises(Refusal) as caught:
        judge(body)
    assert (caught.value.code, caught.value.field) == (code, field)


# -- properties of legal play -------------------------------------------------------------------


def _choices(hand, trick, number, specials, boss_leads):
    """Return the cards a player may legally play on the trick so far."""
    if not trick:
        ordinary = [card for card in hand if not specials.free(card)]
        if boss_leads and any(not specials.is_trump(card) for card in ordinary):
            return [card for card in hand if not specials.is_trump(card)]
        return list(hand)
    lead = trick[0]
    if lead.call and lead.card == specials.joker_call and number > 1 and JOKER in hand:
        return [card for card in hand if specials.free(card)]
    suit = led_suit(lead)
    same = [card for card in hand if card != JOKER and card[0] == suit]
    if same:
        return same + [card for card in hand if specials.free(card) and card not in same]
    return list(hand)


def legal_hand(deck, trump, boss, rng):
    """Deal deck and play ten legal tricks; return (hands as dealt, kitty, tricks as input)."""
    rules = table().rules
    specials = Specials.of(trump, rules)
    hands = {player: list(deck[10 * seat : 10 * seat + 10]) for seat, player in enumerate(PLAYERS)}
    dealt = {player: list(cards) for player, cards in hands.items()}
    leader, tricks = boss, []
    for number in range(1, 11):
        seat = PLAYERS.index(leader)
        trick: list[Play] = []
        for offset in range(5):
            player = PLAYERS[(seat + offset) % 5]
            hand = hands[player]
            boss_leads = number == 1 and not trick and trump != "NT"
            card = rng.choice(_choices(hand, trick, number, specials, boss_leads))
            hand.remove(card)
            suit = call = None
            if not trick and card == JOKER:
                named = [s for s in "SHDC" if not (boss_leads and s == trump)]
                suit = rng.choice(named)
            if not trick and card == specials.joker_call:
                call = rng.random() < 0.5
            trick.append(Play(player, card, suit, bool(call)))
        leader = decide_trick(trump, number, trick, rules).winner
        tricks.append([play.as_dict() for play in trick])
    return dealt, list(deck[50:]), tricks


def _holder(card, dealt, kitty, boss, friend):
    if card in kitty:
        return "kitty"
    player = next(p for p, cards in dealt.items() if card in cards)
    if player == boss:
        return "boss"
    return "friend" if player == friend else "opposition"


@LEGAL
@given(
    deck=st.permutations(DECK),
    trump=st.sampled_from(TRUMPS),
    boss=st.sampled_from(PLAYERS),
    called=st.sampled_from(DECK),
    rng=st.randoms(use_true_random=False),
)
def test_legal_ten_tricks_are_accepted_and_add_up(deck, trump, boss, called, rng):
    dealt, kitty, tricks = legal_hand(deck, trump, boss, rng)
    raw = {
        "contract": {"boss": boss, "bid": 13, "trump": trump},
        "friend": {"card": called},
        "tricks": tricks,
    }
    result = run(raw, partial=False).result
    played = [entry["card"] for trick in tricks for entry in trick]
    assert len(set(played)) == 50
    assert sorted(result["kitty"]) == sorted(kitty)
    # the friend is whoever played the called card (the boss or nobody: a self friend)
    holder = next((p for p, cards in dealt.items() if called in cards), None)
    assert result["friend"] == (None if holder in (None, boss) else holder)
    # every trick's winner leads the next; the boss leads trick 1
    leaders = [trick["leader"] for trick in result["tricks"]]
    winners = [trick["winner"] for trick in result["tricks"]]
    assert leaders == [boss, *winners[:9]]
    # 20 point cards: the opposition's, the ruling side's tricks and the kitty
    ruling = {boss, result["friend"]}
    ruling_tricks = sum(len(t["points"]) for t in result["tricks"] if t["winner"] in ruling)
    in_kitty = sum(1 for card in kitty if is_point_card(card))
    assert result["opposition_points"] + ruling_tricks + in_kitty == 20
    assert result["ruling_points"] == 20 - result["opposition_points"]
    mighty = Specials.of(trump, table().rules).mighty
    assert result["mighty_holder"] == _holder(mighty, dealt, kitty, boss, result["friend"])
    assert result["joker_holder"] == _holder(JOKER, dealt, kitty, boss, result["friend"])
    assert sum(result["deltas"].values()) == 0


@LEGAL
@given(
    deck=st.permutations(DECK),
    trump=st.sampled_from(TRUMPS),
    boss=st.sampled_from(PLAYERS),
    cut=st.integers(min_value=0, max_value=49),
    rng=st.randoms(use_true_random=False),
)
def test_dry_run_of_legal_play_knows_the_next_play(deck, trump, boss, cut, rng):
    dealt, _kitty, tricks = legal_hand(deck, trump, boss, rng)
    flat = [entry for trick in tricks for entry in trick]
    shown = [flat[start : min(start + 5, cut)] for start in range(0, cut, 5)]
    raw = {"contract": {"boss": boss, "bid": 13, "trump": trump}, "tricks": shown}
    result = run(raw).result
    nxt = flat[cut]
    assert result["next_player"] == nxt["player"]
    if cut % 5 == 0:
        assert result["must_play"] == []
        return
    still = set(dealt[nxt["player"]]) - {entry["card"] for entry in flat[:cut]}
    led = flat[cut - cut % 5]
    suit = led.get("suit") or led["card"][0]
    follow = {"follow": suit} in result["must_play"]
    # a player the tricks show void holds no card of the suit
    assert follow or not any(card != JOKER and card[0] == suit for card in still)


@settings(deadline=None, max_examples=200)
@given(
    hand=st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True),
    trump=st.sampled_from(TRUMPS),
    number=st.integers(min_value=1, max_value=10),
    suit=st.sampled_from("SHDC"),
)
def test_decide_trick_picks_the_strongest_card(hand, trump, number, suit):
    trick = [Play(PLAYERS[i], card, suit if i == 0 and card == JOKER else None) for i, card in
             enumerate(hand)]  # fmt: skip
    rules = table().rules
    specials = Specials.of(trump, rules)
    decision = decide_trick(trump, number, trick, rules)
    assert decision.reason in REASONS
    assert (decision.reason == "mighty") == (specials.mighty in hand)
    if decision.reason == "trump":
        trumps = [card for card in hand if specials.is_trump(card)]
        assert decision.card in trumps
        assert all(RANKS.index(decision.card[1:]) <= RANKS.index(c[1:]) for c in trumps)
    if decision.reason == "leader_by_default":
        assert hand[0] == JOKER and number in (1, 10)
    assert decision.points == tuple(card for card in hand if is_point_card(card))


# -- properties of careless play: the first proven break is the one reported ---------------------

ORDER = ("revoke", "joker_call_ignored", "trump_led_in_first_trick", "trump_in_first_trick")


def careless_hand(deck, trump, boss, rng, slips, rules):
    """Deal deck and play ten tricks that follow suit except, now and then, a random card."""
    specials = Specials.of(trump, rules)
    hands = {player: list(deck[10 * seat : 10 * seat + 10]) for seat, player in enumerate(PLAYERS)}
    dealt = {player: list(cards) for player, cards in hands.items()}
    leader, tricks = boss, []
    for number in range(1, 11):
        seat = PLAYERS.index(leader)
        trick: list[Play] = []
        for offset in range(5):
            player = PLAYERS[(seat + offset) % 5]
            hand = hands[player]
            options = hand if rng.random() < slips else _choices(hand, trick, 2, specials, False)
            card = rng.choice(options)
            hand.remove(card)
            suit = rng.choice("SHDC") if not trick and card == JOKER else None
            call = not trick and card == specials.joker_call and rng.random() < 0.7
            trick.append(Play(player, card, suit, call))
        leader = decide_trick(trump, number, trick, rules).winner
        tricks.append(trick)
    return dealt, tricks


def first_break(dealt, tricks, specials, none):
    """Return (code, field) of the first play proving an earlier break, from the cards held."""
    holding = {player: set(cards) for player, cards in dealt.items()}
    owed = []  # (player, trick index, code, which later cards prove it)
    for number, trick in enumerate(tricks):
        for position, done in enumerate(trick):
            codes = [code for who, t, code, proves in owed if who == done.player and t < number
                     and proves(done.card)]  # fmt: skip
            if codes:
                return min(codes, key=ORDER.index), f"tricks.{number}.{position}"
            owed += _breaks(done, trick, number, holding[done.player], specials, none)
            holding[done.player].discard(done.card)
    return None


def _breaks(done, trick, number, held, specials, none):
    """Return the rules a play breaks, given the cards its player holds, and their proofs."""
    trump = specials.trump

    def plain_off_trump(card):
        return not specials.free(card) and not specials.is_trump(card)

    if done is trick[0]:
        leads_trump = specials.is_trump(done.card) or (done.card == JOKER and done.suit == trump)
        if number == 0 and leads_trump and any(plain_off_trump(card) for card in held):
            return [(done.player, number, ORDER[2], plain_off_trump)]
        return []
    found, lead = [], trick[0]
    suit = led_suit(lead)

    def of_suit(card):
        return card != JOKER and card[0] == suit

    if not specials.free(done.card) and not of_suit(done.card) and any(map(of_suit, held)):
        found.append((done.player, number, ORDER[0], of_suit))
    called = number > 0 and lead.call and lead.card == specials.joker_call
    if called and JOKER in held and not specials.free(done.card):
        found.append((done.player, number, ORDER[1], lambda card: card == JOKER))
    trumped = number == 0 and none and suit != trump and specials.is_trump(done.card)
    if trumped and not all(map(specials.is_trump, held)):
        found.append((done.player, number, ORDER[3], lambda card: not specials.is_trump(card)))
    return found


@settings(deadline=None, max_examples=150)
@given(
    deck=st.permutations(DECK),
    trump=st.sampled_from(TRUMPS),
    boss=st.sampled_from(PLAYERS),
    slips=st.sampled_from([0.0, 0.03, 0.1, 0.5]),
    trick1=st.sampled_from(["no_lead", "none"]),
    rng=st.randoms(use_true_random=False),
)
def test_careless_play_is_refused_at_the_play_that_proves_it(deck, trump, boss, slips, trick1, rng):
    tab = table(trick1_trump=trick1)
    specials = Specials.of(trump, tab.rules)
    dealt, tricks = careless_hand(deck, trump, boss, rng, slips, tab.rules)
    raw = {
        "contract": {"boss": boss, "bid": 13, "trump": trump},
        "friend": {"none": True},
        "tricks": [[entry.as_dict() for entry in trick] for trick in tricks],
    }
    expected = first_break(dealt, tricks, specials, trick1 == "none")
    if expected is None:
        assert play(raw, tab).result["deltas"]
    else:
        error = violation(raw, tab)
        assert (error.code, error.field) == expected
