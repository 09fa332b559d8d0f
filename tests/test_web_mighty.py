"""The Mighty pages: the auction pad, the contract, the friend, the points, zero rounds, edits."""

from __future__ import annotations

import html
import re

import pytest

from refapp.extensions import db
from refapp.models import Round

from .conftest import shown

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: ten cards worth 0 under the default misdeal count (point cards 1, SA 0, joker -1)
WEAK_HAND = "S2 S3 H4 H5 D6 D7 C8 C9 HK JK"


def new_session(api, **rules) -> int:
    """Start a Mighty session through the API and return its id."""
    return api.create(players=PLAYERS, game="mighty", rules=rules)["id"]


def hidden(page: str, name: str) -> str:
    """Return the value of a hidden input on the page, as a browser would post it back."""
    found = re.search(rf'<input id="{name}" name="{name}" type="hidden" value="([^"]*)">', page)
    assert found, f"no hidden field {name}"
    return html.unescape(found.group(1))


def selected(page: str, name: str) -> str | None:
    """Return the selected option of a select on the page."""
    block = page.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
    found = re.search(r'<option selected value="([^"]*)">', block)
    return found.group(1) if found else None


def block_after(page: str, name: str, end: str = "</fieldset>") -> str:
    """Return the page from a field up to the end of its part, where its messages stand."""
    return page.split(f'name="{name}"', 1)[1].split(end, 1)[0]


def offered(page: str) -> list[str]:
    """Return the bids the auction pad offers, lowest first: its buttons' values (bid_S_13)."""
    return re.findall(r'name="action" value="(bid_[A-Z]+_[0-9]+)"', page)


def pad_messages(page: str, field: str) -> str:
    """Return the auction pad's part where a field's refusal stands: after the bidder's select
    (a bid out of turn), after the grid of bids (a bid's count or trump)."""
    if field == "bidder":
        return block_after(page, "bidder", 'class="mighty-bids"')
    return page.split('id="bid_count"', 1)[1].split("mighty-pad-buttons", 1)[0]


def stored(app) -> list[Round]:
    """Return the stored rounds in order."""
    with app.app_context():
        rounds = db.session.query(Round).order_by(Round.number).all()
        db.session.expunge_all()
        return rounds


class Table:
    """Posts the Mighty form as the phone in the middle of the table does."""

    def __init__(self, client, sid: int, url: str | None = None) -> None:
        self.client = client
        self.url = url or f"/sessions/{sid}/rounds"
        self.sid = sid
        self.log = ""
        self.dealer = ""
        self.page = ""

    def post(self, action: str, **fields):
        """Post the form with the current bidding log; keep the page when it re-renders."""
        data = {"dealer": self.dealer, "bidding": self.log, "action": action, **fields}
        response = self.client.post(self.url, data=data)
        if response.status_code != 302:
            self.page = shown(response)
            self.log = hidden(self.page, "bidding")
        return response

    def bid(self, player: str, count: int, trump: str):
        """Tap a bid on the auction pad: the grid's button carries its count and trump."""
        return self.post(f"bid_{trump}_{count}", bidder=player)

    def pass_(self, player: str):
        """Tap pass on the auction pad."""
        return self.post("pass", bidder=player)


def hand_fields(**extra) -> dict:
    """Return the end-of-hand fields: Ann 15 hearts, friend JK held by Cy, opposition 3."""
    return {
        "boss": "Ann",
        "contract_bid": "15",
        "contract_trump": "H",
        "friend_kind": "card",
        "friend_card": "JK",
        "friend_player": "Cy",
        "opposition_points": "3",
        **extra,
    }


