"""What comes next on the session page is decided by each game's table_view and only rendered."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from refapp.games.dalmuti import Dalmuti
from refapp.games.dalmuti import table_view as dalmuti_view
from refapp.games.dixit import Dixit
from refapp.games.dixit.table_view import next_storyteller
from refapp.games.game import Table
from refapp.games.mighty import Mighty
from refapp.games.mighty.house_rules.rules import MightyRules
from refapp.games.mighty.table_view import next_hand

from .conftest import SEED_TURN, shown, turn

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]
REFAPP = Path(__file__).parent.parent / "refapp"
TEMPLATES = REFAPP / "templates"
#: a dict literal inside a Jinja expression or tag: a fact the page would decide itself
INLINE_DICT = re.compile(r"(\{\{|\{%)[^}%]*\{\s*[\"']")


def facts(page: str) -> str:
    """Return the session page's "what comes next" box."""
    return page.split('class="next-up"', 1)[1].split('id="record"', 1)[0]


def test_the_session_templates_decide_nothing_in_inline_tables():
    pages = [TEMPLATES / "session.html", *REFAPP.glob("games/*/web/templates/*/status.html")]
    pages += REFAPP.glob("games/*/web/templates/*/summary.html")
    assert len(pages) == 7
    for page in pages:
        assert not INLINE_DICT.search(page.read_text(encoding="utf-8")), page.name


@pytest.mark.parametrize(
    "state",
    [
        {"next_dealer": None, "min_bid": 13, "kitty_open": False, "last_outcome": None},
        {"next_dealer": "Cy", "min_bid": 15, "kitty_open": True, "last_outcome": "all_pass"},
        {"next_dealer": "Dee", "min_bid": 13, "kitty_open": False, "last_outcome": "misdeal"},
        {"next_dealer": "Ben", "min_bid": 14, "kitty_open": False, "last_outcome": "hand"},
    ],
)
def test_mighty_public_state_is_table_views_next_hand(state):
    game = Mighty()
    table = Table(tuple(FIVE), game.resolve_rules({"next_dealer": "clockwise"}))
    public = game.public_state(table, state, {})
    coming = next_hand(MightyRules(table.rules), state)
    assert (public["next_dealer"], public["min_bid"], public["kitty_open"]) == (
        coming.dealer.dealer,
        coming.floor,
        coming.kitty_open,
    )
    assert next_hand(MightyRules(table.rules), public) == coming


def test_the_mighty_page_shows_table_views_next_hand(client, api):
    rules = {"all_pass": "open_kitty"}
    sid = api.create(players=FIVE, game="mighty", rules=rules)["id"]
    assert api.record(sid, {"dealer": "Dee", "all_pass": True}).status_code == 201
    state = api.session(sid)["state"]
    coming = next_hand(Mighty().resolve_rules(rules), state)
    box = facts(shown(client.get(f"/sessions/{sid}")))
    assert f"<strong>{coming.dealer.dealer}</strong>" in box and f"from {coming.floor}" in box
    assert "kitty (바닥패) is turned up" in box


def test_the_dixit_storyteller_comes_from_table_view(client, api):
    players = ("Ann", "Ben", "Cy", "Dee")
    sid = api.create(players=players)["id"]
    assert "anyone (whoever has a clue first)" in facts(shown(client.get(f"/sessions/{sid}")))
    assert api.record(sid, SEED_TURN).status_code == 201
    table = Dixit().with_house_rules(Table(players, Dixit().resolve_rules({})))
    expected = next_storyteller(table, {"last_storyteller": SEED_TURN["storyteller"]})
    assert api.session(sid)["state"]["next_storyteller"] == expected == "Ben"
    assert expected in facts(shown(client.get(f"/sessions/{sid}")))
    refused = api.record(sid, turn("Cy"), dry_run=True).get_json()["error"]
    assert refused["code"] == "wrong_storyteller"
    assert f"It is {expected}'s turn" in refused["message"]


def test_the_dalmuti_page_shows_table_views_next_hand(client, api):
    rules = {"hands_to_play": 3, "tax_first_hand": False}
    sid = api.create(players=FIVE, game="dalmuti", rules=rules)["id"]
    finish = ["Cy", "Ann", "Eve", "Ben", "Dee"]
    assert api.record(sid, {"finish_order": finish}).status_code == 201
    table = Table(tuple(FIVE), Dalmuti().resolve_rules(rules))
    coming = dalmuti_view.next_hand(table, {"ranks": finish, "hands_played": 1})
    assert (coming.number, coming.left, coming.dealer, coming.leader) == (2, 2, "Dee", "Cy")
    state = api.session(sid)["state"]
    assert (state["dealer"], state["leader"], state["hands_left"]) == ("Dee", "Cy", 2)
    box = facts(shown(client.get(f"/sessions/{sid}")))
    assert f"hand {coming.number} of {coming.total}" in box
    assert re.search(r"<strong>Dee</strong>.*?<span class=\"tag\">deals</span>", box, re.S)
