"""Mighty's rounds a table plays every few hands, on the phone at 390x844 in three languages: a
contract raised after a logged auction and a misdeal the table saw, each within its targets
(taps, scrolls, model seconds; tests/table_rounds_mighty.py), and what the auction's end shows.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import MIGHTY, Table, open_session
from .table_rounds_mighty import FIRST, KINDS, TARGETS

pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
LANGUAGES = ["en", "ko", "hu"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_round_is_within_its_targets(table_phone, kind, lang):
    count, _session = KINDS[kind](table_phone, lang)
    taps, scrolls, seconds = TARGETS[kind]
    assert count.scrolls <= scrolls, f"{kind} ({lang}): off screen: {count.off_screen}"
    assert count.typed == 0 and count.refusals == 0
    assert count.taps <= taps and count.seconds <= seconds, count.line()
    print(f"{lang} {count.line()}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_after_the_last_pass_the_contract_is_open_on_screen(table_phone, lang):
    """D6: the auction's last pass opens the contract, prefilled with the winning bid, and its
    controls are on the screen; the auction stays one tap away on the composer's line."""
    phone = table_phone
    open_session(phone, "mighty", MIGHTY, [FIRST], lang)
    table = Table(phone, "D6")
    page = phone.page
    table.tap(".composer-more [data-goto='auction']")
    table.send("#auction button[name=action][value=bid_S_14]")
    assert page.locator("#auction .mighty-pass-rest").is_visible()
    table.send("#auction .mighty-pass-rest")
    contract = page.locator("#contract")
    assert "composer-current" in (contract.get_attribute("class") or "")
    assert contract.is_visible() and not page.locator("#auction .mighty-bids").is_visible()
    assert page.locator("#boss").input_value() == "Eunji"
    assert page.locator("#contract_bid").input_value() == "14"
    for selector in (
        ".mighty-names[data-for='contract_bid'] button[data-value='15']",
        "#contract label.mighty-chip[data-short='♠']",
    ):
        assert page.locator(selector).evaluate(
            "node => { const box = node.getBoundingClientRect();"
            " return box.top >= 0 && box.bottom <= innerHeight; }"
        ), selector
    # the auction's piece on the line opens it again, and it stays open
    table.tap(".composer-line [data-goto='auction']")
    page.wait_for_timeout(100)
    assert page.locator("#auction").evaluate("node => node.classList.contains('composer-current')")
    assert table.count.scrolls == 0, table.count.off_screen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_misdeals_cards_are_one_chip_away_and_checked(table_phone, lang):
    """The cards of a misdeal stay one chip away: tapped, they are checked as usual."""
    phone = table_phone
    sid = open_session(phone, "mighty", MIGHTY, [FIRST], lang)
    table = Table(phone, "misdeal cards")
    table.tap(".composer-more [data-goto='misdeal']")
    table.tap(".mighty-names[data-for='misdeal_player'] button[data-value='Seoyeon']")
    table.tap(".mighty-misdeal-cards > summary")
    high = ["SA", "SK", "SQ", "SJ", "S10", "HA", "HK", "HQ", "HJ", "H10"]
    for card in high:
        phone.page.locator(f"[data-deal-card='{card}']").click()
    table.send("#round-form button[name=action][value=misdeal_shown]", status=422)
    assert phone.session(sid)["rounds_total"] == 1
    assert phone.page.locator(".mighty-misdeal-cards").evaluate("node => node.open")

