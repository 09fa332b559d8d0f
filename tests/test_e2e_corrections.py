"""Corrections in reach, in a real browser at phone size (390 x 844): a round of the history opens
its correction in place, under its "Correct"; saving it, or undoing the last round, keeps the
page where it is; a correction that must change the next round too (a Mighty friend deals the
next hand) is done in the same place, the next round's part in the form's sticky bar.

Every tap is counted and measured before it is made: a button off the screen, or hidden behind
the form's sticky bar, costs the scroll that brings it into reach (its length is recorded), and
every move the page makes by itself after a tap (window.scrollY) is recorded too. The stored
rounds are read back through the API.
"""

from __future__ import annotations

from . import browser_support
from .browser_support import PHONE, VIEW

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: each hand's friend (the boss is Ann); the friend deals the next hand
FRIENDS = ["Cy", "Ben", "Dee", "Eve"]
ROUNDS = 12
SCREEN = PHONE["height"]

#: how far a button must move to be tapped: 0 when its middle is on the screen and a tap there
#: reaches it (not the sticky bar over it); else the least scroll that brings it clear
REACH = """node => {
    const rect = node.getBoundingClientRect();
    const x = rect.left + rect.width / 2, y = rect.top + rect.height / 2;
    if (y >= 0 && y < innerHeight) {
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === node || node.contains(hit))) return 0;
    }
    const bars = Array.from(document.querySelectorAll(".record-bar"))
        .filter((bar) => !bar.contains(node))
        .map((bar) => bar.getBoundingClientRect())
        .filter((bar) => bar.top < innerHeight && bar.bottom > 0);
    const floor = Math.min(innerHeight, ...bars.map((bar) => bar.top));
    return Math.round(rect.bottom > floor ? rect.bottom - floor : -rect.top);
}"""


def hand(dealer: str, friend: str, bid: int = 13) -> dict:
    """Return a hand: Ann bids hearts, the joker calls the friend; the opposition took 3."""
    return {
        "dealer": dealer,
        "contract": {"boss": "Ann", "bid": bid, "trump": "H"},
        "friend": {"card": "JK", "player": friend},
        "opposition_points": 3,
    }


def twelve_hands(phone) -> int:
    """Record 12 hands through the API (each friend deals the next); return the session id."""
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": PLAYERS})["id"]
    dealer = "Ann"
    for number in range(ROUNDS):
        friend = FRIENDS[number % len(FRIENDS)]
        phone.api("POST", f"/api/sessions/{sid}/rounds", hand(dealer, friend))
        dealer = friend
    return sid


class Table:
    """A phone whose taps are counted and whose scrolls are measured before each tap."""

    def __init__(self, phone) -> None:
        self.phone = phone
        self.page = phone.page
        self.taps = 0
        self.scrolls: list[int] = []  # the player's own, to bring each button into reach
        self.moves: list[int] = []  # the page's, after each tap

    def scroll_y(self) -> int:
        return int(self.page.evaluate("Math.round(scrollY)"))

    def tap(self, selector: str, send: bool = False, status: int = 200) -> None:
        """Tap a button (scrolling first when it is out of reach); wait for an answer if sent."""
        locator = self.page.locator(selector)
        distance = int(locator.evaluate(REACH))
        self.scrolls.append(abs(distance))
        if distance:
            self.page.evaluate("d => window.scrollBy(0, d + Math.sign(d) * 8)", distance)
            assert locator.evaluate(REACH) == 0, f"{selector} is out of reach after scrolling"
        before = self.scroll_y()
        answered = self.phone.swaps()
        locator.click()
        if send:
            self.phone.wait_for_swap(answered)
            got = int(self.page.evaluate("document.body.dataset.liveStatus"))
            assert got == status, f"{selector}: {got}, expected {status}"
        self.moves.append(abs(self.scroll_y() - before))
        self.taps += 1

    def top(self, selector: str) -> float:
        return float(self.page.locator(selector).evaluate("n => n.getBoundingClientRect().top"))

    def shows(self, selector: str) -> bool:
        """Return True when some of the element lies on the screen."""
        box = self.page.locator(selector).evaluate(
            "n => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; }"
        )
        return box[1] > 0 and box[0] < SCREEN


def chip(field: str, value: str) -> str:
    """Return the chip that picks a value for a select of the correction open in place."""
    return f"#main .correction .mighty-names[data-for='fix-{field}'] button[data-value='{value}']"


