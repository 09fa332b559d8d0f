"""A scored hand's facts (result["facts"]) and the sentences that name them, fact by fact."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from refapp.games.errors import fill
from refapp.games.game import Table
from refapp.games.mighty.explain.facts import RULE_LABELS
from refapp.games.mighty.scoring.multipliers import BECAUSE

from .support import GAME, PLAYERS, hand, passes, play, table

CASES = Path(__file__).parents[2] / "golden" / "mighty-tricks.json"
TRICK_CASES = {case["id"]: case for case in json.loads(CASES.read_text(encoding="utf-8"))}


def scored(raw, tab=None) -> dict:
    """Return a scored hand's result."""
    return play(raw, tab).result


def text(result: dict) -> str:
    """Return the explanation as one text."""
    return " ".join(result["explanation"])


def won_by(bid: int, trump: str, player: str = "Ann") -> list[dict]:
    """Return a bidding log that player wins with (bid, trump), the others passing."""
    others = [name for name in PLAYERS if name != player]
    return [{"player": player, "bid": bid, "trump": trump}, *passes(*others)]


def online() -> Table:
    """Return a table playing the online programs' preset."""
    return Table(PLAYERS, GAME.resolve_rules({}, "online"))


def trick_case(case_id: str) -> dict:
    """Return a scored trick-refereed case's result."""
    case = TRICK_CASES[case_id]
    return scored(copy.deepcopy(case["rounds"][0]["input"]), table(**case.get("rules", {})))


# the auction's winning bid and the contract


def test_without_a_bidding_log_the_contract_is_said_as_declared():
    result = scored(hand(15, "H", 3))
    facts = result["facts"]
    assert facts["winning_bid"] is None and facts["contract_change"] is None
    assert facts["contract"] == {"boss": "Ann", "bid": 15, "trump": "H"}
    assert (
        "The bidding was not entered: the contract 15 hearts is scored as declared."
        in (result["explanation"])
    )


def test_a_contract_that_is_the_winning_bid():
    result = scored(hand(15, "H", 3, bidding=won_by(15, "H")))
    assert result["facts"]["winning_bid"] == {"player": "Ann", "bid": 15, "trump": "H"}
    assert result["facts"]["contract_change"] is None
    assert (
        "Ann won the auction with 15 hearts, and the contract is that bid."
        in (result["explanation"])
    )


def test_a_raise_without_a_trump_change_costs_nothing():
    result = scored(hand(17, "H", 2, bidding=won_by(15, "H")))
    change = result["facts"]["contract_change"]
    assert change == {
        "from": {"bid": 15, "trump": "H"},
        "to": {"bid": 17, "trump": "H"},
        "raised_by": 2,
        "price": 15,
        "cost": None,
        "rule": None,
    }
    assert "the contract raises it to 17 hearts (a raise without a trump change costs" in (
        text(result)
    )


@pytest.mark.parametrize(
    ("won", "final", "rules", "rule", "cost", "price"),
    [
        ((15, "H"), (16, "NT"), {}, "to_no_trump_cost", 1, 16),
        ((15, "H"), (17, "S"), {}, "suit_change_cost", 2, 17),
        ((15, "H"), (18, "S"), {"suit_change_cost": 3}, "suit_change_cost", 3, 18),
        ((15, "NT"), (17, "D"), {}, "from_no_trump_cost", 2, 17),
        ((14, "NT"), (17, "C"), {"from_no_trump_cost": 3}, "from_no_trump_cost", 3, 17),
    ],
)
def test_a_trump_change_names_its_price_and_house_rule(won, final, rules, rule, cost, price):
    raw = hand(final[0], final[1], 2, bidding=won_by(*won))
    result = scored(raw, table(**rules))
    change = result["facts"]["contract_change"]
    assert (change["rule"], change["cost"], change["price"]) == (rule, cost, price)
    assert change["raised_by"] == final[0] - won[0]
    assert f"the house rule “{RULE_LABELS[rule]}” asks {cost} more, so at least {price}." in text(
        result
    )


def test_a_suit_change_from_19_is_capped_at_20():
    result = scored(hand(20, "S", 0, bidding=won_by(19, "H")))
    assert result["facts"]["contract_change"]["price"] == 20
    assert "“Raise to change to another suit” asks 2 more, capped at 20, so at least 20." in (
        text(result)
    )


