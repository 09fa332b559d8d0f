"""The Mighty card pad without a browser: the hand form with its `tricks`, and the pad's dry runs.

The hands are the worked cases of ``tests/golden/mighty-tricks.json``: the form stores a hand with
its tricks and scores it from them; a revoke in the tricks is refused by the form with the
revoke's message; the pad's endpoint names the players, decides the tricks, tells the next play,
fills in the totals after trick 10 and refuses a revoke or an ignored joker call, in the page's
language, behind the same CSRF and sign-in as the form.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from refapp.extensions import db
from refapp.models import Round

from .conftest import shown
from .test_access import csrf_token, sign_in
from .test_web_mighty import hand_fields

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
GOLDEN = Path(__file__).parent / "golden" / "mighty-tricks.json"


def case(name: str) -> dict:
    """Return the input of a worked hand of mighty-tricks.json."""
    cases = {found["id"]: found for found in json.loads(GOLDEN.read_text(encoding="utf-8"))}
    return cases[name]["rounds"][0]["input"]


def cards_only(tricks: list) -> list:
    """Return tricks as the pad sends them: the cards (and a joker's suit, a call), no players."""
    return [
        [{k: v for k, v in play.items() if k != "player"} for play in trick] for trick in tricks
    ]


def new_session(api, **rules) -> int:
    """Start a Mighty session through the API and return its id."""
    return api.create(players=PLAYERS, game="mighty", rules=rules)["id"]


def stored(app) -> list[Round]:
    """Return the stored rounds in order."""
    with app.app_context():
        rounds = db.session.query(Round).order_by(Round.number).all()
        db.session.expunge_all()
        return rounds


def hand_form(hand: dict, **extra) -> dict:
    """Return the hand form's fields for a worked hand: its contract, friend card and tricks."""
    contract = hand["contract"]
    return {
        "action": "record",
        "boss": contract["boss"],
        "contract_bid": str(contract["bid"]),
        "contract_trump": contract["trump"],
        "friend_kind": "card",
        "friend_card": hand["friend"]["card"],
        "tricks": json.dumps(hand["tricks"]),
        **extra,
    }


def pad(client, sid: int, hand: dict, tricks=None, friend=None, **headers):
    """Ask the pad's endpoint about a worked hand's tricks (all of them unless given)."""
    body = {
        "boss": hand["contract"]["boss"],
        "trump": hand["contract"]["trump"],
        "friend": friend
        if friend is not None
        else {"kind": "card", "card": hand["friend"]["card"]},
        "tricks": cards_only(hand["tricks"]) if tricks is None else tricks,
    }
    return client.post(f"/sessions/{sid}/card-pad", json=body, headers=headers)


# -- the hand form with its tricks -----------------------------------------------------------


def test_a_hand_posted_with_its_tricks_is_stored_and_scored_from_them(client, api, app):
    sid = new_session(api)
    hand = case("MT-03")
    # what the pad fills in after trick 10, sent with the tricks as the form does
    fields = hand_form(
        hand,
        friend_player="Cy",
        opposition_points="2",
        mighty_holder="friend",
        joker_holder="opposition",
    )
    response = client.post(f"/sessions/{sid}/rounds", data=fields)
    assert response.status_code == 302, shown(response)
    (played,) = stored(app)
    assert played.input["tricks"] == hand["tricks"]
    assert played.result["deltas"] == {"Ann": 24, "Ben": -12, "Cy": 12, "Dee": -12, "Eve": -12}
    assert [trick["winner"] for trick in played.result["tricks"]][2] == "Eve"  # the called joker
    assert played.result["opposition_points"] == 2
    assert api.session(sid)["totals"]["Ann"] == 24


def test_the_tricks_alone_settle_the_points_the_holders_and_the_friend(client, api, app):
    sid = new_session(api)
    hand = case("MT-01")  # Ben 14 NT, friend HA: Eve; the tricks give the opposition 4
    response = client.post(f"/sessions/{sid}/rounds", data=hand_form(hand))
    assert response.status_code == 302, shown(response)
    (played,) = stored(app)
    assert played.input["opposition_points"] == 4
    assert played.input["friend"] == {"card": "HA", "player": "Eve"}
    assert played.result["deltas"] == {"Ann": -16, "Ben": 32, "Cy": -16, "Dee": -16, "Eve": 16}


def test_a_stored_hand_opens_its_pad_with_its_tricks_on_the_correction_page(client, api, app):
    sid = new_session(api)
    hand = case("MT-03")
    assert client.post(f"/sessions/{sid}/rounds", data=hand_form(hand)).status_code == 302
    page = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    tag = page.split('<details class="card-pad"', 1)[1].split(">", 1)[0]
    assert " open" in tag and f'data-url="/sessions/{sid}/card-pad"' in tag
    hidden = page.split('name="tricks" type="hidden" value="', 1)[1].split('"', 1)[0]
    assert json.loads(html.unescape(hidden)) == hand["tricks"]


def test_entries_that_disagree_with_the_tricks_are_refused_by_their_field(client, api, app):
    sid = new_session(api)
    response = client.post(
        f"/sessions/{sid}/rounds", data=hand_form(case("MT-01"), opposition_points="5")
    )
    assert response.status_code == 422
    page = shown(response)
    message = "The tricks give the opposition 4 point cards (tricks 5, 10), not 5."
    by_field = page.split('name="opposition_points"', 1)[1].split('for="mighty_holder"', 1)[0]
    assert message in by_field
    assert stored(app) == []


def test_a_revoke_in_the_tricks_is_refused_by_the_form_with_its_message(client, api, app):
    sid = new_session(api)
    hand = case("MT-01")
    tricks = [list(trick) for trick in hand["tricks"]]
    # trick 2: Ann (void in clubs, she played H3) now shows a club in trick 10 instead of DJ
    tricks[9] = [*tricks[9][:4], {"player": "Ann", "card": "C5"}]
    response = client.post(
        f"/sessions/{sid}/rounds", data=hand_form(hand, tricks=json.dumps(tricks))
    )
    assert response.status_code == 422
    page = shown(response)
    message = (
        "Revoke: Ann did not follow clubs in trick 2, yet plays ♣5 in trick 10, "
        "so they held it then."
    )
    assert message in page
    pad_part = page.split('<details class="card-pad"', 1)[1].split("</details>", 1)[0]
    assert message in pad_part  # by the pad, which opens to show it
    assert " open" in page.split('<details class="card-pad"', 1)[1].split(">", 1)[0]
    assert stored(app) == []


def test_a_table_that_does_not_use_the_pad_enters_the_totals_as_before(client, api, app):
    sid = new_session(api)
    fields = hand_fields(action="record", tricks="")
    assert client.post(f"/sessions/{sid}/rounds", data=fields).status_code == 302
    (played,) = stored(app)
    assert "tricks" not in played.input and played.result["deltas"]["Ann"] == 10


def test_the_pad_is_in_the_hand_form_closed_and_names_its_fields(client, api):
    sid = new_session(api)
    page = shown(client.get(f"/sessions/{sid}"))
    tag = page.split('<details class="card-pad"', 1)[1].split(">", 1)[0]
    assert " open" not in tag
    assert f'data-url="/sessions/{sid}/card-pad"' in tag and 'data-tricks="tricks"' in tag
    assert page.count('data-pad-card="') == 53
    assert "Play the hand card by card" in page


# -- the pad's dry runs ---------------------------------------------------------------------


def test_the_pad_names_the_players_and_tells_the_next_play(client, api):
    sid = new_session(api)
    hand = case("MT-03")
    tricks = [*cards_only(hand["tricks"])[:2], [{"card": "C3", "call": True}]]
    answer = pad(client, sid, hand, tricks).get_json()
    assert [[play["player"] for play in trick] for trick in answer["tricks"][:2]] == [
        ["Ann", "Ben", "Cy", "Dee", "Eve"],
        ["Cy", "Dee", "Eve", "Ann", "Ben"],  # Cy took trick 1 and leads trick 2
    ]
    assert [trick["winner"] for trick in answer["finished"]] == ["Cy", "Ann"]
    assert answer["finished"][1]["line"] == (
        "Trick 2: Ann takes it with ♠3 (the highest trump); point cards: ♥A."
    )
    assert answer["next_player"] == "Ben" and answer["trick"] == 3
    assert answer["must_play"] == [{"follow": "C"}, {"joker_if_held": True}]
    assert "the joker if they hold it" in answer["next_line"]
    assert answer["current"] == [{"player": "Ann", "card": "C3", "call": True}]
    assert answer["complete"] is False and answer["fill"] is None


def test_an_empty_pad_names_the_boss_to_lead(client, api):
    sid = new_session(api)
    answer = pad(client, sid, case("MT-02"), tricks=[]).get_json()
    assert answer["next_player"] == "Eve" and answer["next_line"] == "Next: Eve leads trick 1."
    assert answer["tricks"] == [] and answer["must_play"] == []


def test_after_trick_ten_the_pad_fills_the_totals(client, api):
    sid = new_session(api)
    answer = pad(client, sid, case("MT-02")).get_json()  # a joker led in trick 10 naming clubs
    assert answer["complete"] is True
    assert answer["finished"][9]["winner"] == "Eve"
    assert answer["finished"][9]["reason"] == "leader_by_default"
    assert answer["fill"] == {
        "opposition_points": 4,
        "mighty_holder": "friend",
        "joker_holder": "boss",
        "friend_player": "Cy",
    }
    assert "♠A was played by Cy in trick 1, so Cy is the friend." in answer["lines"]


def test_the_friend_card_in_the_kitty_makes_the_boss_the_friend(client, api):
    sid = new_session(api)
    answer = pad(client, sid, case("MT-05")).get_json()  # HK never played
    assert answer["fill"]["friend_player"] == "Ann" and answer["fill"]["opposition_points"] == 5


def test_first_trick_friend_and_a_missing_friend_card(client, api):
    sid = new_session(api, friend_types=["card", "none", "first_trick"])
    hand = case("MT-04")
    answer = pad(client, sid, hand, friend={"kind": "first_trick"}).get_json()
    assert answer["fill"]["friend_player"] == "Dee" and answer["fill"]["opposition_points"] == 5
    unknown = pad(client, sid, hand, friend={"kind": "card", "card": ""}).get_json()
    assert unknown["complete"] and unknown["fill"] is None
    assert unknown["lines"] == ["Enter the friend card above to count the opposition's points."]
    alone = pad(client, sid, hand, friend={"kind": "none"}).get_json()
    assert alone["fill"]["friend_player"] is None


@pytest.mark.parametrize(
    ("name", "code", "field", "message"),
    [
        (
            "MT-06",
            "revoke",
            "tricks.1.1",
            "Revoke: Ben did not follow hearts in trick 1, yet plays ♥4 in trick 2, "
            "so they held it then.",
        ),
        (
            "MT-08",
            "joker_call_ignored",
            "tricks.2.3",
            "Dee called the joker with ♣3 in trick 2 and Ann did not play it, yet plays it "
            "in trick 3.",
        ),
    ],
)
def test_the_pad_refuses_a_revoke_or_an_ignored_call_when_proven(
    client, api, name, code, field, message
):
    sid = new_session(api)
    refused = pad(client, sid, case(name))
    assert refused.status_code == 422
    body = refused.get_json()
    assert (body["code"], body["field"], body["message"]) == (code, field, message)
    shorter = cards_only(case(name)["tricks"])
    shorter[-1].pop()  # the same tricks without the card that proves it are fine
    assert pad(client, sid, case(name), tricks=shorter).status_code == 200


def test_the_pad_speaks_the_pages_language(client, api):
    sid = new_session(api)
    client.set_cookie("lang", "ko")
    body = pad(client, sid, case("MT-06")).get_json()
    assert body["code"] == "revoke" and "선도패 위반" in body["message"]


def test_the_pad_needs_a_boss_and_a_trump_and_a_mighty_session(client, api):
    sid = new_session(api)
    hand = case("MT-06")
    nobody = client.post(f"/sessions/{sid}/card-pad", json={"trump": "S", "tricks": []})
    assert nobody.status_code == 422
    stranger = client.post(f"/sessions/{sid}/card-pad", json={"boss": "Zed", "trump": "S"})
    assert stranger.status_code == 422 and stranger.get_json()["field"] == "contract.boss"
    broken = client.post(f"/sessions/{sid}/card-pad", data="[")
    assert broken.status_code == 422 and broken.get_json()["code"] == "invalid_json"
    dixit = api.create(players=["Ann", "Ben", "Cy", "Dee"], game="dixit")["id"]
    assert pad(client, dixit, hand).status_code == 404
    assert pad(client, 999, hand).status_code == 404


def test_the_pad_asks_for_the_sign_in_and_the_forms_csrf_token(guarded):
    client = guarded.test_client()
    created = client.post(
        "/api/sessions",
        json={"game": "mighty", "players": PLAYERS},
        headers={"X-Table-Password": "owl"},
    ).get_json()
    sid = created["id"]
    hand = case("MT-12")
    assert pad(client, sid, hand).status_code == 400  # no CSRF token
    token = csrf_token(client, "/signin")
    unsigned = pad(client, sid, hand, **{"X-CSRFToken": token})
    assert unsigned.status_code == 302 and "/signin" in unsigned.headers["Location"]
    assert sign_in(client).status_code == 302
    assert pad(client, sid, hand).status_code == 400
    token = csrf_token(client, f"/sessions/{sid}")
    answer = pad(client, sid, hand, **{"X-CSRFToken": token})
    assert answer.status_code == 200 and answer.get_json()["next_player"] == "Ann"


# -- changing a card played ---------------------------------------------------------------------


def change(client, sid: int, hand: dict, tricks: list, **new):
    """Ask the pad to change one play of tricks (numbered from 1) of a worked hand's contract."""
    body = {
        "boss": hand["contract"]["boss"],
        "trump": hand["contract"]["trump"],
        "friend": {"kind": "card", "card": hand["friend"]["card"]},
        "tricks": tricks,
        "change": new,
    }
    return client.post(f"/sessions/{sid}/card-pad", json=body)


def entered(hand: dict, count: int, trick: int, position: int, card: str) -> list:
    """Return the first count tricks as the pad sends them, with one card tapped wrongly."""
    tricks = cards_only(hand["tricks"])[:count]
    tricks[trick - 1][position - 1] = {"card": card}
    return tricks


def test_a_changed_card_keeps_the_tricks_after_it_that_still_fit(client, api):
    sid = new_session(api)
    hand = case("MT-01")  # Ben 14 NT; trick 3: Ben DK, Cy S4, Dee D3, Eve D9, Ann D5
    tricks = entered(hand, 5, 3, 3, "D7")  # Dee's D3 tapped as D7; trick 5 under way
    tricks[4] = tricks[4][:2]
    answer = change(client, sid, hand, tricks, trick=3, play=3, card="D3").get_json()
    assert answer["tricks"] == [*hand["tricks"][:4], hand["tricks"][4][:2]]
    assert answer["change"] == {
        "trick": 3,
        "play": 3,
        "player": "Dee",
        "old": "D7",
        "new": "D3",
        "kept": [4, 5],
        "dropped": [],
        "code": None,
        "lines": ["Trick 3: Dee played ♦3, not ♦7.", "Tricks 4 to 5 still fit: kept as entered."],
    }
    assert answer["next_player"] == "Ben" and answer["trick"] == 5


def test_a_changed_winner_drops_the_tricks_led_by_the_old_one(client, api):
    sid = new_session(api)
    hand = case("MT-01")
    # Ben's DK tapped as D6: Eve's D9 took trick 3, so the pad named Eve to lead trick 4
    tricks = entered(hand, 3, 3, 1, "D6")
    tricks += [
        [{"card": "HA"}, {"card": "H6"}, {"card": "HQ"}, {"card": "H4"}, {"card": "H2"}],
        [{"card": "SK"}, {"card": "SJ"}],
    ]
    wrong = pad(client, sid, hand, tricks).get_json()
    assert wrong["finished"][2]["winner"] == "Eve" and wrong["tricks"][3][0]["player"] == "Eve"
    answer = change(client, sid, hand, tricks, trick=3, play=1, card="DK").get_json()
    assert answer["tricks"] == hand["tricks"][:3]
    assert answer["finished"][2]["winner"] == "Ben" and answer["next_player"] == "Ben"
    assert answer["change"]["kept"] == [] and answer["change"]["dropped"] == [4, 5]
    assert answer["change"]["code"] == "wrong_leader"
    assert answer["change"]["lines"] == [
        "Trick 3: Ben played ♦K, not ♦6.",
        "Tricks 4 to 5 no longer fit: enter them again.",
        "Ben took trick 3 and leads trick 4, not Eve.",
    ]


def test_a_card_now_played_twice_or_a_revoke_drops_from_its_trick(client, api):
    sid = new_session(api)
    hand = case("MT-01")
    tricks = cards_only(hand["tricks"])[:5]
    twice = change(client, sid, hand, tricks, trick=3, play=3, card="H2").get_json()
    assert len(twice["tricks"]) == 3 and twice["change"]["dropped"] == [4, 5]
    assert twice["change"]["lines"][1:] == [
        "Tricks 4 to 5 no longer fit: enter them again.",
        "♥2 was already played by Dee in trick 3; no card is played twice.",
    ]
    # Dee shows no club in trick 2, yet leads CJ in trick 6: tricks 3-5 fit, 6-10 do not
    whole = cards_only(hand["tricks"])
    revoke = change(client, sid, hand, whole, trick=2, play=3, card="S5").get_json()
    assert revoke["change"]["kept"] == [3, 4, 5] and revoke["change"]["dropped"] == [6, 7, 8, 9, 10]
    assert revoke["change"]["code"] == "revoke"
    assert revoke["change"]["lines"][1] == "Tricks 3 to 5 still fit: kept as entered."
    assert revoke["change"]["lines"][3].startswith("Revoke: Dee did not follow clubs in trick 2")
    assert revoke["complete"] is False and revoke["fill"] is None  # the totals wait for ten


def test_a_change_to_a_whole_hand_that_fits_settles_it_again(client, api):
    sid = new_session(api)
    hand = case("MT-01")
    tricks = cards_only(hand["tricks"])
    tricks[9][1] = {"card": "C5"}  # Cy's C10 in trick 10 tapped as C5, a card in the kitty
    wrong = pad(client, sid, hand, tricks).get_json()
    assert wrong["fill"]["opposition_points"] == 3  # Ann took DJ alone
    answer = change(client, sid, hand, tricks, trick=10, play=2, card="C10").get_json()
    assert answer["complete"] and answer["change"]["kept"] == answer["change"]["dropped"] == []
    assert answer["fill"]["opposition_points"] == 4  # C10 and DJ to Ann, as the hand was played
    assert answer["tricks"] == hand["tricks"]


def test_a_change_that_does_not_fit_itself_is_refused_and_nothing_moves(client, api):
    sid = new_session(api)
    hand = case("MT-01")
    tricks = cards_only(hand["tricks"])[:5]
    again = change(client, sid, hand, tricks, trick=3, play=3, card="DA")  # led in trick 1
    assert again.status_code == 422
    body = again.get_json()
    assert (body["code"], body["field"]) == ("card_played_twice", "tricks.2.2.card")
    assert body["message"] == "♦A was already played by Ben in trick 1; no card is played twice."
    for bad, field in (
        ({"trick": 6, "play": 1, "card": "D3"}, "change.trick"),
        ({"trick": 5, "play": 0, "card": "D3"}, "change.play"),
        ({"trick": "3", "play": 1, "card": "D3"}, "change.trick"),
        ({"trick": 3, "play": 1, "card": "ZZ"}, "tricks.2.0.card"),
        ({"trick": 3, "play": 1}, "tricks.2.0.card"),
    ):
        refused = change(client, sid, hand, tricks, **bad)
        assert refused.status_code == 422, bad
        assert refused.get_json()["field"] == field, bad
    broken = client.post(
        f"/sessions/{sid}/card-pad",
        json={"boss": "Ben", "trump": "NT", "tricks": tricks, "change": "3.3"},
    )
    assert broken.status_code == 422 and broken.get_json()["field"] == "change"


def test_a_lead_changed_to_the_joker_names_its_suit_and_the_joker_as_the_table_does(client, api):
    sid = new_session(api)
    hand = case("MT-01")
    tricks = cards_only(hand["tricks"])[:5]
    unnamed = change(client, sid, hand, tricks, trick=3, play=1, card="JK")
    assert unnamed.status_code == 422 and unnamed.get_json()["field"] == "tricks.2.0.suit"
    answer = change(client, sid, hand, tricks, trick=3, play=1, card="JK", suit="D").get_json()
    assert answer["tricks"][2][0] == {"player": "Ben", "card": "JK", "suit": "D"}
    assert answer["finished"][2]["winner"] == "Ben"  # a live joker in trick 3
    assert answer["change"]["kept"] == [4] and answer["change"]["dropped"] == [5]
    assert answer["change"]["lines"] == [
        "Trick 3: Ben played Joker, not ♦K.",
        "Trick 4 still fits: kept as entered.",
        "Trick 5 no longer fits: enter it again.",
        "Joker was already played by Ben in trick 3; no card is played twice.",
    ]
    client.set_cookie("lang", "ko")
    korean = change(client, sid, hand, tricks, trick=3, play=1, card="JK", suit="D").get_json()
    assert "조커" in korean["change"]["lines"][-1]