SAVE = "#main .correction .record-bar button[value=record]"
FRIEND_PART = "#main .correction .composer-line button[data-goto='friend']"


def read_history(table: Table) -> None:
    """Open the session page and bring round 1 of the history on screen, as a reader finds it."""
    table.page.locator("#round-1").evaluate("n => n.scrollIntoView({block: 'center'})")
    assert table.shows("#round-1 a[data-correct]")


def test_round_one_of_twelve_corrected_in_place_in_three_taps(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.open(f"/sessions/{sid}")
    phone.page.evaluate("() => { window.stayed = true; }")  # gone if the page ever reloads
    read_history(table)

    table.tap("#round-1 a[data-correct]", send=True)
    assert table.page.locator("#round-1 .correction form").count() == 1
    assert table.page.locator("#round-1 a[data-correct]").get_attribute("aria-expanded") == "true"
    assert table.shows("#round-1 .correction")
    assert table.page.locator("#fix-boss").input_value() == "Ann"  # the stored hand, to change
    for control in ("#round-1 a[data-correct]", SAVE, "#main .correction a[data-close]",
                    "#fix-next-round > summary"):  # fmt: skip
        size = table.page.locator(control).bounding_box()
        assert size and size["height"] >= 44 and size["width"] >= 44, control
    table.tap(chip("contract_bid", "14"))
    table.tap(SAVE, send=True)

    assert table.taps <= 3
    assert max(table.scrolls) < SCREEN, table.scrolls  # no long scroll
    assert max(table.moves) < SCREEN, table.moves  # nor a jump
    assert phone.page.evaluate("() => window.stayed === true")
    assert table.shows("#round-1") and table.page.locator("#round-1 .correction").count() == 0
    assert table.page.locator("#round-1 .tag").inner_text() == "corrected"
    assert "Round 1 corrected; later rounds were rescored." in phone.flash()

    session = phone.session(sid)
    first = session["rounds"][0]
    assert first["input"]["contract"]["bid"] == 14 and len(session["rounds"]) == ROUNDS
    shown = table.page.locator("#round-1 .deltas .delta b").all_inner_texts()
    assert [int(text.replace("+", "").replace("−", "-")) for text in shown] == [
        first["result"]["deltas"][name] for name in PLAYERS
    ]
    assert phone.standings() == session["totals"]
    phone.check("after the correction")


def test_a_friend_corrected_with_the_next_dealer_in_four_taps(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.page.add_init_script(VIEW % "steps")  # the correction one part at a time
    phone.open(f"/sessions/{sid}")
    read_history(table)
    before = phone.session(sid)["rounds"]

    table.tap("#round-1 a[data-correct]", send=True)
    table.tap(FRIEND_PART)  # the line of what the round records: its friend
    table.tap(chip("friend_player", "Dee"))  # Dee held the joker, not Cy
    # so Dee deals hand 2: the next round's dealer follows at once, and is saved with it
    assert phone.session(sid)["rounds"] == before
    assert table.page.locator("#fix-also_next").is_checked()
    assert table.page.locator("#fix-next-dealer").input_value() == "Dee"
    table.tap(SAVE, send=True)

    assert table.taps <= 4
    assert max(table.scrolls) == 0, table.scrolls  # every control on the screen when tapped
    assert max(table.moves) < SCREEN, table.moves
    assert table.shows("#round-1")
    assert "Rounds 1 and 2 corrected; later rounds were rescored." in phone.flash()
    rounds = phone.session(sid)["rounds"]
    assert rounds[0]["input"]["friend"]["player"] == "Dee"
    assert rounds[1]["input"]["dealer"] == "Dee"
    assert [played["input"] for played in rounds[2:]] == [played["input"] for played in before[2:]]
    assert table.page.locator("#round-2 .tag").inner_text() == "corrected"
    phone.errors = [error for error in phone.errors if "status of 422" not in error]
    phone.check("after the two-round correction")


def test_the_next_round_opened_from_the_bar_before_saving(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.page.add_init_script(VIEW % "steps")
    phone.open(f"/sessions/{sid}")
    read_history(table)

    table.tap("#round-1 a[data-correct]", send=True)
    table.tap(FRIEND_PART)
    table.tap(chip("friend_player", "Dee"))
    table.tap("#fix-next-round > summary")  # "Round 2 must change too?", in the sticky bar
    # the next round's dealer already follows the friend (mighty_follow.js), saved with it
    assert table.page.locator("#fix-next-dealer").input_value() == "Dee"
    assert table.page.locator("#fix-also_next").is_checked()  # a change there saves it too
    table.tap(SAVE, send=True)

    assert table.taps <= 6 and max(table.scrolls) == 0 and max(table.moves) < SCREEN
    rounds = phone.session(sid)["rounds"]
    assert rounds[0]["input"]["friend"]["player"] == "Dee"
    assert rounds[1]["input"]["dealer"] == "Dee"
    phone.check("after the two-round correction")


def test_undo_keeps_the_page_where_it_is(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.open(f"/sessions/{sid}")
    table.page.locator("#round-12").evaluate("n => n.scrollIntoView({block: 'center'})")
    below = table.top("#round-11")

    table.tap("#round-12 button:has-text('Undo')", send=True)
    assert phone.dialogs == ["Undo round 12? It stays in the history of changes."]  # asked once
    assert table.page.locator("#round-12").count() == 0
    assert abs(table.top("#round-11") - below) <= 1  # the round below stays where it stood
    assert table.page.locator("#round-11 button:has-text('Undo')").count() == 1
    assert "Round 12 undone." in phone.flash()
    assert len(phone.session(sid)["rounds"]) == ROUNDS - 1
    phone.check("after the undo")


def test_a_correction_closes_where_it_opened_and_one_opens_at_a_time(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.open(f"/sessions/{sid}")
    read_history(table)

    table.tap("#round-2 a[data-correct]", send=True)
    table.tap("#round-1 a[data-correct]", send=True)  # the other one closes: fields share names
    assert table.page.locator("#main .correction").count() == 1
    assert table.page.locator("#round-2 a[data-correct]").get_attribute("aria-expanded") == "false"
    table.tap("#main .correction a[data-close]")  # Cancel
    assert table.page.locator("#main .correction").count() == 0
    assert table.shows("#round-1 a[data-correct]")
    assert phone.session(sid)["rounds"][0]["input"] == hand("Ann", "Cy")
    phone.check("after closing")


def test_another_phone_s_round_leaves_the_open_correction_as_it_was(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.open(f"/sessions/{sid}")
    read_history(table)
    table.tap("#round-1 a[data-correct]", send=True)
    table.tap(chip("contract_bid", "14"))
    where = table.top("#round-1")

    # another phone records hand 13: this page follows (live.js), the correction stays open
    phone.api("POST", f"/api/sessions/{sid}/rounds", hand("Eve", "Ben"))
    table.page.wait_for_selector("#round-13", timeout=10_000)
    assert table.page.locator("#round-1 .correction").count() == 1
    assert table.page.locator("#fix-contract_bid").input_value() == "14"  # the entry is kept
    assert abs(table.top("#round-1") - where) <= 1
    table.tap(SAVE, send=True)

    rounds = phone.session(sid)["rounds"]
    assert len(rounds) == ROUNDS + 1 and rounds[0]["input"]["contract"]["bid"] == 14
    assert rounds[-1]["input"] == hand("Eve", "Ben")
    phone.check("after the correction")


def test_a_correction_sent_without_a_connection_says_so_and_is_sent_again_by_a_tap(phone):
    sid = twelve_hands(phone)
    table = Table(phone)
    phone.open(f"/sessions/{sid}")
    read_history(table)
    table.tap("#round-1 a[data-correct]", send=True)
    table.tap(chip("contract_bid", "14"))
    edit = f"**/sessions/{sid}/rounds/1/edit*"
    table.page.route(edit, lambda route: route.abort())
    table.tap(SAVE, send=True, status=0)
    note = table.page.locator("#round-1 .correction .live-note")
    assert "No connection. Nothing was sent" in note.inner_text()
    assert table.shows("#round-1 .correction .live-note")  # in the sticky bar, on screen
    assert phone.session(sid)["rounds"][0]["input"]["contract"]["bid"] == 13
    assert table.page.locator("#fix-contract_bid").input_value() == "14"  # the entry is kept

    table.page.unroute(edit)
    table.tap(SAVE, send=True)
    assert phone.session(sid)["rounds"][0]["input"]["contract"]["bid"] == 14
    assert table.shows("#round-1")
    phone.errors = [error for error in phone.errors if "ERR_FAILED" not in error]
    phone.check("after the correction sent again")
