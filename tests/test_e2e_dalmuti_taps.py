"""A Dalmuti hand recorded by taps alone, at phone size: no keyboard, every tap counted.

Six players. The first hand is played without tax (``tax_first_hand`` off): the finishing order
is tapped name by name (the last place fills itself), then "Record". The second hand's tax is
tapped card by card beside each giver, the count each one owes shown and reached. A tapped card
and a placed name tap back out; a revolution is one tap; without JavaScript the form is as it
was. Outcomes are read from the API, never from the page alone.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .browser_support import PHONE, Phone

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
RULES = {"tax_first_hand": False}
#: the first hand: one tap per player going out but the last (who fills in), then Record
FIRST_HAND_TAPS = (len(PLAYERS) - 1) + 1
FIRST_ORDER = ["Cy", "Ann", "Fay", "Ben", "Eve", "Dee"]
#: the second hand's tax by its ranks (Cy, Ann, Fay, Ben, Eve, Dee): Dee the Greater Peasant
#: gives Cy two cards and gets two back, Eve the Lesser Peasant gives Ann one and gets one back
TAX = {
    "greater_peasant": [3, 5],
    "greater_dalmuti": [11, 12],
    "lesser_peasant": [4],
    "lesser_dalmuti": [10],
}
TAX_CARDS = sum(len(cards) for cards in TAX.values())
#: an ordinary hand with tax: one tap per tribute card and per name (the last fills in), Record
TAX_HAND_TAPS = TAX_CARDS + (len(PLAYERS) - 1) + 1
SECOND_ORDER = ["Dee", "Cy", "Eve", "Ann", "Fay", "Ben"]
#: the form being entered (a correction's page also holds the next hand's form, folded away)
HAND = "#round-form > .dal-form"


class Taps:
    """Taps on a phone's page, each one counted: a name, a card, a taken-back card, Record."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.count = 0

    def on(self, selector: str) -> None:
        """Tap one button of the hand form."""
        self.phone.page.locator(f"{HAND} {selector}").click()
        self.count += 1

    def name(self, name: str) -> None:
        """Tap a player's name in the finishing order's pad."""
        self.on(f".dal-tap button[data-name='{name}']")

    def card(self, role: str, card: int | str) -> None:
        """Tap a card's number beside the giver of a tribute."""
        self.on(f"[data-pay]:has(#tribute_{role}) button[data-card='{card}']")

    def record(self, number: int) -> None:
        """Tap Record and wait for the answer (swapped in place or loaded)."""
        self.phone.tap(f"#round-form button:has-text('Record round {number}')")
        self.count += 1


def start(phone: Phone, rounds: tuple[dict, ...] = ()) -> int:
    """Start a six-player session (no tax in hand 1), record given hands, open its page."""
    sid = phone.api(
        "POST", "/api/sessions", {"game": "dalmuti", "players": PLAYERS, "rules": RULES}
    )["id"]
    for body in rounds:
        phone.api("POST", f"/api/sessions/{sid}/rounds", body)
    phone.open(f"/sessions/{sid}")
    return sid


def points(order: list[str]) -> dict[str, int]:
    """Return a hand's points: N - position (5 for going out first, 0 for the last)."""
    return {name: len(order) - 1 - order.index(name) for name in PLAYERS}


def assert_tap_targets(phone: Phone) -> None:
    """Every button of the hand form's pads is at least 44x44 CSS px (the pads shown: the tax
    part's greater revolution is for the composer alone)."""
    buttons = phone.page.locator(f"{HAND} [data-tap-pad] button:visible")
    assert buttons.count() > 0
    for index in range(buttons.count()):
        box = buttons.nth(index).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (index, box)