def test_session_page_shows_the_dealer_the_special_cards_and_the_form(client, api):
    sid = new_session(api)
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Deals next" in page and "anyone (first hand)" in page
    spades = page.split('<tr data-trump="S">')[1].split("</tr>")[0]
    clubs = page.split('<tr data-trump="C">')[1].split("</tr>")[0]
    hearts = page.split('<tr data-trump="H">')[1].split("</tr>")[0]
    assert "DA" in spades and "C3" in spades
    assert "SA" in clubs and "S3" in clubs
    assert "SA" in hearts and "C3" in hearts
    assert "Boss (주공)" in page and "No-trump (노기루다)" in page and "Throw-in (파토)" in page
    assert "to bid: at least 13, or pass." in page
    assert 'name="opposition_points"' in page and "Record round 1" in page


def test_special_cards_follow_the_house_rules(client, api):
    sid = new_session(api, alt_mighty="HA", alt_joker_call="H3")
    page = shown(client.get(f"/sessions/{sid}"))
    assert "HA" in page.split('<tr data-trump="S">')[1].split("</tr>")[0]
    assert "H3" in page.split('<tr data-trump="C">')[1].split("</tr>")[0]


def test_record_a_whole_hand_through_the_auction_pad(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.dealer = "Ann"
    response = table.bid("Ann", 13, "S")
    assert response.status_code == 200
    turn = "<strong>Ben</strong> to bid: at least 13 no-trump or 14 in a suit, or pass."
    assert turn in table.page
    assert selected(table.page, "bidder") == "Ben"
    assert offered(table.page)[:2] == ["bid_NT_13", "bid_S_14"]  # 13 only in no-trump
    assert offered(table.page)[-1] == "bid_NT_20" and len(offered(table.page)) == 1 + 7 * 5
    assert "Checked: nothing wrong" not in table.page  # the pad says where the auction stands

    table.pass_("Ben")
    table.bid("Cy", 14, "H")
    assert "Highest: Cy, 14 hearts · passed: Ben" in table.page
    table.pass_("Dee")
    table.pass_("Eve")
    table.bid("Ann", 15, "H")
    assert "<strong>Cy</strong> to bid: at least 15 no-trump or 16 in a suit" in table.page
    table.pass_("Cy")
    assert "Ann won the auction with 15 hearts" in table.page
    assert 'value="pass"' not in table.page  # the pad is closed
    # the contract starts from the winning bid, with the price of each change
    assert selected(table.page, "boss") == "Ann"
    assert selected(table.page, "contract_bid") == "15"
    assert 'checked data-mighty-trump="1" id="contract_trump-1" name="contract_trump"' in table.page
    prices = table.page.split('class="mighty-prices"')[1].split("</table>")[0]
    assert re.search(r"No-trump \(노기루다\)</th>\s*<td>16 to 20</td>", prices)
    assert re.search(r"♠ Spades</th>\s*<td>17 to 20</td>", prices)
    assert re.search(r"♥ Hearts \(kept\)</th>\s*<td>15 to 20</td>", prices)
    assert not stored(app)

    response = table.post(
        "record", **hand_fields(contract_bid="16", contract_trump="NT"), expected_round="1"
    )
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.input == {
        "dealer": "Ann",
        "bidding": [
            {"player": "Ann", "bid": 13, "trump": "S"},
            {"player": "Ben", "pass": True},
            {"player": "Cy", "bid": 14, "trump": "H"},
            {"player": "Dee", "pass": True},
            {"player": "Eve", "pass": True},
            {"player": "Ann", "bid": 15, "trump": "H"},
            {"player": "Cy", "pass": True},
        ],
        "contract": {"boss": "Ann", "bid": 16, "trump": "NT"},
        "friend": {"card": "JK", "player": "Cy"},
        "opposition_points": 3,
    }
    # n = 17 > 16: base 6, x2 no-trump = 12; boss +24, friend +12, the other three -12
    assert played.result["deltas"] == {"Ann": 24, "Ben": -12, "Cy": 12, "Dee": -12, "Eve": -12}
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Round 1 recorded." in page
    standings = page.split('id="standings"')[1].split("</table>")[0]
    assert re.search(r"<td>Ann</td><td class=\"num\">24</td>", standings)
    assert re.search(r"<td>Dee</td><td class=\"num\">-12</td>", standings)
    assert "<strong>Cy</strong>" in page.split("Deals next")[1].split("</dd>")[0]
    history = page.split('id="round-1"')[1].split("</li>")[0]
    assert "Boss (주공) <b>Ann</b>" in history and "16 NT" in history
    assert "(won at 15 ♥)" in history and "friend (프렌드) Cy, Joker" in history
    assert "Ruling side won (여당 승)" in history and "m = 12 (6 ×2 no-trump (노기루다))" in history


def test_take_back_the_last_bid(client, api):
    sid = new_session(api)
    table = Table(client, sid)
    table.bid("Ann", 13, "S")
    table.bid("Ben", 14, "D")
    assert "Highest: Ben, 14 diamonds" in table.page
    table.post("unbid")
    assert "Highest: Ann, 13 spades" in table.page
    assert selected(table.page, "bidder") == "Ben"
    table.post("unbid")
    assert table.log == "" and "Take back last" not in table.page


@pytest.mark.parametrize(
    ("player", "count", "trump", "field", "message"),
    [
        ("Ben", 14, "H", "bid_count", "does not beat Ann&#39;s 14 spades"),
        ("Ben", 13, "NT", "bid_count", "Ben&#39;s bid of 13 no-trump does not beat"),
        ("Cy", 15, "H", "bidder", "It is Ben&#39;s turn to bid, but entry 2 is by &#39;Cy&#39;."),
        ("Ben", 21, "H", "bid_count", "A bid of 21 is more than the 20 point cards"),
    ],
)
def test_refused_bid_stands_by_the_pad_and_changes_nothing(
    client, api, app, player, count, trump, field, message
):
    sid = new_session(api)
    table = Table(client, sid)
    table.dealer = "Ann"
    table.bid("Ann", 14, "S")
    log = table.log
    response = table.bid(player, count, trump)
    assert response.status_code == 422
    assert message in pad_messages(table.page, field)
    assert table.log == log  # the refused entry is not kept
    assert "<strong>Ben</strong> to bid" in table.page
    assert not stored(app)


def test_bid_after_pass_is_refused(client, api):
    sid = new_session(api)
    table = Table(client, sid)
    table.bid("Ann", 13, "S")
    table.pass_("Ben")
    table.pass_("Cy")
    table.pass_("Dee")
    response = table.bid("Ben", 15, "H")  # Eve's turn; Ben already passed
    assert response.status_code == 422
    assert "Ben already passed and may not bid again" in block_after(
        table.page, "bidder", 'class="mighty-bids"'
    )


def test_changing_the_dealer_after_the_first_bid_is_refused_by_the_bidder(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.dealer = "Ann"
    table.bid("Ann", 13, "S")
    table.dealer = "Cy"
    response = table.pass_("Ben")
    assert response.status_code == 422
    message = "It is Cy&#39;s turn to bid, but entry 1 is by &#39;Ann&#39;."
    assert message in block_after(table.page, "bidder", 'class="mighty-bids"')
    assert "<span>Ann</span> <b>13 ♠</b>" in table.page  # the log as entered still shows
    assert not stored(app)


def test_seed_back_run_penalty_is_marked_not_zero_sum(client, api):
    sid = new_session(api, back_run="seed_penalty")
    response = client.post(
        f"/sessions/{sid}/rounds", data=hand_fields(contract_bid="14", opposition_points="15")
    )
    assert response.status_code == 302
    page = shown(client.get(f"/sessions/{sid}"))
    history = page.split('id="round-1"')[1].split("</li>")[0]
    assert "back-run (백런)" in history and "not zero-sum" in history
    assert "Ann <b>-140</b>" in history


def test_refused_contract_change_stands_by_the_contract(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.bid("Ann", 13, "S")
    for player in ("Ben", "Cy", "Dee", "Eve"):
        table.pass_(player)
    assert selected(table.page, "contract_bid") == "13"
    response = table.post("record", **hand_fields(contract_bid="14", contract_trump="H"))
    assert response.status_code == 422
    message = "Changing the trump from 13 spades to hearts needs a contract of at least 15, not 14."
    assert message in block_after(table.page, "contract_bid", "</fieldset>")
    assert not stored(app)
    # the table fixes it and records
    response = table.post("record", **hand_fields(contract_bid="15", contract_trump="H"))
    assert response.status_code == 302
    assert stored(app)[0].input["contract"] == {"boss": "Ann", "bid": 15, "trump": "H"}


def test_enter_only_the_final_contract(client, api, app):
    sid = new_session(api)
    response = client.post(f"/sessions/{sid}/rounds", data={"action": "record", **hand_fields()})
    assert response.status_code == 302
    (played,) = stored(app)
    assert "bidding" not in played.input and "dealer" not in played.input
    assert played.result["outcome"] == "ruling_win"
    assert played.result["deltas"]["Ann"] == 10  # base 5, boss 2 x 5


def test_unfinished_auction_cannot_be_recorded(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.bid("Ann", 13, "S")
    response = table.post("record", **hand_fields(boss="Ann", contract_bid="13"))
    assert response.status_code == 422
    assert "The auction is not over: it is Ben&#39;s turn" in block_after(
        table.page, "bidding", "</fieldset>"
    )
    assert not stored(app)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"friend_card": "ZZ"}, "friend_card", "&#39;ZZ&#39; is not a card"),
        ({"friend_card": ""}, "friend_card", "Friend card: fill this in."),
        ({"friend_player": ""}, "friend_player", "Friend (프렌드): fill this in."),
        ({"opposition_points": "25"}, "opposition_points", "from 0 to 20, not 25"),
        ({"opposition_points": "lots"}, "opposition_points", "from 0 to 20, not &#39;lots&#39;"),
        (
            {"opposition_points": ""},
            "opposition_points",
            "Opposition&#39;s point cards (야당 점수카드): fill this in.",
        ),
        ({"contract_bid": ""}, "contract_bid", "Count: fill this in."),
        ({"contract_bid": "12"}, "contract_bid", "A bid of 12 is below this auction"),
        ({"contract_trump": ""}, "contract_trump", "Trump (기루다): fill this in."),
        ({"boss": ""}, "boss", "Boss (주공): fill this in."),
        (
            {"boss": "", "contract_bid": "", "contract_trump": ""},
            "boss",
            "Boss (주공): fill this in.",
        ),
        ({"joker_holder": "opposition"}, "joker_holder", "Joker is the friend card"),
        (
            {"mighty_holder": "opposition", "opposition_points": "0"},
            "opposition_points",
            "the opposition&#39;s point cards cannot be 0",
        ),
        ({"dealer": "Zed"}, "dealer", "&#39;Zed&#39; is not seated at this table"),
    ],
)
def test_refused_hand_shows_the_message_next_to_the_field(client, api, app, fields, field, message):
    sid = new_session(api)
    data = {"action": "record", **hand_fields(**fields)}
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    assert message in page
    assert message in block_after(page, field), f"the message should stand next to {field}"
    assert not stored(app)


