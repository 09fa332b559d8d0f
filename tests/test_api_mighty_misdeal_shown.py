"""A Mighty misdeal the table saw (``"shown": true``, no cards) through the API: recorded, dry
run, corrected, exported and imported unchanged, and told in the history in three languages."""

from __future__ import annotations

import pytest

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
SHOWN = {"misdeal": {"player": "Cy", "shown": True}}
#: the hand after it: Cy deals (the misdeal's declarer), Dee 15♥ with Eve, a win of m = 5
HAND = {
    "dealer": "Cy",
    "contract": {"boss": "Dee", "bid": 15, "trump": "H"},
    "friend": {"card": "HA", "player": "Eve"},
    "opposition_points": 3,
}
WON = {"Ann": -5, "Ben": -5, "Cy": -5, "Dee": 10, "Eve": 5}


def error_of(response) -> tuple[int, str, str]:
    """Return a refusal's status, code and field."""
    error = response.get_json()["error"]
    return response.status_code, error["code"], error["field"]


def test_a_shown_misdeal_is_stored_without_cards_and_its_declarer_deals_next(api):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    response = api.record(sid, SHOWN)
    assert response.status_code == 201, response.get_json()
    stored = response.get_json()["round"]
    assert stored["input"] == SHOWN
    assert stored["result"]["deltas"] == dict.fromkeys(PLAYERS, 0)
    assert stored["result"]["hand_value"] is None
    assert "shown to the table and not entered" in stored["result"]["explanation"][0]
    assert api.session(sid)["state"]["next_dealer"] == "Cy"
    wrong = api.record(sid, {**HAND, "dealer": "Ann"})
    assert error_of(wrong)[:2] == (422, "wrong_dealer")
    assert api.record(sid, HAND).status_code == 201
    assert api.session(sid)["totals"] == WON


@pytest.mark.parametrize(
    ("misdeal", "rules", "refused"),
    [
        ({"player": "Cy"}, {}, (422, "missing_field", "misdeal.hand")),
        ({"player": "Cy", "shown": False}, {}, (422, "invalid_value", "misdeal.shown")),
        ({"player": "Cy", "shown": "true"}, {}, (422, "invalid_value", "misdeal.shown")),
        (
            {"player": "Cy", "shown": True},
            {"misdeal": "off"},
            (422, "misdeal_not_allowed", "misdeal"),
        ),
        ({"player": "Zoe", "shown": True}, {}, (422, "unknown_player", "misdeal.player")),
        (
            {"player": "Cy", "shown": True, "hand": ["SA", "SK", "SQ", "SJ", "S10"] * 2},
            {},
            (422, "invalid_hand", "misdeal.hand.6"),
        ),
    ],
)
def test_a_dry_run_refuses_exactly_what_recording_refuses(api, client, misdeal, rules, refused):
    sid = api.create(players=PLAYERS, game="mighty", rules=rules)["id"]
    body = {"misdeal": misdeal}
    checked = client.post(f"/api/sessions/{sid}/rounds?dry_run=1", json=body)
    recorded = api.record(sid, body)
    assert error_of(checked) == error_of(recorded) == refused
    assert api.session(sid)["rounds_total"] == 0


def test_a_dry_run_of_a_shown_misdeal_scores_zero_and_stores_nothing(api, client):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    checked = client.post(f"/api/sessions/{sid}/rounds?dry_run=1", json=SHOWN)
    assert checked.status_code == 200, checked.get_json()
    result = checked.get_json()["round"]["result"]
    assert result["deltas"] == dict.fromkeys(PLAYERS, 0) and result["outcome"] == "misdeal"
    assert api.session(sid)["rounds_total"] == 0


def test_corrections_export_and_import_replay_it_unchanged(api, client):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    first = {
        "dealer": "Ann",
        "contract": {"boss": "Ben", "bid": 14, "trump": "S"},
        "friend": {"card": "JK", "player": "Cy"},
        "opposition_points": 8,
    }
    assert api.record(sid, first).status_code == 201
    assert api.record(sid, {**SHOWN, "dealer": "Cy"}).status_code == 201
    assert api.record(sid, HAND).status_code == 201
    # correcting round 1 replays the shown misdeal after it, unchanged
    response = client.put(f"/api/sessions/{sid}/rounds/1", json={**first, "opposition_points": 6})
    assert response.status_code == 200, response.get_json()
    session = api.session(sid)
    assert session["rounds"][1]["input"] == {**SHOWN, "dealer": "Cy"}
    # round 1 now a critic (n = 14 = B): Ben +2, Cy +1, the others -1; then the hand after
    assert session["totals"] == {"Ann": -6, "Ben": -3, "Cy": -4, "Dee": 9, "Eve": 4}
    # a shown misdeal corrected into another declarer moves the next dealer: round 3 refused
    moved = client.put(
        f"/api/sessions/{sid}/rounds/2",
        json={"dealer": "Cy", "misdeal": {"player": "Ann", "shown": True}},
    )
    assert moved.status_code == 422 and moved.get_json()["error"]["code"] == "wrong_dealer"
    exported = client.get(f"/api/sessions/{sid}/export").get_json()
    imported = client.post("/api/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    again = api.session(imported.get_json()["id"])
    assert again["totals"] == session["totals"]
    assert [r["input"] for r in again["rounds"]] == [r["input"] for r in session["rounds"]]
    assert again["rounds"][1]["result"]["hand_value"] is None


@pytest.mark.parametrize(
    ("lang", "line", "said"),
    [
        ("en", "hand shown to the table, not entered", "shown to the table and not entered"),
        ("ko", "손패는 테이블에 보여 주고 입력하지 않음", "보여 주었고 입력하지 않았으므로"),
        ("hu", "a lapokat az asztal látta, nem lettek beírva", "látta őket, de nem lettek beírva"),
    ],
)
def test_the_history_says_the_hand_was_shown_not_entered(api, client, lang, line, said):
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    assert api.record(sid, SHOWN).status_code == 201
    client.get(f"/language/{lang}")
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    history = page.split('id="round-1"')[1].split("</li>")[0]
    assert line in history and said in history
    assert "None" not in history
