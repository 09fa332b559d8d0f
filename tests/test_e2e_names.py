"""A returning table in a real browser at 390x844 (CSRF on): a new mix of known names seated by
chips and the seats reordered by taps, with no key pressed; a table prefilled by "the same
players again" reordered the same way; the stored session's players read back through the API.
The chips wrap onto rows (none hidden sideways), and the Mighty form stays under 2.5 screens
even with sixteen long names.
"""

from __future__ import annotations

import pytest

from . import browser_support

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

MIGHTY = ["Minsu", "Jiwoo", "Ann", "Ben", "Cy"]
DIXIT = ["Dee", "Eve", "Fay", "Gus"]
#: counts every key pressed and every character typed on the page
KEY_COUNTER = """() => {
    window.keys = 0;
    document.addEventListener("keydown", () => { window.keys += 1; }, true);
    document.addEventListener("beforeinput", (event) => {
        if (event.inputType.startsWith("insert")) window.keys += 1;
    }, true);
}"""


class Taps:
    """Taps a phone's buttons and counts them."""

    def __init__(self, phone) -> None:
        self.phone, self.page, self.count = phone, phone.page, 0

    def chip(self, name: str) -> None:
        """Tap a known name's chip."""
        self.page.locator(".known-names button", has_text=name).click()
        self.count += 1

    def seat(self, number: int) -> None:
        """Tap the seat with this number (1 first)."""
        self.page.locator(f".seat-order button[data-seat='{number - 1}']").click()
        self.count += 1

    def start(self) -> int:
        """Tap "Start the session"; return the new session's id."""
        self.phone.tap("form.new-session > button[type=submit]")
        self.count += 1
        return self.phone.session_id()


def seat_names(page) -> list[str]:
    """Return the seats the form shows, in order (the names without their numbers)."""
    texts = page.locator(".seat-order button").all_inner_texts()
    return [text.split(maxsplit=1)[1] for text in texts]


def pressed(page) -> list[str]:
    """Return the known names whose chips show them seated."""
    return page.locator(".known-names button[aria-pressed=true]").all_inner_texts()


def seed(phone) -> tuple[int, int]:
    """Store two earlier tables (once per module); return (mighty id, dixit id)."""
    found = phone.api("GET", "/api/sessions?game=mighty")["sessions"]
    if not found:
        phone.api("POST", "/api/sessions", {"game": "dixit", "players": DIXIT})
        phone.api("POST", "/api/sessions", {"game": "mighty", "players": MIGHTY})
        found = phone.api("GET", "/api/sessions?game=mighty")["sessions"]
    dixit = phone.api("GET", "/api/sessions?game=dixit")["sessions"]
    return found[-1]["id"], dixit[-1]["id"]


def test_a_new_mix_of_known_names_by_chips_and_seats_swapped_by_taps(table_phone):
    phone = table_phone
    seed(phone)
    page = phone.open("/sessions/new?game=mighty")
    page.evaluate(KEY_COUNTER)
    chips = page.locator(".known-names button").all_inner_texts()
    assert chips[:5] == MIGHTY and set(DIXIT) <= set(chips[5:])  # the latest table first
    taps = Taps(phone)
    for name in ["Dee", "Minsu", "Eve", "Ann", "Jiwoo"]:
        taps.chip(name)
    assert seat_names(page) == ["Dee", "Minsu", "Eve", "Ann", "Jiwoo"]
    assert sorted(pressed(page)) == ["Ann", "Dee", "Eve", "Jiwoo", "Minsu"]
    taps.chip("Eve")  # a second tap takes Eve away; Fay takes the freed place at the end
    assert seat_names(page) == ["Dee", "Minsu", "Ann", "Jiwoo"] and "Eve" not in pressed(page)
    taps.chip("Fay")
    # Minsu deals first tonight: tap his seat, then the first seat
    taps.seat(2)
    assert page.locator(".seat-order button[aria-pressed=true]").text_content() == "2 Minsu"
    taps.seat(1)
    assert seat_names(page) == ["Minsu", "Dee", "Ann", "Jiwoo", "Fay"]
    assert page.locator("#players").input_value() == "Minsu\nDee\nAnn\nJiwoo\nFay"
    assert page.evaluate("window.keys") == 0
    sid = taps.start()
    assert phone.session(sid)["players"] == ["Minsu", "Dee", "Ann", "Jiwoo", "Fay"]
    assert taps.count == 10  # 6 chips, 2 taps to swap, one to start (and one mistake undone)
    phone.check()


