"""Nothing hides under the record bar, at 390x844 in English, Korean and Hungarian: after a round
recorded through the page, the banner is one line with its Undo, every target of the banner and
the bar is 44x44 (Check too), the undo's toast never covers Record nor catches a tap over it; and
the new-session page's known names wrap onto rows, none hidden sideways."""

from __future__ import annotations

import pytest

from . import browser_support
from .table_drive import DALMUTI, DIXIT, MIGHTY, ON_SCREEN, RECORD, open_session

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
LANGUAGES = ["en", "ko", "hu"]
FIRST = {
    "mighty": {
        "dealer": "Minsu",
        "contract": {"boss": "Jiwoo", "bid": 14, "trump": "H"},
        "friend": {"card": "JK", "player": "Eunji"},
        "opposition_points": 5,
    },
    "dixit": {
        "storyteller": "Ann",
        "positions": DIXIT,
        "votes": {"Ben": 1, "Cy": 2, "Dee": 1, "Eve": 1},
    },
    "dalmuti": {"tribute": {"paid": True}, "finish_order": DALMUTI},
}
PLAYERS = {"mighty": MIGHTY, "dixit": DIXIT, "dalmuti": DALMUTI}
#: every target of the banner and the record bar, with its size
SIZES = """() => Array.from(document.querySelectorAll(
    "#just summary, #just button, #round-form .record-bar button"))
  .filter((node) => node.getClientRects().length)
  .map((node) => { const box = node.getBoundingClientRect();
    const words = node.textContent.trim().slice(0, 30);
    return [words, Math.round(box.width), Math.round(box.height)]; })"""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["mighty", "dixit", "dalmuti"])
def test_the_banner_is_one_line_and_every_target_44_px(table_phone, game, lang):
    open_session(table_phone, game, PLAYERS[game], [FIRST[game]], lang)
    page = table_phone.page
    sizes = page.evaluate(SIZES)
    assert len(sizes) >= 4, sizes  # the banner, its Undo, Record, Check
    small = [size for size in sizes if size[1] < 44 or size[2] < 44]
    assert small == [], f"{game} ({lang}): under 44 px: {small}"
    banner = page.locator("#just").bounding_box()
    assert banner and banner["height"] <= 52, f"{game} ({lang}): the banner is {banner}"
    undo = page.locator("#just .just-undo button").bounding_box()
    summary = page.locator("#just summary").bounding_box()
    assert undo and summary and abs(undo["y"] - summary["y"]) < 4, (undo, summary)
    page.locator("#just summary").click()  # the points in full, the totals and why, on a tap
    assert page.locator("#just .explanation li").first.is_visible()
    table_phone.check()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_undo_toast_leaves_record_free(table_phone, lang):
    second = {**FIRST["mighty"], "dealer": "Eunji"}  # the last hand's friend deals
    open_session(table_phone, "mighty", MIGHTY, [FIRST["mighty"], second], lang)
    page = table_phone.page
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the flash is off screen
    table_phone.tap("#just .just-undo button")
    assert len(table_phone.session(table_phone.session_id())["rounds"]) == 1
    toast = page.locator(".live-toast")
    record = page.locator(RECORD)
    record.scroll_into_view_if_needed()
    assert toast.count() == 1  # "Round 2 undone", shown where the player is
    box, button = toast.bounding_box(), record.bounding_box()
    assert box and button
    assert box["y"] + box["height"] <= button["y"] or box["y"] >= button["y"] + button["height"]
    assert toast.evaluate("n => getComputedStyle(n).pointerEvents") == "none"
    assert record.evaluate(ON_SCREEN), "Record is covered"


def test_the_known_names_wrap_instead_of_scrolling_sideways(table_phone):
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    for players in (names[:5], names[5:]):
        table_phone.api("POST", "/api/sessions", {"game": "dixit", "players": players})
    page = table_phone.open("/sessions/new?game=dixit")
    row = page.locator(".known-names")
    assert row.evaluate("n => n.scrollWidth <= n.clientWidth"), "the names scroll sideways"
    chips = row.locator("button[data-name]")
    assert chips.count() >= len(names)
    for index in range(chips.count()):
        box = chips.nth(index).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert box["height"] >= 44 and box["width"] >= 44, box