def test_friend_kinds_no_friend_self_friend_and_first_trick(client, api, app):
    sid = new_session(api, friend_types=["card", "none", "first_trick"])
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Winner of trick 1" in page
    url = f"/sessions/{sid}/rounds"
    client.post(url, data={**hand_fields(friend_kind="none", friend_card="", friend_player="")})
    client.post(url, data={**hand_fields(boss="Ann", friend_player="Ann", dealer="Ann")})
    client.post(
        url, data={**hand_fields(friend_kind="first_trick", friend_card="", friend_player="Dee")}
    )
    rounds = stored(app)
    assert [r.input["friend"] for r in rounds] == [
        {"none": True},
        {"card": "JK", "player": "Ann"},
        {"first_trick": "Dee"},
    ]
    assert rounds[0].result["multipliers"] == ["no_friend"]
    assert rounds[1].result["self_friend"] is True
    page = shown(client.get(f"/sessions/{sid}"))
    assert "no friend (노 프렌드)" in page.split('id="round-1"')[1].split("</li>")[0]
    assert "self friend (셀프 프렌드), Joker" in page.split('id="round-2"')[1].split("</li>")[0]
    assert "friend Dee (won trick 1)" in page.split('id="round-3"')[1].split("</li>")[0]


def test_friend_type_not_allowed_stands_by_the_friend(client, api, app):
    sid = new_session(api, friend_types=["card"])
    page = shown(client.get(f"/sessions/{sid}"))
    assert 'name="friend_kind"' not in page  # one way only: nothing to choose
    data = {"action": "record", **hand_fields(friend_kind="none")}
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    friend = page.split('id="friend"')[1].split("</fieldset>")[0]
    assert (
        "This table does not allow declaring no friend (노 프렌드): its house rule “Ways to name "
        "the friend” allows only calling a card." in friend
    )