def test_keys_stay_at_zero_until_the_form_is_sent(table_phone):
    phone = table_phone
    seed(phone)
    page = phone.open("/sessions/new?game=dixit")
    page.evaluate(KEY_COUNTER)
    taps = Taps(phone)
    for name in ["Gus", "Ann", "Cy", "Fay"]:
        taps.chip(name)
    taps.seat(4)
    taps.seat(1)
    assert page.evaluate("window.keys") == 0
    assert seat_names(page) == ["Fay", "Ann", "Cy", "Gus"]
    sid = taps.start()
    assert phone.session(sid)["players"] == ["Fay", "Ann", "Cy", "Gus"] and taps.count == 7


def test_the_same_players_again_reordered_by_taps(table_phone):
    phone = table_phone
    mighty, _dixit = seed(phone)
    page = phone.open("/")
    chip = page.locator(f".same-table a[href$='again={mighty}']")
    phone.tap(chip)
    page.evaluate(KEY_COUNTER)
    assert seat_names(page) == MIGHTY and sorted(pressed(page)) == sorted(MIGHTY)
    taps = Taps(phone)
    taps.seat(5)  # Cy moves to the first seat, Minsu to the last
    taps.seat(1)
    taps.seat(3)  # a seat tapped twice is let go: nothing moves
    taps.seat(3)
    assert page.locator(".seat-order button[aria-pressed=true]").count() == 0
    assert seat_names(page) == ["Cy", "Jiwoo", "Ann", "Ben", "Minsu"]
    assert page.evaluate("window.keys") == 0
    sid = taps.start()
    assert phone.session(sid)["players"] == ["Cy", "Jiwoo", "Ann", "Ben", "Minsu"]
    assert phone.session(sid)["rules"] == phone.session(mighty)["rules"]


def test_a_typed_name_is_a_seat_too(table_phone):
    phone = table_phone
    seed(phone)
    page = phone.open("/sessions/new?game=dixit")
    page.locator("#players").fill("Zed\n")
    Taps(phone).chip("Ann")
    assert seat_names(page) == ["Zed", "Ann"] and pressed(page) == ["Ann"]
    page.locator("#players").fill("Zed")
    assert seat_names(page) == ["Zed"] and pressed(page) == []


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_sixteen_chips_wrap_and_the_mighty_form_fits(table_phone, language):
    phone = table_phone
    seed(phone)
    for table in range(3):  # 15 more names, long ones: more than a row holds
        names = [f"{language} Player {table}{seat} Long-Name" for seat in range(5)]
        phone.api("POST", "/api/sessions", {"game": "mighty", "players": names})
    phone.page.context.add_cookies([{"name": "lang", "value": language, "url": phone.base}])
    for path in ["/sessions/new?game=mighty", f"/sessions/new?game=mighty&again={seed(phone)[0]}"]:
        page = phone.open(path)
        chips = page.locator(".known-names button")
        assert chips.count() == 16
        boxes = [chips.nth(i).bounding_box() for i in range(16)]
        assert len({round(box["y"]) for box in boxes}) > 1  # rows: none hidden sideways (D12)
        assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes)
        row = page.locator(".known-names")
        assert row.evaluate("node => node.scrollWidth <= node.clientWidth")  # nothing scrolls
        height = page.evaluate("document.body.scrollHeight")
        assert height < 2.5 * 844, f"{path} ({language}): {height}px"  # 16 long names, a row each
        phone.check()  # the document itself does not scroll sideways
    seats = page.locator(".seat-order button")
    seats.first.scroll_into_view_if_needed()  # under the rows of names
    boxes = [seats.nth(i).bounding_box() for i in range(seats.count())]
    assert len(boxes) == 5 and len({box["y"] for box in boxes}) == 1  # five seats: one row
    seats.nth(1).click()  # a seat picked stands out without moving any seat
    assert [seats.nth(i).bounding_box() for i in range(5)] == boxes
