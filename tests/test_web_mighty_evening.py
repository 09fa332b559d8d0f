"""Mighty's hand form for the rounds a table plays every few hands, posted as the page does: a
misdeal the table saw in one tap (and corrected), the auction's "everyone else passes", and the
contract shown once the auction is won."""

from __future__ import annotations

import json
import re

from .conftest import shown
from .test_web_mighty import PLAYERS, Table, hand_fields, new_session, selected, stored


def test_shown_to_the_table_stores_the_misdeal_without_its_cards(client, api, app):
    sid = new_session(api)
    data = {"action": "misdeal_shown", "dealer": "Ann", "misdeal_player": "Ben"}
    response = client.post(f"/sessions/{sid}/rounds", data={**data, **hand_fields()})
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.input == {"dealer": "Ann", "misdeal": {"player": "Ben", "shown": True}}
    assert set(played.result["deltas"].values()) == {0}
    page = shown(client.get(f"/sessions/{sid}"))
    history = page.split('id="round-1"')[1].split("</li>")[0]
    assert "by Ben · hand shown to the table, not entered" in history


def test_shown_with_cards_tapped_checks_them(client, api, app):
    sid = new_session(api)
    data = {"action": "misdeal_shown", "misdeal_player": "Ben"}
    data["misdeal_hand"] = "SA SK SQ SJ S10 HA HK HQ HJ H10"
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    assert "hand is worth 9" in page
    assert re.search(r'<details class="mighty-misdeal-cards" open>', page)
    assert not stored(app)


def test_shown_without_a_declarer_is_refused_by_its_field(client, api, app):
    sid = new_session(api)
    response = client.post(f"/sessions/{sid}/rounds", data={"action": "misdeal_shown"})
    assert response.status_code == 422
    assert "Declared by: fill this in." in shown(response)
    assert not stored(app)


def test_a_shown_misdeal_is_corrected_as_shown(client, api, app):
    sid = new_session(api)
    url = f"/sessions/{sid}/rounds"
    client.post(url, data={"action": "misdeal_shown", "misdeal_player": "Ben"})
    edit = shown(client.get(f"{url}/1/edit"))
    assert "stored as a <strong>throw-in (파토)</strong>" in edit
    assert re.search(r'name="misdeal_shown"[^>]*checked|checked[^>]*name="misdeal_shown"', edit)
    assert selected(edit, "misdeal_player") == "Ben"
    data = {"action": "record", "misdeal_player": "Cy", "misdeal_shown": "y"}
    assert client.post(f"{url}/1/edit", data=data).status_code == 302
    assert stored(app)[0].input == {"misdeal": {"player": "Cy", "shown": True}}


def test_everyone_else_passes_in_one_tap_and_the_contract_shows(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.dealer = "Ann"
    table.bid("Ann", 13, "S")
    table.bid("Ben", 14, "S")
    assert "Everyone else passes: Ben wins" in table.page
    table.post("pass_rest")
    passes = [{"player": name, "pass": True} for name in ("Cy", "Dee", "Eve", "Ann")]
    bids = [{"player": "Ann", "bid": 13, "trump": "S"}, {"player": "Ben", "bid": 14, "trump": "S"}]
    assert json.loads(table.log) == [*bids, *passes]
    page = table.page
    contract = page.split('<fieldset class="mighty-contract"')[1].split(">", 1)[0]
    assert "data-part-show" in contract
    assert "Now the contract after the kitty (바닥패)." in page
    boss_row = page.split('<label for="boss">')[0].rsplit("<div", 1)[1]
    assert "hidden" in boss_row and selected(page, "boss") == "Ben"
    assert 'data-part-line="auction: Ben 14 ♠"' in page
    fields = {**hand_fields(), "boss": "Ben", "contract_bid": "16", "contract_trump": "H"}
    response = table.post("record", **fields)
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.input["contract"] == {"boss": "Ben", "bid": 16, "trump": "H"}
    assert played.result["winning_bid"] == {"player": "Ben", "bid": 14, "trump": "S"}
    assert played.result["deltas"] == {"Ann": -6, "Ben": 12, "Cy": 6, "Dee": -6, "Eve": -6}
    assert sorted(played.result["deltas"]) == sorted(PLAYERS)


def test_everyone_else_passes_is_not_offered_before_a_bid_and_a_check_keeps_the_part(client, api):
    sid = new_session(api)
    table = Table(client, sid)
    table.dealer = "Ann"
    table.post("pass", bidder="Ann")
    assert 'value="pass_rest"' not in table.page
    table.bid("Ben", 13, "H")
    table.post("pass_rest")
    checked = table.post("check", **hand_fields(boss="Ben", contract_bid="13"))
    contract = shown(checked).split('<fieldset class="mighty-contract"')[1].split(">", 1)[0]
    assert "data-part-show" not in contract
