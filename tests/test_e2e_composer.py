"""The round composer at 390x844: the largest tables fit, refusals lead to their control, every
control is a 44 px target, and the record bar keeps one row in every language."""

from __future__ import annotations

import pytest

from . import browser_support
from .table_rounds import ON_SCREEN, Table, open_session

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)
EIGHT = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
LANGUAGES = ["en", "ko", "hu"]
#: every control of the composer that is on screen, and its size
CONTROLS = """form =>
  Array.from(form.querySelectorAll('button, a, label:has(input), select, input'))
  .filter((node) => node.getClientRects().length && getComputedStyle(node).visibility !== 'hidden')
  .filter((node) => !(node.matches('input') && node.closest('label')))
  .filter((node) => !node.matches('.mighty-default, input[type=hidden]'))
  .map((node) => { const box = node.getBoundingClientRect();
    return [node.outerHTML.slice(0, 80), Math.round(box.width), Math.round(box.height)]; })"""


def test_dixit_for_eight_needs_no_search(table_phone):
    first = {
        "storyteller": "Ann",
        "positions": EIGHT,
        "votes": {name: 2 if name != "Ben" else 3 for name in EIGHT[1:]},
    }
    sid = open_session(table_phone, "dixit", EIGHT, [first], "en")
    table = Table(table_phone, "dixit 8p")
    for name in ["Cy", "Ben", "Dee", "Eve", "Fay", "Gus", "Hal"]:
        table.tap(f".dx-names button[data-name='{name}']")
    votes = {"Ann": 2, "Cy": 2, "Dee": 1, "Eve": 8, "Fay": 2, "Gus": 3, "Hal": 2}
    for voter, card in votes.items():
        table.tap(f".vote-row[data-voter='{voter}'] button[data-vote='{card}']")
    table.send("#round-form button[value=record]")
    count = table.done()
    assert count.scrolls == 0, count.off_screen
    stored = table_phone.session(sid)["rounds"][1]["input"]
    assert stored["votes"] == votes and stored["positions"][-1] == "Ann"


def test_dalmuti_for_eight_with_the_tax_needs_no_search(table_phone):
    first = {"tribute": {"paid": True}, "finish_order": EIGHT}
    sid = open_session(table_phone, "dalmuti", EIGHT, [first], "en")
    table = Table(table_phone, "dalmuti 8p-tax")
    table.tap("label.dal-paid")
    out = ["Hal", "Ann", "Gus", "Ben", "Fay", "Cy", "Eve"]
    for name in out:
        table.tap(f".dal-tap button[data-name='{name}']")
    table.send("#round-form button[value=record]")
    count = table.done()
    assert count.scrolls == 0 and count.taps == 9, count.line()
    stored = table_phone.session(sid)["rounds"][1]["input"]
    assert stored["finish_order"] == [*out, "Dee"] and stored["tribute"] == {"paid": True}


def test_a_refusal_opens_its_part_and_marks_its_control(table_phone):
    sid = open_session(table_phone, "mighty", EIGHT[:5], [], "en")
    page = table_phone.page
    page.locator(".mighty-names[data-for='boss'] button[data-value='Ben']").click()
    page.locator(".mighty-names[data-for='contract_bid'] button[data-value='14']").click()
    # the friend and the points are still to do: record anyway, from the line's points chip
    page.locator(".composer-line button[data-goto='points']").click()
    page.locator("[data-mighty-points] button[data-points='6']").click()
    table_phone.tap("#round-form button[value=record]", status=422)
    assert table_phone.session(sid)["rounds"] == []
    links = page.locator("#refused a[data-field]")
    assert links.count() >= 1
    field = links.first.get_attribute("data-field")
    links.first.click()
    marked = page.locator(".refusal-mark")
    assert marked.count() == 1 and marked.evaluate(ON_SCREEN)
    part = marked.evaluate("n => n.closest('[data-part]').dataset.part")
    assert page.locator("[data-part].composer-current").get_attribute("data-part") == part
    assert (field, part) in (("contract_trump", "contract"), ("friend_player", "friend"))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["mighty", "dixit", "dalmuti"])
def test_every_control_is_44px_and_the_record_bar_one_row(table_phone, game, lang):
    players = EIGHT[:6] if game == "dalmuti" else EIGHT[:5]
    rounds = [{"tribute": {"paid": True}, "finish_order": players}] if game == "dalmuti" else []
    open_session(table_phone, game, players, rounds, lang)
    page = table_phone.page
    form = page.locator("#round-form")
    for part in form.locator(".composer-line button, .composer-more .composer-extra").all():
        part.click()  # each part in turn, the rare ones too
        small = [c for c in form.evaluate(CONTROLS) if c[1] < 44 or c[2] < 44]
        assert small == [], f"{game} ({lang}): under 44 px: {small}"
    bar = page.locator("#round-form .record-bar")
    heights = bar.locator("button").evaluate_all("bs => bs.map((b) => b.offsetTop)")
    assert len(set(heights)) == 1, f"the record bar wraps ({lang})"
    cut = bar.locator("button").evaluate_all(
        "bs => bs.filter((b) => b.scrollWidth > b.clientWidth)"
    )
    assert cut == [], f"a record bar button is cut short ({lang})"
    table_phone.check()
