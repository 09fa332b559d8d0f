"""A Mighty hand's facts through the API: the result's ``facts`` and the sentences on them."""

from __future__ import annotations

from .conftest import shown

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: docs/API.md's facts example: Cy wins the auction at 14 hearts and changes to 16 spades, calls
#: ♦A (the mighty under spades), which Dee holds; the joker is buried
HAND = {
    "bidding": [
        {"player": "Cy", "bid": 14, "trump": "H"},
        *({"player": name, "pass": True} for name in ("Dee", "Eve", "Ann", "Ben")),
    ],
    "contract": {"boss": "Cy", "bid": 16, "trump": "S"},
    "friend": {"card": "DA", "player": "Dee"},
    "opposition_points": 3,
    "mighty_holder": "friend",
    "joker_holder": "kitty",
}
FACTS = {
    "contract": {"boss": "Cy", "bid": 16, "trump": "S"},
    "winning_bid": {"player": "Cy", "bid": 14, "trump": "H"},
    "contract_change": {
        "from": {"bid": 14, "trump": "H"},
        "to": {"bid": 16, "trump": "S"},
        "raised_by": 2,
        "price": 16,
        "cost": 2,
        "rule": "suit_change_cost",
    },
    "mighty": {
        "card": "DA",
        "holder": "friend",
        "player": "Dee",
        "trick": None,
        "friend_card": True,
    },
    "joker": {"card": "JK", "holder": "kitty", "player": None, "trick": None, "friend_card": False},
    "friend": {
        "form": "card",
        "card": "DA",
        "player": "Dee",
        "self_friend": False,
        "where": "player",
        "trick": None,
    },
    "multipliers": [
        {
            "name": "no_joker",
            "applied": True,
            "because": "joker_in_kitty",
            "rule": "double_no_joker",
        }
    ],
}
SENTENCES = [
    "Cy won the auction with 14 hearts; the contract changes it to 16 spades, 2 more: the house "
    "rule “Raise to change to another suit” asks 2 more, so at least 16.",
    "The mighty under spades is ♦A, held by the friend Dee.",
    "The joker was buried in the kitty.",
    "The friend card is the mighty itself (♦A).",
    "Base 6 = 16 - 10; ×2 no joker = 12.",
    "×2 for no joker (노조커): the joker was buried in the kitty (house rule “Win without the "
    "joker doubles”).",
]


def test_a_recorded_hand_carries_its_facts_and_says_them(client, api):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    response = api.record(sid, HAND)
    assert response.status_code == 201, response.get_json()
    result = api.session(sid)["rounds"][0]["result"]
    assert result["deltas"] == {"Ann": -12, "Ben": -12, "Cy": 24, "Dee": 12, "Eve": -12}
    assert result["facts"] == FACTS
    for line in SENTENCES:
        assert line in result["explanation"]
    page = shown(client.get(f"/sessions/{sid}")).replace("&#39;", "'")
    assert "The friend card is the mighty itself (♦A)." in page


def test_a_dry_run_of_a_whole_hand_shows_the_facts_without_storing(api):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    response = api.record(sid, HAND, dry_run=True)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["round"]["result"]["facts"] == FACTS
    assert api.session(sid)["rounds"] == []


def test_the_online_preset_says_why_a_declared_run_does_not_double_again(api):
    sid = api.create(players=PLAYERS, game="mighty", preset="online")["id"]
    hand = {
        "contract": {"boss": "Ann", "bid": 20, "trump": "H"},
        "friend": {"card": "HA", "player": "Ben"},
        "opposition_points": 0,
    }
    response = api.record(sid, hand)
    assert response.status_code == 201, response.get_json()
    result = api.session(sid)["rounds"][0]["result"]
    assert {"name": "declared_run", "applied": False, "because": "rule_off",
            "rule": "declared_run_double"} in result["facts"]["multipliers"]  # fmt: skip
    assert (
        "No ×2 for declared run: this table does not double for it (house rule “A declared run "
        "doubles again”)." in result["explanation"]
    )


def test_a_judged_trick_says_the_suit_a_led_joker_named(client):
    plays = [
        {"card": "JK", "suit": "D"},
        {"card": "D5"},
        {"card": "DK"},
        {"card": "H2"},
        {"card": "D2"},
    ]
    response = client.post("/api/mighty/trick", json={"trump": "S", "trick": 4, "plays": plays})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["reason"] == "joker"
    assert body["explanation"][0] == "Trick 4: the joker was led, naming diamonds."
    assert body["explanation"][1] == "Joker takes trick 4 (the joker); point cards: ♦K."
