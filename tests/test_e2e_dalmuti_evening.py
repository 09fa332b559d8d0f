"""Dalmuti in the composer at 390x844: what a revolution makes moot is not asked, a refusal
about the whole order leads to the place that repeats a name, and a tribute's count to its card
pad (never its text box).

Each test enters its hand by taps on the page as a table does and reads the stored round back.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import ON_SCREEN, open_session
from .table_rounds_cards import SIX

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
FIRST = {"tribute": {"paid": True}, "finish_order": SIX}
ORDER = ["Dee", "Ann", "Fay", "Ben", "Eve", "Cy"]


def part(page) -> str:
    """Return the part the composer shows, once the page has settled after a tap."""
    page.wait_for_timeout(150)
    return page.evaluate("document.querySelector('#round-form').dataset.composerPart")


def line(page) -> list[str]:
    """Return the parts the composer's line names, once the page has settled after a tap."""
    page.wait_for_timeout(150)
    return page.locator(".composer-line button").evaluate_all("bs => bs.map(b => b.dataset.goto)")


def wait_for_line(page, goto: str) -> None:
    """Wait until the composer's line names the part `goto` (it is redrawn after the tap)."""
    page.wait_for_selector(f".composer-line button[data-goto='{goto}']", timeout=3000)


def tap_out(page, names: list[str]) -> None:
    """Tap the players as they went out (the last place fills itself)."""
    for name in names[:-1]:
        page.locator(f".dal-tap button[data-name='{name}']").click()


def test_after_a_revolution_the_tax_is_not_asked(table_phone):
    sid = open_session(table_phone, "dalmuti", SIX, [FIRST], "en")
    page = table_phone.page
    assert part(page) == "tax" and "tax" in line(page)
    page.locator(".composer-more button[data-goto='revolution']").click()
    assert part(page) == "revolution"
    page.locator("#dal-revolution button[data-revolt='Cy'][data-kind='plain']").click()
    # straight on to who went out: no tax part, no tax in the line, no tribute chip
    assert part(page) == "finish"
    assert "tax" not in line(page) and "revolution" in line(page)
    assert page.locator("#dal-tax").is_hidden()
    assert page.locator(".composer-more button[data-goto='tribute']").is_hidden()
    assert page.locator("#tribute_paid").is_disabled()
    # taken back, the tax is due again; declared again, it goes again
    page.locator(".composer-line button[data-goto='revolution']").click()
    page.locator("#dal-revolution button[data-revolt='Cy'][data-kind='plain']").click()
    wait_for_line(page, "tax")
    assert "tax" in line(page) and page.locator("#tribute_paid").is_enabled()
    page.locator("#dal-revolution button[data-revolt='Cy'][data-kind='plain']").click()
    assert part(page) == "finish" and "tax" not in line(page)
    tap_out(page, ORDER)
    # the composer redraws just after the tap: wait for it to call the round ready
    page.wait_for_selector("#round-form.composer-ready", timeout=3000)
    table_phone.tap("#round-form button[value=record]")
    played = table_phone.session(sid)["rounds"][-1]
    assert played["input"]["revolution"] == {"player": "Cy", "kind": "plain"}
    assert played["input"]["tribute"] is None and played["input"]["finish_order"] == ORDER
    assert played["result"]["ranks_during"] == SIX  # a plain revolution keeps the ranks


def test_a_name_listed_twice_leads_to_its_place(table_phone):
    sid = open_session(table_phone, "dalmuti", SIX, [FIRST], "en")
    page = table_phone.page
    page.locator("label.dal-paid").click()
    page.locator(".composer-view").click()  # "All at once": the places' selects
    for place, name in enumerate(["Dee", "Ann", "Fay", "Dee", "Eve"], 1):
        page.select_option(f"#finish_{place}", name)
    table_phone.tap("#round-form button[value=record]", status=422)
    link = page.locator("#refused a[data-field]")
    assert link.count() == 1 and link.get_attribute("data-field") == "finish_4"
    assert link.inner_text() == (
        "'Dee' is listed twice in the finishing order; name every player once."
    )
    page.evaluate("window.scrollTo(0, 0)")
    link.click()
    assert page.evaluate("document.activeElement.id") == "finish_4"
    assert page.locator("#finish_4").evaluate(ON_SCREEN)
    assert len(table_phone.session(sid)["rounds"]) == 1


def test_a_tribute_count_refused_leads_to_its_card_pad(table_phone):
    sid = open_session(table_phone, "dalmuti", SIX, [FIRST], "en")
    page = table_phone.page
    page.locator(".composer-more button[data-goto='tribute']").click()
    page.locator("[data-pay]:has(#tribute_greater_peasant) button[data-card='5']").click()
    table_phone.tap("#round-form button[value=check_tax]", status=422)
    link = page.locator("#refused a[data-field='tribute_greater_peasant']")
    assert link.inner_text().startswith("Cards the Greater Peasant gives: exactly 2, not 1")
    page.evaluate("window.scrollTo(0, 0)")
    link.click()
    focused = page.evaluate(
        "() => [document.activeElement.tagName, document.activeElement.closest('[data-for]')"
        "?.dataset.for]"
    )
    assert focused == ["BUTTON", "tribute_greater_peasant"]  # the pad, never the text box
    assert page.locator(".refusal-mark").evaluate(ON_SCREEN)
    assert len(table_phone.session(sid)["rounds"]) == 1
