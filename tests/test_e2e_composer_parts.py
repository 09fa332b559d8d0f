"""The composer's parts at 390x844: a tap that opens a part (a chip of the line, a rare part's
chip, refapp:show-part) shows it and stays there, whatever part was unfinished; a part moves on
only when a tap inside it completes it; the line shows each part's value once done."""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import DALMUTI, DIXIT, MIGHTY, MIGHTY_FIRST, open_session

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
SHOWN = "[data-part].composer-current"


def shown(page) -> str:
    """Return the part the composer shows, a moment after the last tap (its settle runs)."""
    page.wait_for_timeout(150)
    return page.locator(SHOWN).get_attribute("data-part")


def names(field: str, name: str) -> str:
    """Return a Mighty name chip over a select."""
    return f".mighty-names[data-for='{field}'] button[data-value='{name}']"


def test_mighty_dealer_and_contract_open_on_a_tap_and_stay(table_phone):
    open_session(table_phone, "mighty", MIGHTY, [MIGHTY_FIRST], "en")
    page = table_phone.page
    assert shown(page) == "contract"
    page.locator(".composer-line button[data-goto='dealer']").click()  # the contract unfinished
    assert shown(page) == "dealer"
    page.locator(".composer-more .composer-extra[data-goto='dealer']").click()
    assert shown(page) == "dealer"
    page.locator(names("dealer", "Jiwoo")).click()  # a dealer picked again: on to the contract
    assert shown(page) == "contract"
    for selector in (
        names("boss", "Seoyeon"),
        names("contract_bid", "15"),
        "#contract label.mighty-chip[data-short='♠']",
    ):
        page.locator(selector).click()
    assert shown(page) == "friend"
    page.locator(".composer-line button[data-goto='contract']").click()  # the friend unfinished
    assert shown(page) == "contract"
    page.locator(names("contract_bid", "16")).click()  # not the last field: the part stays
    assert shown(page) == "contract"
    page.locator("#contract label.mighty-chip[data-short='♥']").click()  # the trump: moves on
    assert shown(page) == "friend"
    line = page.locator(".composer-line").inner_text()
    assert "dealer Jiwoo" in line and "Seoyeon 16" in line


def test_a_script_asks_for_a_part_and_it_stays(table_phone):
    open_session(table_phone, "mighty", MIGHTY, [MIGHTY_FIRST], "en")
    page = table_phone.page
    page.evaluate(
        """() => document.querySelector("#contract").dispatchEvent(new CustomEvent(
            "refapp:show-part", { bubbles: true, detail: { part: "points" } }))"""
    )
    assert shown(page) == "points"
    box = page.locator(SHOWN).bounding_box()
    assert box and 0 <= box["y"] < 844


def test_a_rare_part_shows_its_choices_on_the_line(table_phone):
    open_session(table_phone, "mighty", MIGHTY, [MIGHTY_FIRST], "en")
    page = table_phone.page
    extra = ".composer-more .composer-extra[data-goto='holders']"
    page.locator(extra).click()
    assert shown(page) == "holders"
    page.locator(".mighty-names[data-for='mighty_holder'] button[data-value='opposition']").click()
    assert shown(page) == "holders"
    chip = page.locator(".composer-line button[data-goto='holders']")
    assert "Opposition" in chip.inner_text()
    assert "Where the mighty" not in chip.inner_text()


def test_dixit_storyteller_chip_opens_and_stays(table_phone):
    first = {
        "storyteller": "Ann",
        "positions": DIXIT,
        "votes": {"Ben": 1, "Cy": 2, "Dee": 1, "Eve": 1},
    }
    open_session(table_phone, "dixit", DIXIT, [first], "en")
    page = table_phone.page
    assert shown(page) == "cards"
    page.locator(".composer-line button[data-goto='storyteller']").click()
    assert shown(page) == "storyteller"
    page.locator("[data-part='storyteller'] button:visible", has_text="Cy").click()
    assert shown(page) == "cards"
    assert "Cy" in page.locator(".composer-line button[data-goto='storyteller']").inner_text()


def test_dalmuti_tax_chip_opens_and_stays(table_phone):
    first = {"tribute": {"paid": True}, "finish_order": DALMUTI}
    open_session(table_phone, "dalmuti", DALMUTI, [first], "en")
    page = table_phone.page
    page.locator("label.dal-paid").click()
    assert shown(page) == "finish"
    page.locator(".composer-line button[data-goto='tax']").click()  # done, the order is not
    assert shown(page) == "tax"
    page.locator(".composer-more .composer-extra[data-goto='revolution']").click()
    assert shown(page) == "revolution"