def test_check_only_shows_the_score_without_storing(client, api, app):
    sid = new_session(api)
    response = client.post(f"/sessions/{sid}/rounds", data={"action": "check", **hand_fields()})
    assert response.status_code == 200
    page = shown(response)
    assert "Checked: nothing wrong." in page and "Ann <b>+10</b>" in page
    partial = {"action": "check", "boss": "Ann", "contract_bid": "15", "contract_trump": "H"}
    page = shown(client.post(f"/sessions/{sid}/rounds", data=partial))
    assert "Checked: nothing wrong so far." in page
    assert not stored(app)


def test_misdeal_is_one_tap_and_stores_a_zero_round(client, api, app):
    sid = new_session(api)
    data = {"action": "misdeal", "misdeal_player": "Ben", "misdeal_hand": WEAK_HAND.lower()}
    response = client.post(f"/sessions/{sid}/rounds", data={**data, **hand_fields()})
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.input == {"misdeal": {"player": "Ben", "hand": WEAK_HAND.split()}}
    assert set(played.result["deltas"].values()) == {0}
    page = shown(client.get(f"/sessions/{sid}"))
    assert "<strong>Ben</strong>" in page.split("Deals next")[1].split("</dd>")[0]
    assert "declared the misdeal" in page
    history = page.split('id="round-1"')[1].split("</li>")[0]
    assert "Throw-in (파토)" in history and "by Ben · hand worth 0" in history


