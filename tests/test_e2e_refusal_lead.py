"""A refusal is a link to its control at 390x844: tapped, it opens the control's part, brings the
control wholly into view above the record bar and focuses a button, chip or select - never a
text box, which would open a phone's keyboard. A refusal about a group of fields (a game's
``groups``: the finishing order, the positions) is a link too, to the group."""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import DALMUTI, MIGHTY, MIGHTY_FIRST, open_session

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
#: the marked control: wholly on screen above the record bar, and what has the focus
WHERE = """() => {
  const mark = document.querySelector(".refusal-mark");
  const bar = document.querySelector("#round-form .record-bar");
  const box = mark.getBoundingClientRect();
  const focused = document.activeElement;
  return {
    top: box.top, bottom: box.bottom, bar: bar.getBoundingClientRect().top,
    focus: focused.tagName.toLowerCase() + (focused.type ? ":" + focused.type : ""),
    inside: mark.contains(focused) || mark === focused,
    part: document.querySelector("[data-part].composer-current").dataset.part,
  };
}"""
#: the keyboard's inputs: what a refusal must never focus
TEXT_BOXES = ("input:text", "input:number", "textarea:textarea", "input:search", "input:tel")


def assert_led(page, part: str) -> None:
    """Assert the refusal led to a marked control of the part, above the bar, not a text box."""
    where = page.evaluate(WHERE)
    assert where["part"] == part, where
    assert where["top"] >= 0 and where["bottom"] <= where["bar"], where
    assert where["inside"] and where["focus"] not in TEXT_BOXES, where


def test_a_group_refusal_is_a_link_to_its_group(table_phone):
    open_session(table_phone, "dalmuti", DALMUTI, [], "en")
    page = table_phone.page
    table_phone.tap("#round-form button[value=record]", status=422)
    links = page.locator("#refused a[data-field]")
    items = page.locator("#refused li")
    assert links.count() == items.count() >= 1, page.locator("#refused").inner_text()
    for index in range(links.count()):
        link = links.nth(index)
        part = page.evaluate(
            "id => (document.getElementById(id) || document.getElementsByName(id)[0])"
            ".closest('[data-part]').dataset.part",
            link.get_attribute("data-field"),
        )
        page.evaluate("window.scrollTo(0, 0)")
        link.click()
        assert_led(page, part)
    groups = page.locator("#refused a[data-field$='-refused']")
    assert groups.count() >= 1  # the finishing order, a group of places


def test_a_text_box_refused_leads_to_its_pad_not_the_keyboard(table_phone):
    open_session(table_phone, "mighty", MIGHTY, [MIGHTY_FIRST], "en")
    page = table_phone.page
    # a refusal of the points, as the server would write it, over the form's top
    page.evaluate(
        """() => {
          const box = document.createElement("div");
          box.className = "refused";
          box.innerHTML = '<a href="#opposition_points" data-field="opposition_points">Points</a>';
          document.querySelector("#round-form").prepend(box);
          window.scrollTo(0, 0);
        }"""
    )
    page.locator(".refused a[data-field]").click()
    assert_led(page, "points")


def test_a_select_under_the_bar_is_brought_above_it(table_phone):
    open_session(table_phone, "mighty", MIGHTY, [MIGHTY_FIRST], "en")
    page = table_phone.page
    page.evaluate(
        """() => {
          const box = document.createElement("div");
          box.className = "refused";
          box.innerHTML = '<a href="#friend_player" data-field="friend_player">Friend</a>';
          document.querySelector("#round-form").prepend(box);
        }"""
    )
    page.locator(".refused a[data-field]").click()
    assert_led(page, "friend")
