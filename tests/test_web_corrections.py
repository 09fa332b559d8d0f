"""Corrections that need two rounds at once: a Mighty hand's friend decides the next dealer,
so the correction page offers the next round's fields beside it and saves both, or neither."""

from __future__ import annotations

import re

from .conftest import shown

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def hand(dealer: str, friend: str, opposition: int = 3) -> dict:
    """Return a hand: Ann bids 15 hearts, the joker calls the friend, who held it."""
    return {
        "dealer": dealer,
        "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
        "friend": {"card": "JK", "player": friend},
        "opposition_points": opposition,
    }


def form_of(body: dict, prefix: str = "") -> dict:
    """Return the correction form's fields for a hand (prefixed for the next round's part)."""
    fields = {
        "dealer": body["dealer"],
        "boss": body["contract"]["boss"],
        "contract_bid": str(body["contract"]["bid"]),
        "contract_trump": body["contract"]["trump"],
        "friend_kind": "card",
        "friend_card": body["friend"]["card"],
        "friend_player": body["friend"]["player"],
        "opposition_points": str(body["opposition_points"]),
    }
    return {f"{prefix}{name}": value for name, value in fields.items()}


def two_hands(api) -> int:
    """Record two hands: Cy is the first hand's friend, so Cy deals the second."""
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    assert api.record(sid, hand("Ann", "Cy")).status_code == 201
    assert api.record(sid, hand("Cy", "Ben")).status_code == 201
    return sid


def test_the_correction_page_offers_the_next_round(client, api):
    sid = two_hands(api)
    page = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert "Round 2 must change too?" in page
    assert 'name="next-dealer"' in page and 'name="also_next"' in page
    last = shown(client.get(f"/sessions/{sid}/rounds/2/edit"))
    assert "must change too?" not in last


def test_the_next_round_part_has_no_buttons_that_would_act_on_the_first(client, api):
    sid = two_hands(api)
    page = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    part = page.split('id="next-round"')[1].split('class="buttons record-bar"')[0]
    assert set(re.findall(r'name="action" value="([^"]+)"', part)) <= {"check"}
    assert "This auction stays as recorded" in part


def test_a_friend_corrected_alone_is_refused_naming_the_next_dealer(client, api):
    sid = two_hands(api)
    before = api.session(sid)
    fields = {**form_of(hand("Ann", "Dee")), "action": "record"}
    response = client.post(f"/sessions/{sid}/rounds/1/edit", data=fields)
    page = shown(response)
    assert response.status_code == 422
    assert "Round 2 would break a rule" in page and "Correct it below" in page
    assert 'id="next-round" open' in page and 'id="also_next" checked' in page
    assert api.session(sid)["rounds"] == before["rounds"]  # nothing changed


def test_both_rounds_are_saved_together(client, api):
    sid = two_hands(api)
    fields = {
        **form_of(hand("Ann", "Dee")),
        **form_of(hand("Dee", "Ben"), "next-"),
        "also_next": "1",
        "action": "record",
    }
    response = client.post(f"/sessions/{sid}/rounds/1/edit", data=fields)
    assert response.status_code == 302, shown(response)
    session = api.session(sid)
    assert session["rounds"][0]["input"]["friend"]["player"] == "Dee"
    assert session["rounds"][1]["input"]["dealer"] == "Dee"
    corrected = [entry for entry in api.audit(sid) if entry["action"] == "replace_round"]
    assert [entry["round"] for entry in corrected] == [1, 2]
    assert corrected[1]["before"]["dealer"] == "Cy" and corrected[1]["after"]["dealer"] == "Dee"


def test_a_refused_next_round_changes_neither(client, api):
    sid = two_hands(api)
    before = api.session(sid)["rounds"]
    fields = {
        **form_of(hand("Ann", "Dee")),
        **form_of(hand("Eve", "Ben"), "next-"),  # Eve may not deal: Dee was the friend
        "also_next": "1",
        "action": "record",
    }
    response = client.post(f"/sessions/{sid}/rounds/1/edit", data=fields)
    assert response.status_code == 422
    assert 'id="refused-next"' in shown(response)
    assert api.session(sid)["rounds"] == before
