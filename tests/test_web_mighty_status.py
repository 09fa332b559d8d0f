"""The Mighty session page says why the next dealer deals, under each ``next_dealer`` rule."""

from __future__ import annotations

import pytest

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