@pytest.mark.parametrize(
    ("player", "hand", "field", "message"),
    [
        ("Ben", "SA SK SQ SJ S10 HA HK HQ HJ H10", "misdeal_hand", "hand is worth 9"),
        ("Ben", "S2 S3 H4", "misdeal_hand", "A dealt hand has 10 cards, not 3."),
        ("Ben", "S2 S3 H4 H5 D6 D7 C8 C9 HK XX", "misdeal_hand", "Card 10 of the hand"),
        ("Ben", "S2 S2 H4 H5 D6 D7 C8 C9 HK JK", "misdeal_hand", "The hand holds ♠2 twice."),
        ("Ben", "", "misdeal_hand", "Their 10 cards: fill this in."),
        ("", WEAK_HAND, "misdeal_player", "Declared by: fill this in."),
    ],
)
def test_refused_misdeal_stands_by_its_field(client, api, app, player, hand, field, message):
    sid = new_session(api)
    data = {"action": "misdeal", "misdeal_player": player, "misdeal_hand": hand}
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    assert message in block_after(page, field, "</details>")
    assert re.search(r'<details class="mighty-misdeal"[^>]* open[ >]', page)
    assert not stored(app)


def test_misdeals_off_hide_the_misdeal(client, api):
    sid = new_session(api, misdeal="off")
    page = shown(client.get(f"/sessions/{sid}"))
    assert 'name="misdeal_hand"' not in page