def test_a_first_hand_without_tax_by_taps(table_phone):
    phone = table_phone
    sid = start(phone)
    page = phone.page
    assert page.locator(f"{HAND} [data-tribute]").count() == 0  # no tax this hand
    assert_tap_targets(phone)

    taps = Taps(phone)
    for name in FIRST_ORDER[:-1]:
        taps.name(name)
    assert page.locator(f"#finish_{len(PLAYERS)}").input_value() == FIRST_ORDER[-1]
    taps.record(1)

    assert taps.count == FIRST_HAND_TAPS == 6
    session = phone.session(sid)
    assert len(session["rounds"]) == 1
    played = session["rounds"][0]
    assert played["input"]["finish_order"] == FIRST_ORDER
    assert played["input"].get("tribute") is None
    assert played["result"]["deltas"] == points(FIRST_ORDER) == session["totals"]
    assert session["state"]["ranks"] == FIRST_ORDER
    assert phone.standings() == session["totals"]
    # the next hand's form, swapped in or loaded, has its pads ready: Dee now pays the tax
    owed = page.locator(f"{HAND} [data-pay]:has(#tribute_greater_peasant) [data-owed]")
    assert owed.is_visible() and owed.inner_text() == "Given: 0 of 2"
    page.evaluate("() => document.dispatchEvent(new CustomEvent('refapp:swapped'))")
    assert page.locator(f"{HAND} .dal-tap button[data-name='Dee']").count() == 1  # not twice


def test_the_second_hand_with_its_tax_tapped(table_phone):
    phone = table_phone
    sid = start(phone, ({"finish_order": FIRST_ORDER},))
    page = phone.page
    assert_tap_targets(phone)
    greater = page.locator(f"{HAND} [data-pay]:has(#tribute_greater_peasant)")
    assert greater.locator("[data-owed]").inner_text() == "Given: 0 of 2"
    assert "Greater Peasant Dee gives Cy" in greater.locator("label").inner_text()

    taps = Taps(phone)
    for role, cards in TAX.items():
        for card in cards:
            taps.card(role, card)
    owed = greater.locator("[data-owed]")
    assert owed.inner_text() == "Given: 2 of 2" and "dal-done" in owed.get_attribute("class")
    assert greater.locator("button[data-card='7']").is_disabled()  # the count is reached
    assert page.locator("#tribute_greater_dalmuti").input_value() == "11 12"
    for name in SECOND_ORDER[:-1]:
        taps.name(name)
    taps.record(2)

    assert taps.count == TAX_HAND_TAPS == 12
    session = phone.session(sid)
    assert len(session["rounds"]) == 2
    played = session["rounds"][1]
    assert played["input"]["tribute"] == TAX
    assert played["input"]["finish_order"] == SECOND_ORDER
    assert played["result"]["deltas"] == points(SECOND_ORDER)
    both = {name: points(FIRST_ORDER)[name] + points(SECOND_ORDER)[name] for name in PLAYERS}
    assert session["totals"] == both == phone.standings()


def test_a_tapped_card_and_a_placed_name_tap_back_out(table_phone):
    phone = table_phone
    sid = start(phone, ({"finish_order": FIRST_ORDER},))
    page = phone.page
    row = page.locator(f"{HAND} [data-pay]:has(#tribute_greater_peasant)")
    taps = Taps(phone)

    taps.card("greater_peasant", 3)
    taps.card("greater_peasant", 7)
    assert page.locator("#tribute_greater_peasant").input_value() == "3 7"
    back = row.locator("button.dal-back", has_text="7")
    assert back.get_attribute("aria-label") == "Take back 7"
    back.click()  # 7 was a slip
    assert page.locator("#tribute_greater_peasant").input_value() == "3"
    assert row.locator("[data-owed]").inner_text() == "Given: 1 of 2"
    taps.card("greater_peasant", 5)
    for role in ("greater_dalmuti", "lesser_peasant", "lesser_dalmuti"):
        for card in TAX[role]:
            taps.card(role, card)

    taps.name("Dee")
    taps.name("Ann")  # a slip: Cy went out second
    taps.name("Ann")  # tapped again, Ann is taken back and the second place is open
    assert page.locator("#finish_2").input_value() == ""
    assert page.locator(f"{HAND} .dal-tap button[data-name='Ann']").inner_text() == "Ann"
    for name in SECOND_ORDER[1:-1]:
        taps.name(name)
    assert [page.locator(f"#finish_{n}").input_value() for n in range(1, 7)] == SECOND_ORDER
    assert page.locator(f"{HAND} .dal-tap button[data-name='Cy']").inner_text() == "2. Cy"
    taps.record(2)

    played = phone.session(sid)["rounds"][1]["input"]
    assert played["tribute"] == TAX and played["finish_order"] == SECOND_ORDER


