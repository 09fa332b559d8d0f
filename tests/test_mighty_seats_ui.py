"""The Mighty hand form at six and seven seats: the kill and the sitters, fields to round input.

The form is built for a table from the state the rules show (``kills``, ``sitters``,
``sits_out``, ``sits_out_free``), filled as a phone posts it, and read into the API's round
input; a stored round's kill and sitters come back into the same fields for a correction, and
a refusal of them stands by the field that holds the value.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from refapp.games import GAMES
from refapp.games.errors import RuleViolation
from refapp.games.game import Table
from refapp.games.mighty.web.forms import MightyHandForm
from refapp.games.mighty.web.seats import Seats, seats_of

SIX = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
SEVEN = (*SIX, "Gus")
KILL_SIX = {"seats": 6, "kills": 1, "sitters": 0, "sits_out": None, "sits_out_free": False}
KILL_SEVEN = {"seats": 7, "kills": 2, "sitters": 0, "sits_out": None, "sits_out_free": False}
HAND = {
    "dealer": "Ann",
    "boss": "Cy",
    "contract_bid": "15",
    "contract_trump": "H",
    "friend_kind": "card",
    "friend_card": "SA",
    "friend_player": "Dee",
    "opposition_points": "4",
}


def form_for(app, players: tuple[str, ...], public: dict[str, Any], data: dict[str, str]):
    """Return the hand form of this table as a phone posted it (inside a request context)."""
    table = GAMES["mighty"].with_house_rules(Table(players))
    form_class = MightyHandForm.for_table(table, {}, public)
    context = app.test_request_context("/", method="POST", data={"action": "record", **data})
    context.push()
    form = form_class(meta={"csrf": False})
    return form, context


def composed(app, players, public, data) -> dict[str, Any]:
    """Return the round input the form makes of the posted fields."""
    form, context = form_for(app, players, public, data)
    try:
        return form.compose()
    finally:
        context.pop()


def test_a_six_seat_kill_with_misses_is_one_kill_object(app):
    data = {**HAND, "kill_card": " jk ", "kill_player": "Eve", "kill_misses": "SA, hk;D10"}
    entered = composed(app, SIX, KILL_SIX, data)
    assert entered["kill"] == {"card": "jk", "player": "Eve", "misses": ["SA", "hk", "D10"]}
    assert entered["contract"] == {"boss": "Cy", "bid": 15, "trump": "H"}
    assert entered["friend"] == {"card": "SA", "player": "Dee"}
    assert "sits_out" not in entered


def test_a_kill_without_misses_sends_no_misses_and_no_kill_when_blank(app):
    one = composed(app, SIX, KILL_SIX, {**HAND, "kill_card": "JK", "kill_player": "Eve"})
    assert one["kill"] == {"card": "JK", "player": "Eve"}
    assert "kill" not in composed(app, SIX, KILL_SIX, HAND)  # the rules say it is missing


def test_seven_seats_send_two_kills_in_the_order_named(app):
    data = {
        **HAND,
        "kill_card": "SA",
        "kill_player": "Ann",
        "kill2_card": "JK",
        "kill2_player": "Gus",
        "kill2_misses": "HA",
    }
    entered = composed(app, SEVEN, KILL_SEVEN, data)
    assert entered["kill"] == [
        {"card": "SA", "player": "Ann"},
        {"card": "JK", "player": "Gus", "misses": ["HA"]},
    ]


def test_seven_seats_half_a_second_kill_is_sent_as_entered(app):
    entered = composed(app, SEVEN, KILL_SEVEN, {**HAND, "kill_card": "SA", "kill_player": "Ann"})
    assert entered["kill"] == [{"card": "SA", "player": "Ann"}, {}]


def test_five_seats_have_no_kill_fields(app):
    form, context = form_for(app, SIX[:5], {}, {**HAND, "kill_card": "JK"})
    try:
        assert "kill_card" not in form._fields and "sits_out" not in form._fields
        assert "kill" not in form.compose()
    finally:
        context.pop()


def test_seven_resting_sitters_named_freely_are_sent_in_order(app):
    public = {"seats": 7, "kills": 0, "sitters": 2, "sits_out": None, "sits_out_free": True}
    entered = composed(app, SEVEN, public, {**HAND, "sits_out": "Eve", "sits_out2": "Bob"})
    assert entered["sits_out"] == ["Eve", "Bob"]
    assert "kill" not in entered
    misdeal = {
        "misdeal_player": "Ann",
        "misdeal_hand": "S2 S3",
        "sits_out": "Eve",
        "sits_out2": "Fay",
    }
    form, context = form_for(app, SEVEN, public, misdeal)
    try:
        with app.test_request_context("/", method="POST", data={"action": "misdeal", **misdeal}):
            assert form.compose()["sits_out"] == ["Eve", "Fay"]
    finally:
        context.pop()


def test_known_sitters_are_not_sent_and_are_greyed_in_the_choices(app):
    public = {
        "seats": 7,
        "kills": 0,
        "sitters": 2,
        "sits_out": ["Cy", "Dee"],
        "sits_out_free": False,
    }
    form, context = form_for(app, SEVEN, public, HAND)
    try:
        assert "sits_out" not in form.compose()
        for name in ("boss", "friend_player", "bidder", "misdeal_player"):
            greyed = [c.value for c in form[name].choices if (c.render_kw or {}).get("disabled")]
            assert greyed == ["Cy", "Dee"], name
        assert '<option disabled value="Dee">Dee</option>' in str(form.misdeal_player)
        assert '<option value="Eve">Eve</option>' in str(form.misdeal_player)
    finally:
        context.pop()


def test_six_seats_dealer_sits_out_names_no_sitter_field(app):
    public = {"seats": 6, "kills": 0, "sitters": 1, "sits_out": "Fay", "sits_out_free": False}
    form, context = form_for(app, SIX, public, {**HAND, "dealer": "Fay"})
    try:
        assert "sits_out" not in form._fields and "kill_card" not in form._fields
        entered = form.compose()
        assert entered["dealer"] == "Fay" and "sits_out" not in entered
        assert form.field_for("sits_out") is form.dealer  # a wrong sitter is the dealer's
    finally:
        context.pop()


def test_a_stored_kill_and_sitters_come_back_into_the_fields(app):
    stored = {
        **{"contract": {"boss": "Eve", "bid": 17, "trump": "D"}},
        "kill": [
            {"card": "SA", "player": "Ann"},
            {"card": "JK", "player": "Gus", "misses": ["HA", "D3"]},
        ],
    }
    table = GAMES["mighty"].with_house_rules(Table(SEVEN))
    data = MightyHandForm.for_table(table, {}, KILL_SEVEN).data_from(stored)
    assert (data["kill_card"], data["kill_player"]) == ("SA", "Ann")
    assert (data["kill2_card"], data["kill2_player"], data["kill2_misses"]) == (
        "JK",
        "Gus",
        "HA D3",
    )
    resting = {"seats": 7, "kills": 0, "sitters": 2, "sits_out": None, "sits_out_free": True}
    back = MightyHandForm.for_table(table, {}, resting).data_from({"sits_out": ["Cy", "Bob"]})
    assert (back["sits_out"], back["sits_out2"]) == ("Cy", "Bob")


@pytest.mark.parametrize(
    ("players", "public", "path", "field"),
    [
        (SIX, KILL_SIX, "kill.card", "kill_card"),
        (SIX, KILL_SIX, "kill.player", "kill_player"),
        (SIX, KILL_SIX, "kill.misses.1", "kill_misses"),
        (SIX, KILL_SIX, "kill", "kill_card"),
        (SEVEN, KILL_SEVEN, "kill.1.player", "kill_player"),
        (SEVEN, KILL_SEVEN, "kill.2.card", "kill2_card"),
        (SEVEN, KILL_SEVEN, "kill.2.player", "kill2_player"),
        (SEVEN, KILL_SEVEN, "kill.2.misses.1", "kill2_misses"),
        (SEVEN, KILL_SEVEN, "kill.2", "kill2_card"),
        (SIX, KILL_SIX, "friend.player", "friend_player"),
    ],
)
def test_a_refusal_stands_by_the_field_that_holds_it(app, players, public, path, field):
    form, context = form_for(app, players, public, HAND)
    try:
        form.show_violation(RuleViolation("invalid_kill", "Wrong kill.", path))
        assert form[field].errors == ["Wrong kill."]
    finally:
        context.pop()


def test_seats_fall_back_on_the_rules_when_the_state_says_nothing():
    assert seats_of(SIX, {}, {}) == Seats(6, 1, 0, (), False)
    assert seats_of(SEVEN, {"seven_player_rule": "ruling_side_sits_out"}, {}).free is True
    rests = seats_of(SIX, {"six_player_rule": "dealer_sits_out"}, {"sits_out": "Fay"})
    assert (rests.kills, rests.sitters, rests.resting, rests.dealer_rests) == (0, 1, ("Fay",), True)


def test_the_auction_pad_skips_the_resting_dealer(app):
    public = {"seats": 6, "kills": 0, "sitters": 1, "sits_out": "Fay", "sits_out_free": False}
    form, context = form_for(app, SIX, public, {"dealer": "Fay"})
    try:
        assert form.pad.auction is not None and form.pad.auction.next_bidder == "Ann"
    finally:
        context.pop()
    passes = [{"player": name, "pass": True} for name in SIX[:4]]
    log = json.dumps([*passes, {"player": "Eve", "bid": 13, "trump": "S"}])
    form, context = form_for(app, SIX, public, {"dealer": "Fay", "bidding": log})
    try:
        auction = form.pad.auction
        assert auction is not None and auction.finished and auction.leader == "Eve"
    finally:
        context.pop()