def test_all_pass_is_one_tap_and_stores_a_zero_round(client, api, app):
    sid = new_session(api)
    response = client.post(
        f"/sessions/{sid}/rounds", data={"action": "all_pass", "dealer": "Cy", **hand_fields()}
    )
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.input == {"dealer": "Cy", "all_pass": True}
    assert set(played.result["deltas"].values()) == {0}
    page = shown(client.get(f"/sessions/{sid}"))
    assert "everyone passed: same dealer" in page
    assert "Everyone passed (모두 패스)" in page.split('id="round-1"')[1].split("</li>")[0]
    # the same dealer deals again: the next form starts with Cy
    assert selected(page, "dealer") == "Cy" and selected(page, "bidder") == "Cy"


def test_everyone_passing_on_the_pad_is_recorded_as_a_zero_round(client, api, app):
    sid = new_session(api, all_pass="open_kitty")
    table = Table(client, sid)
    table.dealer = "Dee"
    for player in ("Dee", "Eve", "Ann", "Ben", "Cy"):
        table.pass_(player)
    assert "Everyone passed (모두 패스).</strong> Record it as a zero round" in table.page
    response = table.post("all_pass")
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.input["all_pass"] is True and len(played.input["bidding"]) == 5
    page = shown(client.get(f"/sessions/{sid}"))
    assert "the kitty (바닥패) is turned up" in page and "from 15" in page
    assert offered(page)[0] == "bid_S_15"