def test_a_jester_given_back_is_13_where_the_house_rules_allow_it(table_phone):
    phone = table_phone
    rules = {**RULES, "dalmuti_may_return_jester": True}
    sid = phone.api(
        "POST", "/api/sessions", {"game": "dalmuti", "players": PLAYERS, "rules": rules}
    )["id"]
    phone.api("POST", f"/api/sessions/{sid}/rounds", {"finish_order": FIRST_ORDER})
    page = phone.open(f"/sessions/{sid}")
    peasant = page.locator(f"{HAND} [data-pay]:has(#tribute_greater_peasant)")
    assert peasant.locator("button[data-card='J']").count() == 0  # a peasant never gives one
    jester = page.locator(f"{HAND} [data-pay]:has(#tribute_greater_dalmuti) [data-card='J']")
    assert jester.inner_text() == "13" and jester.get_attribute("title") == "Jester"
    taps = Taps(phone)
    tax = {**TAX, "greater_dalmuti": [12, "J"]}
    for role, cards in tax.items():
        for card in cards:
            taps.card(role, card)
    chips = page.locator(f"{HAND} [data-pay]:has(#tribute_greater_dalmuti) .dal-back")
    assert chips.all_inner_texts() == ["12", "13"]
    for name in SECOND_ORDER[:-1]:
        taps.name(name)
    taps.record(2)
    assert taps.count == TAX_HAND_TAPS
    assert phone.session(sid)["rounds"][1]["input"]["tribute"] == tax


def test_a_greater_revolution_is_one_tap(table_phone):
    phone = table_phone
    sid = start(phone, ({"finish_order": FIRST_ORDER},))
    page = phone.page
    taps = Taps(phone)
    taps.on("#dal-revolution [data-revolt='Dee'][data-kind='greater']")  # Dee, the Greater Peasant
    assert page.locator("#revolution_player").input_value() == "Dee"
    assert page.locator("#revolution_kind").input_value() == "greater"
    assert page.locator(f"{HAND} fieldset[data-tribute]").evaluate("node => node.disabled")
    order = ["Dee", "Eve", "Ben", "Fay", "Ann", "Cy"]
    for name in order[:-1]:
        taps.name(name)
    taps.record(2)
    assert taps.count == 1 + (len(PLAYERS) - 1) + 1

    played = phone.session(sid)["rounds"][1]["input"]
    assert played["revolution"] == {"player": "Dee", "kind": "greater"}
    assert played.get("tribute") is None and played["finish_order"] == order


def test_the_form_without_javascript_is_as_it_was(chromium, live_csrf):
    page = chromium.new_page(viewport=PHONE, java_script_enabled=False)
    try:
        helper = Phone(chromium, live_csrf[0])
        sid = helper.api(
            "POST", "/api/sessions", {"game": "dalmuti", "players": PLAYERS, "rules": RULES}
        )["id"]
        helper.page.close()
        page.goto(f"{live_csrf[0]}/sessions/{sid}")
        assert page.locator(f"{HAND} [data-tap-pad]").count() == 2  # revolution, places
        for index in range(2):
            assert not page.locator(f"{HAND} [data-tap-pad]").nth(index).is_visible()
        for place, name in enumerate(FIRST_ORDER, 1):
            page.select_option(f"#finish_{place}", name)
        with page.expect_navigation():
            page.locator("#round-form button[value=record]").click()
        assert "Round 1 recorded." in page.locator("#main").inner_text()
    finally:
        page.close()


@pytest.mark.parametrize("locale", ["ko-KR", "hu-HU"])
def test_the_pads_words_come_from_the_page_language(chromium, live_csrf, locale):
    context = chromium.new_context(viewport=PHONE, locale=locale)
    context.add_init_script(browser_support.VIEW % "all")  # the whole round form
    page = context.new_page()
    try:
        created = context.request.post(
            f"{live_csrf[0]}/api/sessions",
            data={"game": "dalmuti", "players": PLAYERS, "rules": RULES},
        )
        sid = created.json()["id"]
        context.request.post(
            f"{live_csrf[0]}/api/sessions/{sid}/rounds", data={"finish_order": FIRST_ORDER}
        )
        page.goto(f"{live_csrf[0]}/sessions/{sid}")
        undo = page.locator(f"{HAND} .dal-undo")
        assert undo.is_visible() and undo.inner_text().strip() not in ("", "Undo")
        owed = page.locator(f"{HAND} [data-owed]").first  # the page's words, the count put in
        assert owed.inner_text() == owed.get_attribute("data-owed").replace("{given}", "0")
    finally:
        context.close()
