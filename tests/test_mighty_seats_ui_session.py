"""The new-session form at four to seven Mighty seats: options by seat count, seat defaults.

An option for some seat counts is marked for the page's script (data-seats), each choice's
seat defaults travel with the page (data-seat-fills), and what the form's fields show is what
the table gets: a field at the seat count's default is no change, a field that differs from it
is sent, whether or not the script moved it.
"""

from __future__ import annotations

import html
import json
import re

from refapp.games import GAMES
from refapp.web.forms.session import NewSessionForm

from .conftest import shown

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def form_data(app, players: list[str], **changes: str | list[str]) -> dict:
    """Return the new-session form's fields as the page fills them for the default preset."""
    with app.test_request_context("/sessions/new?game=mighty"):
        form = NewSessionForm.for_game(GAMES["mighty"], meta={"csrf": False})
        form.load_choice()
        data: dict = {"game": "mighty", "players": "\n".join(players)}
        data["preset"] = form.preset.data
        data["filled_from"] = form.filled_from.data
        for field in form.rule_fields():
            if field.type == "BooleanField":
                if field.data:
                    data[field.name] = "y"
            else:
                data[field.name] = field.data
    data.update(changes)
    return data


def started(client, data: dict) -> dict:
    """Post the form and return the session it started, read back through the API."""
    response = client.post("/sessions/new?game=mighty", data=data)
    assert response.status_code == 302, shown(response)[:2000]
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    return client.get(f"/api/sessions/{sid}").get_json()


def test_the_page_marks_options_by_seat_count_and_carries_the_seat_defaults(client):
    page = shown(client.get("/sessions/new?game=mighty"))
    six = page.index('name="rule_six_player_rule"')
    assert 'data-seats="6"' in page[page.rfind('<div class="rule"', 0, six) : six]
    seven = page.index('name="rule_seven_player_rule"')
    assert 'data-seats="7"' in page[page.rfind('<div class="rule"', 0, seven) : seven]
    found = re.search(r'data-seat-fills="([^"]*)"', page)
    assert found
    fills = json.loads(html.unescape(found.group(1)))
    four = fills[GAMES["mighty"].default_preset]["4"]
    assert four == {"rule_min_bid": "14", "rule_friend_forbidden": ["joker"]}
    assert "5" not in fills[GAMES["mighty"].default_preset]


def test_a_field_at_the_seat_default_is_no_change(client, app):
    data = form_data(app, FOUR, rule_min_bid="14", rule_friend_forbidden=["joker"])
    session = started(client, data)
    assert session["rules"]["min_bid"] == 14
    assert session["rules"]["friend_forbidden"] == ["joker"]
    assert "min_bid" not in session["rules_changed"]


def test_a_field_that_differs_from_the_seat_default_is_what_the_table_gets(client, app):
    # the page as served without its script still shows the preset's 13 and no forbidden card
    session = started(client, form_data(app, FOUR))
    assert session["rules"]["min_bid"] == 13
    assert session["rules"]["friend_forbidden"] == []
    assert "min_bid" in session["rules_changed"]


def test_six_seats_take_the_rule_chosen_for_six(client, app):
    six = [*FOUR, "Eve", "Fay"]
    session = started(client, form_data(app, six, rule_six_player_rule="dealer_sits_out"))
    assert session["rules"]["six_player_rule"] == "dealer_sits_out"
    assert session["rules"]["min_bid"] == 13
    assert session["state"]["sitters"] == 1 and session["state"]["kills"] == 0


def test_a_preset_for_some_seat_counts_is_marked_for_the_script(client):
    game = GAMES["mighty"]
    marked = game.presets[-1]
    assert marked.key == "network_kill" and marked.seats == (6, 7)
    page = shown(client.get("/sessions/new?game=mighty"))
    choice = page.index(f'value="{marked.key}"')
    assert 'data-seats="6 7"' in page[page.rfind("<label", 0, choice) : choice]
    first = page.index(f'value="{game.presets[0].key}"')
    assert "data-seats" not in page[page.rfind("<label", 0, first) : first]


def test_the_history_says_who_was_killed_by_which_card_and_who_rested(client, api):
    six = [*FOUR, "Eve", "Fay"]
    sid = api.create(players=six, game="mighty")["id"]
    hand = {
        "dealer": "Ann",
        "contract": {"boss": "Cy", "bid": 15, "trump": "H"},
        "kill": {"card": "JK", "player": "Eve", "misses": ["CK"]},
        "friend": {"card": "SA", "player": "Dee"},
        "opposition_points": 4,
    }
    assert api.record(sid, hand).status_code == 201
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Eve killed by Joker" in page.split("mighty-summary", 1)[1]
    rest = api.create(players=six, game="mighty", rules={"six_player_rule": "dealer_sits_out"})
    del hand["kill"]
    assert (
        api.record(
            rest["id"], {**hand, "dealer": "Fay", "contract": {**hand["contract"], "boss": "Ann"}}
        ).status_code
        == 201
    )
    summary = shown(client.get(f"/sessions/{rest['id']}")).split("mighty-summary", 1)[1]
    assert "resting: Fay" in summary.split("</span>\n</span>", 1)[0]


