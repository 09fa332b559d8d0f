"""The Mighty session page says why the next dealer deals, under each ``next_dealer`` rule."""

from __future__ import annotations

import html

import pytest

from refapp.games.mighty import OPTIONS
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.seats.dealer import REASON_RULES, ROTATIONS, reason_for
from refapp.games.mighty.web.words import DEALER_HINTS, DEALER_NOTES

from .conftest import shown

HAND = {
    "dealer": "Ann",
    "contract": {"boss": "Ben", "bid": 15, "trump": "H"},
    "friend": {"card": "JK", "player": "Cy"},
    "opposition_points": 3,
}


@pytest.mark.parametrize(
    ("rotation", "dealer", "words"),
    [
        ("previous_friend", "Cy", "the last hand's friend, or its boss"),
        ("clockwise", "Ben", "next after the last dealer"),
        ("boss_if_won_else_friend", "Ben", "the last hand's boss after a win"),
    ],
)
def test_the_next_dealer_is_worded_by_the_rotation(client, api, rotation, dealer, words):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = api.create(players=players, game="mighty", rules={"next_dealer": rotation})["id"]
    assert api.record(sid, HAND).status_code == 201
    assert api.session(sid)["state"]["next_dealer"] == dealer
    facts = shown(client.get(f"/sessions/{sid}")).split('<dl class="facts">')[1].split("</dl>")[0]
    assert f"<strong>{dealer}</strong>" in facts and words in facts.replace("&#39;", "'")


def dealer_hint(page: str) -> str:
    """Return the hint under the form's dealer field, as a reader sees it."""
    block = page.split('name="dealer"', 1)[1].split("</p>", 1)[0]
    return html.unescape(block.split('<p class="hint">', 1)[1])


def test_every_reason_the_rules_give_is_worded_by_the_page():
    assert set(DEALER_HINTS) == set(DEALER_NOTES) == set(REASON_RULES)
    choices = next(option.choices for option in OPTIONS if option.key == "next_dealer")
    assert tuple(choices) == ROTATIONS
    for rotation in ROTATIONS:
        state = {"next_dealer": "Ben", "last_outcome": "hand"}
        assert reason_for(MightyRules({"next_dealer": rotation}), state).rule == rotation


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_the_form_hint_gives_the_rule_in_force(client, api, rotation):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = api.create(players=players, game="mighty", rules={"next_dealer": rotation})["id"]
    assert api.record(sid, HAND).status_code == 201
    dealer = api.session(sid)["state"]["next_dealer"]
    hint = dealer_hint(shown(client.get(f"/sessions/{sid}")))
    assert hint.startswith(f"{dealer} ")
    with client.application.test_request_context():
        assert hint.startswith(str(DEALER_HINTS[rotation]) % {"dealer": dealer})
    # Ben (the boss) deals under clockwise too, but not as the last hand's friend or boss
    assert ("friend (or boss)" in hint) == (rotation == "previous_friend")
    assert ("sits next after" in hint) == (rotation == "clockwise")


def test_a_hand_without_a_dealer_leaves_the_next_one_free_under_clockwise(client, api):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = api.create(players=players, game="mighty", rules={"next_dealer": "clockwise"})["id"]
    assert api.record(sid, {k: v for k, v in HAND.items() if k != "dealer"}).status_code == 201
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Nobody knows who dealt the last hand: anyone may deal." in dealer_hint(page)
    facts = page.split('<dl class="facts">')[1].split("</dl>")[0]
    assert "first hand" not in facts
