"""Who takes this trick? in a real browser at phone size: the cards tapped on the grid in the
order played build the form, which is sent when the fifth card is in; the winner is shown, with
no console errors and no sideways scrolling."""

from __future__ import annotations

from . import browser_support

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone


def test_tapping_a_dead_first_trick_joker(phone):
    page = phone.open("/")
    phone.tap("a:has-text('Mighty: who takes this trick?')")
    page.locator("#trick-trump label.trick-chip", has_text="Spades").click()
    page.locator("#trick-number label.trick-chip", has_text="1").first.click()
    assert page.locator("#trick-suit").is_hidden()  # no joker led yet
    for card in ("H5", "JK", "HK", "H2"):
        page.locator(f"button[name=add][value={card}]").click()
    assert page.locator("#cards").input_value() == "H5,JK,HK,H2"
    assert page.locator("button[name=add][value=HK]").is_disabled()  # greyed once tapped
    page.locator("button[name=undo]").click()
    assert page.locator("#cards").input_value() == "H5,JK,HK"
    assert not page.locator("button[name=add][value=H2]").is_disabled()
    page.locator("button[name=add][value=H2]").click()
    phone.tap("button[name=add][value=C4]")  # the fifth card sends the form
    verdict = page.locator("#verdict").inner_text()
    assert "3rd play" in verdict and "♥K" in verdict
    assert "The highest card of the led suit (선도패)" in verdict
    assert "trump=S" in page.url and "trick=1" in page.url
    box = page.locator("button[name=add][value=SA]").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    phone.check()


def test_a_led_joker_asks_for_its_suit(phone):
    page = phone.open("/trick?trump=H&trick=5")
    assert page.locator("#trick-suit").is_hidden()
    page.locator("button[name=add][value=JK]").click()
    assert page.locator("#trick-suit").is_visible()
    for card in ("DK", "DA", "H2", "D3"):
        page.locator(f"button[name=add][value={card}]").click()
    assert page.url.endswith("/trick?trump=H&trick=5")  # five cards, but the suit is missing
    phone.tap(page.locator("#trick-suit label.trick-chip", has_text="Diamonds"))
    verdict = page.locator("#verdict").inner_text()
    assert "1st play" in verdict and "The joker (조커)" in verdict and "♦A" in verdict
