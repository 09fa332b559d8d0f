"""Each Mighty rule fact the pages show is the rules' own: a second copy would disagree here."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from flask_babel import gettext

from refapp.games.mighty import Mighty
from refapp.games.mighty.bidding.auction import auction_floor, next_floor
from refapp.games.mighty.cards import SUIT_SYMBOLS, parse_card
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.scoring.score import (
    FIXED_RUN_M,
    MULTIPLIER_NAMES,
    MULTIPLIERS,
    RUN_FIXED,
    STEPS,
)
from refapp.games.mighty.tricks.trick import TRICKS, Play, Specials, call_has_power, dead_joker
from refapp.games.mighty.web.words import TRUMP_LABELS
from refapp.web.game_pages import pages_of

from .conftest import shown

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: a declared run at no-trump, alone, without the mighty and the joker: every win's multiplier
EVERY_DOUBLE = {
    "dealer": "Ann",
    "contract": {"boss": "Ben", "bid": 20, "trump": "NT"},
    "friend": {"none": True},
    "opposition_points": 0,
    "mighty_holder": "kitty",
    "joker_holder": "kitty",
}
DOUBLES = {
    "declared_run_double": True,
    "double_no_mighty": True,
    "double_no_joker": True,
    "double_no_friend": True,
}


def history(client, sid: int) -> str:
    """Return the session page's first round, as a reader sees it."""
    return shown(client.get(f"/sessions/{sid}")).split('id="round-1"')[1].split("</li>")[0]


def test_the_summary_names_each_multiplier_as_scoring_does(client, api):
    sid = api.create(players=PLAYERS, game="mighty", rules=DOUBLES)["id"]
    response = api.record(sid, EVERY_DOUBLE)
    assert response.status_code == 201, response.get_json()
    multipliers = api.session(sid)["rounds"][0]["result"]["multipliers"]
    assert set(multipliers) >= {"run", "declared_run", "no_trump", "no_friend"}
    line = history(client, sid).replace("&#39;", "'")
    with client.application.test_request_context():
        for name in multipliers:
            assert f"×2 {gettext(MULTIPLIER_NAMES[name])}" in line
    assert set(MULTIPLIER_NAMES) == set(STEPS) == set(MULTIPLIERS)


def test_a_fixed_run_is_worth_the_rules_figure_everywhere(client, api):
    sid = api.create(players=PLAYERS, game="mighty", rules={"run": "fixed_20"})["id"]
    hand = {
        "contract": {"boss": "Ben", "bid": 15, "trump": "S"},
        "friend": {"card": "JK", "player": "Cy"},
        "opposition_points": 0,
    }
    assert api.record(sid, hand).status_code == 201
    result = api.session(sid)["rounds"][0]["result"]
    assert result["m"] == FIXED_RUN_M and result["multipliers"][0] == "run"
    assert f"m = {FIXED_RUN_M} (5 → {FIXED_RUN_M} run" in history(client, sid)
    assert re.search(rf"\b{FIXED_RUN_M}\b", RUN_FIXED)


@pytest.mark.parametrize("number", range(1, TRICKS + 1))
@pytest.mark.parametrize("call", ["", "1"])
def test_the_trick_page_calls_the_joker_dead_when_the_rules_do(client, number, call):
    response = client.get(f"/trick?trump=H&trick={number}&cards=C3,JK,CA,C10,C2&suit=&call={call}")
    assert response.status_code == 200
    lead = Play(None, "C3", call=bool(call))
    specials = Specials.of("H", Mighty().resolve_rules({}))
    dead = dead_joker(number, lead, specials)
    powerless = lead.call and not call_has_power(number, lead, specials)
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert ("in the first trick (초구) has no power" in page) == powerless
    assert ("the joker had to come out, and it is dead" in page) == (dead == "called")
    first_or_last = dead == "first_or_last" and not powerless
    assert ("The joker (조커) is dead in the first trick" in page) == first_or_last


@pytest.mark.parametrize("min_bid", [13, 14])
def test_every_page_opens_the_auction_at_the_rules_floor(client, api, min_bid):
    rules = {"all_pass": "open_kitty", "min_bid": min_bid}
    sid = api.create(players=PLAYERS, game="mighty", rules=rules)["id"]
    typed = MightyRules(Mighty().resolve_rules(rules))
    floor = auction_floor(typed)
    assert floor == min_bid and api.session(sid)["state"]["min_bid"] == floor
    assert f"from {floor}" in shown(client.get(f"/sessions/{sid}"))
    assert api.record(sid, {"dealer": "Ann", "all_pass": True}).status_code == 201
    state = api.session(sid)["state"]
    raised = next_floor(typed, reopen=True)
    assert raised > floor and auction_floor(typed, state) == state["min_bid"] == raised
    page = shown(client.get(f"/sessions/{sid}"))
    assert f"from {raised}" in page and f"the auction starts again from {raised}" in page
    assert re.findall(r'name="action" value="bid_S_([0-9]+)"', page)[0] == str(raised)


@pytest.mark.parametrize(
    ("game", "players"),
    [("mighty", PLAYERS), ("dalmuti", PLAYERS[:4]), ("dixit", PLAYERS[:3])],
)
def test_the_page_hands_live_js_the_forms_storing_buttons(client, api, game, players):
    sid = api.create(players=players, game=game)["id"]
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    form = page.split('id="round-form"', 1)[1].split(">", 1)[0]
    storing = re.search(r'data-storing="([^"]*)"', form)
    assert storing and tuple(storing.group(1).split()) == pages_of(game).round_form.storing_actions
    script = (Path(client.application.static_folder) / "live.js").read_text(encoding="utf-8")
    assert not any(f'"{action}"' in script for action in ("misdeal", "all_pass", "check"))


def test_the_scripts_print_the_suits_the_rules_give_them(client, api):
    app = client.application
    folders = [app.static_folder, *(bp.static_folder for bp in app.blueprints.values())]
    scripts = [script for folder in folders if folder for script in Path(folder).glob("*.js")]
    assert len(scripts) >= 8
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert not any(symbol in text for symbol in SUIT_SYMBOLS.values()), script.name
    sid = api.create(players=PLAYERS, game="mighty")["id"]
    for url in ("/trick", f"/sessions/{sid}"):
        page = client.get(url).get_data(as_text=True)
        given = re.search(r'data-symbols="([^"]*)"', page)
        assert given and json.loads(html.unescape(given.group(1))) == SUIT_SYMBOLS, url
    assert {parse_card(symbol + "A") for symbol in SUIT_SYMBOLS.values()} == {
        suit + "A" for suit in SUIT_SYMBOLS
    }


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_the_trump_labels_carry_the_rules_symbols_in_every_language(client, language):
    with client.application.test_request_context(headers={"Accept-Language": language}):
        for suit, symbol in SUIT_SYMBOLS.items():
            assert str(TRUMP_LABELS[suit]).startswith(f"{symbol} "), (language, suit)