def test_a_6ma_round_is_corrected_with_its_kill_in_the_fields(client, api):
    six = [*FOUR, "Eve", "Fay"]
    sid = api.create(players=six, game="mighty")["id"]
    hand = {
        "dealer": "Ann",
        "contract": {"boss": "Cy", "bid": 15, "trump": "H"},
        "kill": {"card": "JK", "player": "Eve", "misses": ["CK", "D10"]},
        "friend": {"card": "SA", "player": "Dee"},
        "opposition_points": 4,
    }
    assert api.record(sid, hand).status_code == 201
    page = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert re.search(r'id="kill_card" name="kill_card" [^>]*value="JK"', page)
    assert re.search(r'id="kill_misses" name="kill_misses" [^>]*value="CK D10"', page)
    assert '<option selected value="Eve">' in page.split('name="kill_player"', 1)[1]
    data = {
        "action": "record",
        "dealer": "Ann",
        "boss": "Cy",
        "contract_bid": "15",
        "contract_trump": "H",
        "kill_card": "JK",
        "kill_player": "Fay",  # it was Fay who held the joker
        "kill_misses": "CK",
        "friend_kind": "card",
        "friend_card": "SA",
        "friend_player": "Dee",
        "opposition_points": "4",
    }
    assert client.post(f"/sessions/{sid}/rounds/1/edit", data=data).status_code == 302
    played = api.session(sid)["rounds"][0]
    assert played["input"]["kill"] == {"card": "JK", "player": "Fay", "misses": ["CK"]}
    assert played["result"]["deltas"]["Fay"] == 0 and played["result"]["deltas"]["Eve"] == -5
    refused = client.post(f"/sessions/{sid}/rounds/1/edit", data={**data, "kill_player": "Cy"})
    assert refused.status_code == 422
    after_kill = shown(refused).split('name="kill_player"', 1)[1].split("</fieldset>", 1)[0]
    assert 'class="error"' in after_kill  # the refusal stands by the killed player's field


def test_the_status_says_how_the_hand_is_dealt_and_who_rests(client, api):
    six = [*FOUR, "Eve", "Fay"]
    sid = api.create(players=six, game="mighty")["id"]
    page = shown(client.get(f"/sessions/{sid}"))
    assert "8 cards each, 5 in the kitty" in page and "the boss kills 1 player" in page
    rules = {"seven_player_rule": "ruling_side_sits_out"}
    seven = api.create(players=[*six, "Gus"], game="mighty", rules=rules)["id"]
    page = shown(client.get(f"/sessions/{seven}"))
    assert "10 cards each, 3 in the kitty" in page and "the hand names the 2 who rest" in page
    five = shown(client.get(f"/sessions/{api.create(players=six[:5], game='mighty')['id']}"))
    assert not re.search(r"\d+ in the kitty", five)  # five seats: the deal needs no line


def test_a_7ma_hand_posted_from_the_plain_fields_is_stored_with_both_kills(client, api):
    seven = [*FOUR, "Eve", "Fay", "Gus"]
    sid = api.create(players=seven, game="mighty")["id"]
    data = {
        "action": "record",
        "boss": "Eve",
        "contract_bid": "17",
        "contract_trump": "D",
        "kill_card": "sa",
        "kill_player": "Ann",
        "kill2_card": "JK",
        "kill2_player": "Gus",
        "kill2_misses": "HA",
        "friend_kind": "card",
        "friend_card": "CA",
        "friend_player": "Ben",
        "opposition_points": "0",
    }
    assert client.post(f"/sessions/{sid}/rounds", data=data).status_code == 302
    played = api.session(sid)["rounds"][0]
    assert played["input"]["kill"] == [
        {"card": "SA", "player": "Ann"},
        {"card": "JK", "player": "Gus", "misses": ["HA"]},
    ]
    assert played["result"]["deltas"] == {
        "Ann": 0, "Ben": 14, "Cy": -14, "Dee": -14, "Eve": 28, "Fay": -14, "Gus": 0
    }  # fmt: skip


def test_the_bidder_starts_after_a_resting_dealer(client, api):
    six = [*FOUR, "Eve", "Fay"]
    rules = {"six_player_rule": "dealer_sits_out"}
    sid = api.create(players=six, game="mighty", rules=rules)["id"]
    hand = {
        "dealer": "Fay",
        "contract": {"boss": "Ann", "bid": 13, "trump": "C"},
        "friend": {"card": "SA", "player": "Ben"},
        "opposition_points": 7,
    }
    assert api.record(sid, hand).status_code == 201  # Ben, the friend, deals and rests next
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    bidder = page.split('name="bidder"', 1)[1].split("</select>", 1)[0]
    assert '<option selected value="Cy">' in bidder
    assert '<option disabled value="Ben">' in bidder