def test_a_suit_20_turned_no_trump_20_names_the_rule_that_allows_it():
    raw = hand(20, "NT", 0, bidding=won_by(20, "H"))
    result = scored(raw, table(allow_no_trump_at_20=True))
    assert result["facts"]["contract_change"]["rule"] == "allow_no_trump_at_20"
    assert (
        "Ann won the auction with 20 hearts; the contract changes it to 20 no-trump, as the "
        "house rule “A suit 20 may become no-trump 20” allows." in result["explanation"]
    )


# the mighty and the joker


@pytest.mark.parametrize(
    ("trump", "rules", "card", "face"),
    [
        ("H", {}, "SA", "♠A"),
        ("NT", {}, "SA", "♠A"),
        ("S", {}, "DA", "♦A"),
        ("S", {"alt_mighty": "CA"}, "CA", "♣A"),
    ],
)
def test_the_mighty_under_the_trump_is_named(trump, rules, card, face):
    result = scored(hand(15, trump, 3, mighty_holder="boss"), table(**rules))
    assert result["facts"]["mighty"]["card"] == card
    assert f"is {face}, held by the boss Ann." in text(result)


@pytest.mark.parametrize(
    ("holder", "player", "words"),
    [
        ("boss", "Ann", "The mighty under hearts is ♠A, held by the boss Ann."),
        ("friend", "Ben", "The mighty under hearts is ♠A, held by the friend Ben."),
        ("opposition", None, "The mighty under hearts is ♠A, held by the opposition."),
        ("kitty", None, "The mighty under hearts is ♠A, buried in the kitty."),
        (
            None,
            None,
            "The mighty under hearts is ♠A; who held it was not entered, so it counts as the "
            "ruling side's.",
        ),
    ],
)
def test_who_held_the_mighty(holder, player, words):
    extra = {} if holder is None else {"mighty_holder": holder}
    result = scored(hand(15, "H", 3, **extra))
    assert result["facts"]["mighty"] == {
        "card": "SA",
        "holder": holder,
        "player": player,
        "trick": None,
        "friend_card": False,
    }
    assert words in result["explanation"]


@pytest.mark.parametrize(
    ("holder", "words"),
    [
        ("boss", "The joker was held by the boss Ann."),
        ("opposition", "The joker was held by the opposition."),
        ("kitty", "The joker was buried in the kitty."),
        (None, "Who held the joker was not entered, so it counts as the ruling side's."),
    ],
)
def test_who_held_the_joker(holder, words):
    extra = {} if holder is None else {"joker_holder": holder}
    result = scored(hand(15, "H", 3, **extra))
    assert result["facts"]["joker"]["holder"] == holder
    assert words in result["explanation"]


def test_a_friend_card_that_is_the_mighty_is_flagged():
    result = scored(hand(15, "S", 3, friend={"card": "DA", "player": "Cy"}, mighty_holder="friend"))
    assert result["facts"]["mighty"]["friend_card"] is True
    assert result["facts"]["joker"]["friend_card"] is False
    assert "The mighty under spades is ♦A, held by the friend Cy." in result["explanation"]
    assert "The friend card is the mighty itself (♦A)." in result["explanation"]


def test_a_friend_card_that_is_the_joker_is_flagged():
    result = scored(hand(15, "H", 3, friend={"card": "JK", "player": "Cy"}))
    assert result["facts"]["joker"]["friend_card"] is True
    assert not any("itself" in line for line in result["explanation"])  # it would say it twice


@pytest.mark.parametrize(
    ("friend", "holder", "player", "words"),
    [
        ({"card": "JK", "player": "Cy"}, "friend", "Cy", "The joker was held by the friend Cy."),
        ({"card": "JK", "player": "Ann"}, "boss", "Ann", "The joker was held by the boss Ann."),
    ],
)
def test_the_friend_call_tells_who_held_the_joker_it_named(friend, holder, player, words):
    """A friend card that is the joker was held by whoever the call found: not 'not entered'."""
    result = scored(hand(15, "H", 3, friend=friend))
    assert (result["facts"]["joker"]["holder"], result["facts"]["joker"]["player"]) == (
        holder,
        player,
    )
    assert words in result["explanation"]
    assert "Who held the joker was not entered" not in text(result)


def test_with_tricks_the_holders_name_the_player_and_the_trick():
    result = trick_case("MT-01")
    assert result["facts"]["mighty"] == {
        "card": "SA",
        "holder": "boss",
        "player": "Ben",
        "trick": 9,
        "friend_card": False,
    }
    assert result["facts"]["joker"]["player"] == "Dee"
    assert (
        "The mighty under no-trump is ♠A; the boss Ben played it in trick 9."
        in (result["explanation"])
    )
    assert "The joker was played by Dee (an opponent) in trick 5." in result["explanation"]


