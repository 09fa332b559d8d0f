"""Mighty at six seats on the phone: a 6마 hand (a kill with a miss) and a hand the dealer rests.

Entered by taps in Chromium at phone size, with no keyboard: the kill's card from the card
picker, a miss moved aside with one tap, the killed player by name; the players out of the hand
greyed (not choosable) wherever a player of the hand is chosen, and in the standings. The stored
rounds are read back through the API: the input as the rules take it, and the deltas of
the worked cases MS-01 and MS-04 of tests/golden/mighty-seats.json.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .browser_support import KEYS
from .test_e2e_polish import small_targets

pytestmark = pytest.mark.layout

chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
RECORD = "#round-form button[value=record]"


def chip(field: str, value: str) -> str:
    """Return the chip that picks a value for a select (by the select's id)."""
    return f".mighty-names[data-for='{field}'] button[data-value='{value}']"


def open_six(phone, rules: dict | None = None) -> int:
    """Start a six-seat Mighty session through the API and open its page."""
    phone.page.add_init_script(KEYS)
    body = {"game": "mighty", "players": SIX, "rules": rules or {}}
    sid = phone.api("POST", "/api/sessions", body)["id"]
    phone.open(f"/sessions/{sid}")
    return sid


def tap(phone, *selectors: str) -> None:
    """Tap the pickers' buttons in turn (nothing is sent)."""
    for selector in selectors:
        phone.page.locator(selector).click()


def record_critic(phone, sid: int) -> dict:
    """Enter and record the hand of the worked case MS-04 (Ann 13 clubs, Ben by the mighty, 7 points
    against: a critic) and return the stored round."""
    tap(phone, chip("boss", "Ann"), chip("contract_bid", "13"))
    tap(phone, "#contract label.mighty-chip[data-short='♣']")
    tap(phone, "#friend [data-pick='mighty']", chip("friend_player", "Ben"))
    tap(phone, "[data-mighty-points] button[data-points='7']")
    phone.tap(RECORD)
    return phone.session(sid)["rounds"][0]


def greyed(phone, field: str) -> list[str]:
    """Return the players whose chips over a select are greyed and cannot be tapped."""
    row = phone.page.locator(f".mighty-names[data-for='{field}'] button.mighty-out:disabled")
    return [row.nth(i).get_attribute("data-value") for i in range(row.count())]


def test_a_6ma_hand_with_a_miss_is_entered_by_taps_and_scores_the_killed_player_0(phone):
    sid = open_six(phone)
    tap(phone, chip("dealer", "Ann"), chip("boss", "Cy"), chip("contract_bid", "15"))
    tap(phone, "#contract label.mighty-chip[data-short='♥']")
    # the boss names ♣K: in the kitty, a miss; then the joker, which Eve holds
    tap(phone, "#kill [data-suit='C']", "#kill [data-rank='K']", "#kill [data-kill-miss]")
    assert phone.page.locator("#kill [data-miss='CK']").inner_text().startswith("♣K")
    assert phone.page.locator("#kill_card").input_value() == ""
    tap(phone, "#kill [data-pick='joker']")
    kill_buttons = [
        "#kill [data-mighty-picker] button",
        "#kill [data-miss]",
        "#kill [data-kill-miss]",
    ]
    assert small_targets(phone.page, [*kill_buttons, "#kill .mighty-names button"]) == []
    assert greyed(phone, "kill_player") == ["Cy"]  # not the boss
    tap(phone, chip("kill_player", "Eve"))
    assert greyed(phone, "friend_player") == ["Eve"]
    assert greyed(phone, "boss") == ["Eve"]
    tap(phone, "#friend [data-pick='mighty']", chip("friend_player", "Dee"))
    tap(phone, "[data-mighty-points] button[data-points='4']")
    phone.tap(RECORD)
    assert phone.page.evaluate("window.__keys || 0") == 0
    played = phone.session(sid)["rounds"][0]
    assert played["input"]["kill"] == {"card": "JK", "player": "Eve", "misses": ["CK"]}
    assert played["input"]["friend"] == {"card": "SA", "player": "Dee"}
    assert played["result"]["killed"] == ["Eve"]
    assert played["result"]["deltas"] == {
        "Ann": -5, "Ben": -5, "Cy": 10, "Dee": 5, "Eve": 0, "Fay": -5
    }  # fmt: skip
    assert phone.standings()["Eve"] == 0


def test_a_miss_taken_back_goes_and_a_seven_seat_form_asks_for_two_kills(phone):
    phone.page.add_init_script(KEYS)
    body = {"game": "mighty", "players": [*SIX, "Gus"]}
    sid = phone.api("POST", "/api/sessions", body)["id"]
    phone.open(f"/sessions/{sid}")
    assert phone.page.locator("[data-mighty-kill]").count() == 2
    first = "[data-mighty-kill][data-card='kill_card']"
    tap(phone, chip("boss", "Eve"), f"{first} [data-pick='mighty']", f"{first} [data-kill-miss]")
    assert phone.page.locator("#kill_misses").input_value() == "SA"
    tap(phone, f"{first} [data-miss='SA']")  # taken back: not a miss after all
    assert phone.page.locator("#kill_misses").input_value() == ""
    tap(phone, f"{first} [data-pick='mighty']", chip("kill_player", "Ann"))
    assert phone.page.locator("#kill_card").input_value() == "SA"
    assert greyed(phone, "kill2_player") == ["Ann", "Eve"]  # the first killed, the boss


def test_the_resting_dealer_is_greyed_and_scores_0(phone):
    sid = open_six(phone, {"six_player_rule": "dealer_sits_out"})
    assert phone.page.locator("[data-mighty-kill]").count() == 0
    tap(phone, chip("dealer", "Fay"))
    assert greyed(phone, "boss") == ["Fay"] and greyed(phone, "friend_player") == ["Fay"]
    played = record_critic(phone, sid)
    assert played["result"]["resting"] == ["Fay"]
    assert played["result"]["deltas"] == {
        "Ann": 2, "Ben": 1, "Cy": -1, "Dee": -1, "Eve": -1, "Fay": 0
    }  # fmt: skip
    # Ben, the friend, deals the next hand and rests: greyed in the standings and the form
    rows = phone.page.locator("#standings tr.resting")
    assert rows.count() == 1 and rows.first.locator("td").first.inner_text().startswith("Ben")
    assert greyed(phone, "boss") == ["Ben"]


def test_the_new_session_form_follows_the_seat_count(phone):
    page = phone.open("/sessions/new?game=mighty")
    page.evaluate(
        "document.querySelectorAll('details.rule-group').forEach((d) => { d.open = true; })"
    )
    six_rule = page.locator("div.rule[data-seats='6']")
    min_bid = page.locator("[name=rule_min_bid]")
    no_joker = page.locator("[name=rule_friend_forbidden][value=joker]")
    assert six_rule.is_hidden()
    page.fill("#players", "\n".join(SIX[:4]))
    assert min_bid.input_value() == "14" and no_joker.is_checked()  # the four-seat defaults
    page.fill("#players", "\n".join(SIX))
    assert min_bid.input_value() == "13" and not no_joker.is_checked()
    assert six_rule.is_visible() and page.locator("div.rule[data-seats='7']").is_hidden()
    min_bid.fill("15")  # a field the table set stays as set
    page.fill("#players", "\n".join(SIX[:4]))
    assert min_bid.input_value() == "15" and no_joker.is_checked()
    page.fill("#players", "\n".join(SIX))
    page.select_option("[name=rule_six_player_rule]", "dealer_sits_out")
    phone.tap("form.new-session button.start")
    rules = phone.session(phone.session_id())["rules"]
    assert (rules["six_player_rule"], rules["min_bid"], rules["friend_forbidden"]) == (
        "dealer_sits_out", 15, []
    )  # fmt: skip


def test_four_seats_grey_the_cards_out_of_the_deck_and_the_forbidden_friend(phone):
    phone.page.add_init_script(KEYS)
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": SIX[:4]})["id"]
    phone.open(f"/sessions/{sid}")
    friend = "#friend [data-mighty-picker]"
    assert phone.page.locator(f"{friend} [data-pick='joker']").is_disabled()  # joker forbidden
    assert phone.page.locator(f"{friend} [data-rank='2']").is_disabled()
    assert phone.page.locator("[data-deal-card='S4']").is_disabled()
    tap(phone, chip("boss", "Cy"), chip("contract_bid", "15"))
    tap(phone, "#contract label.mighty-chip[data-short='♠']")
    tap(phone, f"{friend} [data-suit='H']")
    assert phone.page.locator(f"{friend} [data-rank='3']").is_disabled()  # H3: not in the deck
    tap(phone, f"{friend} [data-rank='A']", chip("friend_player", "Ann"))
    tap(phone, "[data-mighty-points] button[data-points='6']")
    phone.tap(RECORD)
    played = phone.session(sid)["rounds"][0]
    assert played["input"]["friend"] == {"card": "HA", "player": "Ann"}
    assert played["result"]["deltas"] == {"Ann": -2, "Ben": 2, "Cy": -2, "Dee": 2}


def test_the_card_pad_at_four_seats_takes_four_cards_a_trick_from_the_43(phone):
    phone.page.add_init_script(KEYS)
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": SIX[:4]})["id"]
    phone.open(f"/sessions/{sid}")
    pad = "#tricks-pad"
    tap(phone, chip("boss", "Cy"), chip("contract_bid", "15"))
    tap(phone, "#contract label.mighty-chip[data-short='♠']", f"{pad} > summary")
    turn = phone.page.locator(f"{pad} [data-pad-turn]")
    turn.filter(has_text="Cy").wait_for()
    for out in ("S2", "S4", "H3", "D3"):  # out of the four-seat deck: greyed for good
        assert phone.page.locator(f"{pad} button[data-pad-card='{out}']").is_disabled()
    assert phone.page.locator(f"{pad} button[data-pad-card='S3']").is_enabled()  # a call card
    for card, then in (("SA", "Dee"), ("SK", "Ann"), ("SQ", "Ben")):
        tap(phone, f"{pad} button[data-pad-card='{card}']")
        turn.filter(has_text=then).wait_for()
    tap(phone, f"{pad} button[data-pad-card='SJ']")
    phone.page.locator(f"{pad} [data-pad-tricks] li").first.wait_for()
    turn.filter(has_text="Cy").wait_for()  # four cards made the trick: its winner leads
    assert phone.page.locator(f"{pad} button[data-pad-card='S2']").is_disabled()


def test_seven_seats_name_their_first_sitters_and_then_the_ruling_side_rests(phone):
    phone.page.add_init_script(KEYS)
    rules = {"seven_player_rule": "ruling_side_sits_out"}
    body = {"game": "mighty", "players": [*SIX, "Gus"], "rules": rules}
    sid = phone.api("POST", "/api/sessions", body)["id"]
    phone.open(f"/sessions/{sid}")
    tap(phone, chip("sits_out", "Eve"), chip("sits_out2", "Fay"))
    assert greyed(phone, "boss") == ["Eve", "Fay"] and greyed(phone, "sits_out2") == ["Eve"]
    played = record_critic(phone, sid)
    assert played["input"]["sits_out"] == ["Eve", "Fay"]
    assert played["result"]["deltas"] == {
        "Ann": 2, "Ben": 1, "Cy": -1, "Dee": -1, "Eve": 0, "Fay": 0, "Gus": -1
    }  # fmt: skip
    resting = phone.page.locator("#standings tr.resting td:first-child").all_inner_texts()
    assert sorted(name.split()[0] for name in resting) == ["Ann", "Ben"]
    assert greyed(phone, "boss") == ["Ann", "Ben"]


def test_the_card_pad_plays_the_turns_of_the_players_in_the_hand(phone):
    open_six(phone)
    pad = "#tricks-pad"
    tap(phone, chip("boss", "Cy"), chip("contract_bid", "15"))
    tap(phone, "#contract label.mighty-chip[data-short='♥']")
    tap(phone, "#kill [data-pick='joker']", chip("kill_player", "Eve"))
    tap(phone, f"{pad} > summary", f"{pad} button[data-pad-card='SA']")
    turn = phone.page.locator(f"{pad} [data-pad-turn]")
    turn.filter(has_text="Dee").wait_for()
    tap(phone, f"{pad} button[data-pad-card='S2']")
    turn.filter(has_text="Fay").wait_for()  # Eve, killed, plays no card
    assert "Eve" not in turn.inner_text()