def test_all_pass_after_a_bid_is_refused(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.bid("Ann", 13, "S")
    for player in ("Ben", "Cy", "Dee", "Eve"):
        table.pass_(player)
    assert 'value="all_pass"' not in table.page
    response = table.post("all_pass")
    assert response.status_code == 422
    assert "The hand is entered as one everyone passed, but Ann won the auction" in table.page
    assert not stored(app)


def test_wrong_dealer_stands_by_the_dealer(client, api, app):
    sid = new_session(api)
    client.post(f"/sessions/{sid}/rounds", data=hand_fields(dealer="Ann"))
    table = Table(client, sid)
    page = shown(client.get(f"/sessions/{sid}"))
    assert selected(page, "dealer") == "Cy" and selected(page, "bidder") == "Cy"
    table.dealer = "Ben"
    response = table.bid("Ben", 13, "S")
    assert response.status_code == 422
    assert "Cy deals this hand" in block_after(table.page, "dealer", "</div>")
    assert len(stored(app)) == 1


def test_correct_a_stored_hand_through_the_edit_page(client, api, app):
    sid = new_session(api)
    table = Table(client, sid)
    table.dealer = "Ann"
    table.bid("Ann", 13, "S")
    for player in ("Ben", "Cy", "Dee", "Eve"):
        table.pass_(player)
    table.post("record", **hand_fields(contract_bid="15", contract_trump="H"))
    (played,) = stored(app)
    assert played.result["deltas"]["Ann"] == 10

    url = f"/sessions/{sid}/rounds/1/edit"
    edit = shown(client.get(url))
    assert selected(edit, "dealer") == "Ann" and selected(edit, "boss") == "Ann"
    assert selected(edit, "contract_bid") == "15" and selected(edit, "friend_player") == "Cy"
    assert 'value="JK"' in edit and 'value="3"' in edit
    assert hidden(edit, "bidding") == table.log
    assert "Ann won the auction with 13 spades" in edit

    fix = Table(client, sid, url)
    fix.dealer, fix.log = "Ann", hidden(edit, "bidding")
    response = fix.post("record", **hand_fields(contract_bid="14", contract_trump="H"))
    assert response.status_code == 422
    assert "needs a contract of at least 15, not 14" in block_after(fix.page, "contract_bid")
    response = fix.post("record", **hand_fields(contract_bid="15", opposition_points="6"))
    assert response.status_code == 302
    (played,) = stored(app)
    assert played.corrected_at is not None and played.input["opposition_points"] == 6
    assert played.input["bidding"][0] == {"player": "Ann", "bid": 13, "trump": "S"}
    # n = 14 < 15: the opposition wins 2 x 1 = 2; boss -4, friend -2, the others +2
    assert played.result["deltas"] == {"Ann": -4, "Ben": 2, "Cy": -2, "Dee": 2, "Eve": 2}
    page = shown(client.get(f"/sessions/{sid}"))
    assert "Round 1 corrected" in page
    assert "Opposition won (야당 승)" in page.split('id="round-1"')[1].split("</li>")[0]


def test_correct_a_stored_misdeal_and_turn_an_all_pass_into_a_hand(client, api, app):
    sid = new_session(api)
    url = f"/sessions/{sid}/rounds"
    client.post(url, data={"action": "misdeal", "misdeal_player": "Ben", "misdeal_hand": WEAK_HAND})
    client.post(url, data={"action": "all_pass", "dealer": "Ben"})
    assert [r.result["outcome"] for r in stored(app)] == ["misdeal", "all_pass"]

    edit = shown(client.get(f"{url}/1/edit"))
    assert "stored as a <strong>throw-in (파토)</strong>" in edit
    assert re.search(r'<details class="mighty-misdeal"[^>]* open[ >]', edit)
    assert selected(edit, "misdeal_player") == "Ben" and f'value="{WEAK_HAND}"' in edit
    # the same cards declared by Cy: saved with the page's own button
    data = {"action": "record", "misdeal_player": "Cy", "misdeal_hand": WEAK_HAND}
    response = client.post(f"{url}/1/edit", data=data)
    assert response.status_code == 422  # round 2 says Ben dealt, but Cy now deals after round 1
    assert "Round 2 would break a rule: Cy deals this hand" in shown(response)
    data["misdeal_player"] = "Ben"
    data["misdeal_hand"] = "S2 S3 H4 H5 D6 D7 C8 C9 H10 JK"
    assert client.post(f"{url}/1/edit", data=data).status_code == 302
    assert stored(app)[0].input["misdeal"]["hand"][8] == "H10"

    edit = shown(client.get(f"{url}/2/edit"))
    assert "stored as <strong>everyone passed (모두 패스)</strong>" in edit
    assert selected(edit, "dealer") == "Ben" and selected(edit, "bidder") == "Ben"
    response = client.post(f"{url}/2/edit", data={"dealer": "Ben", **hand_fields()})
    assert response.status_code == 302
    assert stored(app)[1].result["outcome"] == "ruling_win"


def test_the_pad_works_on_the_edit_page(client, api, app):
    sid = new_session(api)
    client.post(f"/sessions/{sid}/rounds", data=hand_fields())
    url = f"/sessions/{sid}/rounds/1/edit"
    fix = Table(client, sid, url)
    fix.bid("Ann", 15, "H")
    assert "<strong>Ben</strong> to bid" in fix.page
    assert f'action="{url}"' in fix.page
    for player in ("Ben", "Cy", "Dee", "Eve"):
        fix.pass_(player)
    assert "Ann won the auction with 15 hearts" in fix.page
    assert fix.post("record", **hand_fields()).status_code == 302
    assert len(stored(app)[0].input["bidding"]) == 5


def test_stale_form_from_a_second_phone_is_refused(client, api, app):
    sid = new_session(api)
    client.post(f"/sessions/{sid}/rounds", data=hand_fields(expected_round="1"))
    response = client.post(
        f"/sessions/{sid}/rounds", data={"action": "all_pass", "expected_round": "1"}
    )
    assert response.status_code == 422
    assert "Another phone recorded round 1 while you were entering this one." in shown(response)
    assert len(stored(app)) == 1