# the friend


def test_a_card_friend_is_revealed_in_the_trick_that_showed_the_card():
    result = trick_case("MT-01")
    assert result["facts"]["friend"] == {
        "form": "card",
        "card": "HA",
        "player": "Eve",
        "self_friend": False,
        "where": "player",
        "trick": 4,
    }
    assert "♥A was played by Eve in trick 4, so Eve is the friend." in result["explanation"]


def test_a_friend_card_in_the_kitty_is_said_so():
    result = scored(hand(15, "H", 3, friend={"card": "HK", "kitty": True}))
    facts = result["facts"]["friend"]
    assert (facts["where"], facts["self_friend"], facts["player"]) == ("kitty", True, None)
    first = result["explanation"][0]
    assert first == (
        "Ann is the boss with 15 hearts; friend: ♥K; the friend card was in the kitty "
        "(a self friend)."
    )
    assert "own hand or the kitty" not in text(result)


def test_a_friend_card_in_the_boss_hand_is_said_so():
    result = scored(hand(15, "H", 3, friend={"card": "HK", "player": "Ann"}))
    assert result["facts"]["friend"]["where"] == "hand"
    assert result["explanation"][0] == (
        "Ann is the boss with 15 hearts; friend: ♥K, in the boss's own hand (a self friend)."
    )


def test_an_unplayed_friend_card_entered_as_the_boss_is_in_the_kitty_by_the_tricks():
    case = copy.deepcopy(TRICK_CASES["MT-05"]["rounds"][0]["input"])
    case["friend"] = {"card": "HK", "player": "Ann"}
    result = scored(case, table())
    assert result["facts"]["friend"]["where"] == "kitty"
    assert "the friend card was in the kitty" in result["explanation"][0]


def test_a_first_trick_friend_is_revealed_in_trick_1():
    result = trick_case("MT-04")
    friend = result["facts"]["friend"]
    assert (friend["form"], friend["player"], friend["trick"]) == ("first_trick", "Dee", 1)
    assert "friend: Dee, who won trick 1." in result["explanation"][0]


def test_a_first_trick_friend_entered_without_tricks_was_still_revealed_in_trick_1():
    raw = hand(15, "H", 3, friend={"first_trick": "Cy"})
    result = scored(raw, table(friend_types=["card", "none", "first_trick"]))
    assert result["facts"]["friend"]["trick"] == 1
    assert result["facts"]["friend"]["player"] == "Cy"


def test_a_declared_no_friend():
    result = scored(hand(15, "H", 3, friend={"none": True}))
    assert result["facts"]["friend"]["form"] == "none"
    assert "friend: declared no friend." in result["explanation"][0]


# the play


def test_a_led_joker_names_its_suit_in_the_trick_lines():
    result = trick_case("MT-02")
    assert "Trick 10: Eve led the joker, naming clubs." in result["explanation"]
    line = result["explanation"].index("Trick 10: Eve led the joker, naming clubs.")
    assert result["explanation"][line + 1].startswith("Trick 10: ")


# the arithmetic's signs and decimal mark


def test_the_arithmetic_writes_a_times_sign():
    result = scored(hand(15, "NT", 8, friend={"none": True}), table(loss_multipliers=["no_trump"]))
    assert "Base 6 = 2 × (15 - 12); ×2 no-trump = 12." in result["explanation"]
    assert " x " not in text(result) and "x2" not in text(result)


def test_a_half_point_misdeal_hand_is_a_number_each_language_writes(app):
    raw = {
        "misdeal": {
            "player": "Ann",
            "hand": ["H10", "S2", "S3", "H4", "H5", "D6", "D7", "C8", "C9", "JK"],
        }
    }
    result = play(raw, table(misdeal="half_ten")).result
    assert result["hand_value"] == -0.5
    template, values = result["explanation_parts"][0]
    assert values["value"] == -0.5
    assert result["explanation"][0].startswith("Ann declared a misdeal: the hand is worth -0.5,")
    with app.test_request_context(headers={"Accept-Language": "hu"}):
        assert "-0,5" in fill(template, values)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert "-0.5" in fill(template, values)


def test_the_because_words_and_rule_labels_cover_every_code():
    assert all(RULE_LABELS[key] for key in RULE_LABELS)
    assert len(set(BECAUSE.values())) == len(BECAUSE)
