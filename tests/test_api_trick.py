"""POST /api/mighty/trick: one trick judged without a session - the referee's "who takes this?"."""

from __future__ import annotations


def judge(client, body, **headers):
    """Post one trick and return (status, JSON)."""
    response = client.post("/api/mighty/trick", json=body, headers=headers)
    return response.status_code, response.get_json()


def test_a_dead_first_trick_joker_loses_to_the_led_suit(client):
    plays = [
        {"player": "Ann", "card": "H5"},
        {"player": "Ben", "card": "JK"},
        {"player": "Cy", "card": "HK"},
        {"player": "Dee", "card": "H2"},
        {"player": "Eve", "card": "C4"},
    ]
    status, body = judge(client, {"trump": "S", "trick": 1, "plays": plays})
    assert status == 200, body
    assert (body["winner"], body["reason"]) == ("Cy", "lead")
    assert body["points"] == ["HK"]


def test_the_joker_wins_a_later_trick_but_not_when_called(client):
    plays = [
        {"player": "Ann", "card": "C3", "call": True},
        {"player": "Ben", "card": "JK"},
        {"player": "Cy", "card": "CA"},
        {"player": "Dee", "card": "C10"},
        {"player": "Eve", "card": "C2"},
    ]
    status, body = judge(client, {"trump": "H", "trick": 4, "plays": plays})
    assert (status, body["winner"], body["reason"]) == (200, "Cy", "lead")
    assert sorted(body["points"]) == ["C10", "CA"]
    plays[0] = {"player": "Ann", "card": "C5"}
    status, body = judge(client, {"trump": "H", "trick": 4, "plays": plays})
    assert (body["winner"], body["reason"]) == ("Ben", "joker")


def test_a_bad_card_is_refused_with_its_field_and_needs_no_password(client, app):
    app.config["PASSWORD"] = "owl"
    status, body = judge(client, {"trump": "S", "trick": 2, "plays": [{"card": "X9"}]})
    assert status == 422
    assert body["error"]["code"] == "invalid_card"
    assert body["error"]["field"].startswith("plays.0")
