"""The boss's declaration after the kitty: raising the contract and changing its trump."""

from __future__ import annotations

import pytest

from refapp.games.mighty.bidding.contract import allowed_contract_changes, contract_change_price

from .support import WON, hand, passes, play, table, typed_rules, violation


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
    rules = typed_rules({})
    assert contract_change_price(19, "H", "S", rules) == 20
    assert contract_change_price(19, "H", "NT", rules) == 20
    assert contract_change_price(15, "NT", "S", rules) == 17
    assert contract_change_price(20, "H", "S", rules) is None
    assert contract_change_price(20, "H", "NT", rules) is None
    assert contract_change_price(20, "H", "H", rules) == 20
    three = typed_rules({"from_no_trump_cost": 3, "allow_no_trump_at_20": True})
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


# -- regressions from the rules audit --------------------------------------------------------------


def test_no_trump_price_is_not_capped_at_20():
    """Suit -> NT: c1 >= c0 + to_no_trump_cost, with no cap (only suit changes are capped)."""
    rules = typed_rules({"to_no_trump_cost": 2})
    assert contract_change_price(18, "H", "NT", rules) == 20
    assert contract_change_price(19, "H", "NT", rules) == 21
    assert contract_change_price(19, "H", "S", rules) == 20
    bidding = [{"player": "Ann", "bid": 19, "trump": "H"}, *passes("Ben", "Cy", "Dee", "Eve")]
    error = violation(hand(20, "NT", 0, bidding=bidding), table(to_no_trump_cost=2))
    assert (error.code, error.field) == ("trump_change_too_cheap", "contract.bid")
    assert "21" in error.message
