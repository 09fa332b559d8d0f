"""Changing a card played on the Mighty card pad, in a real browser at phone size (390x844).

The hand is ``MT-01`` of ``tests/golden/mighty-tricks.json`` (Ben 14 no-trump, friend ♥A).
A card of trick 3 is tapped wrongly and noticed while trick 5 is being entered: one tap on the
card in its trick, one on the right card in the grid. When the tricks after it still fit they
are all kept; when the change moves trick 3 to another winner, the tricks the old winner led
are dropped and the pad says so. Either way the hand finished and recorded after the repair
is stored with the right cards and scores as the rules say (``GET /api/sessions/<id>``).
"""

from __future__ import annotations

from . import browser_support
from .test_e2e_card_pad import PAD, Taps, enter_contract, golden, play_trick, start_session

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

#: the most taps a change may cost when the tricks after it still fit
CHANGE_TAPS = 3
#: where a button stands on the screen, and whether a tap there reaches it
PLACE = """(node) => {
    const box = node.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {top: box.top, bottom: box.bottom, width: box.width, height: box.height,
            screen: window.innerHeight, reached: node.contains(hit)};
}"""


def tap_cards(taps: Taps, cards: list[str]) -> None:
    """Tap cards on the pad one after another, each answered by the referee."""
    for card in cards:
        taps.pad(f"{PAD} button[data-pad-card='{card}']")


def place(taps: Taps, selector: str) -> dict:
    """Return where an element stands on the screen as it is now (nothing scrolled)."""
    return taps.page.locator(selector).evaluate(PLACE)


def open_pad(phone, hand: dict) -> Taps:
    """Start a session, tap the contract and open the pad; return the tap counter."""
    start_session(phone)
    taps = Taps(phone)
    enter_contract(taps, hand["contract"], hand["friend"]["card"])
    taps.pad(f"{PAD} > summary")
    return taps


def change(taps: Taps, played: str, right: str) -> tuple[int, list[dict]]:
    """Change a played card ("trick.play" from 0) to the right one; return the taps and places."""
    before = taps.total
    button = f"{PAD} button[data-pad-change='{played}']"
    places = [place(taps, button)]
    taps.tap(button)
    fixing = taps.page.locator(f"{PAD} [data-pad-fixing]")
    assert fixing.is_visible()
    card = f"{PAD} button[data-pad-card='{right}']"
    places.append(place(taps, card))
    # the question takes the turn's place: the grid's first and last cards stay in reach
    places += [place(taps, f"{PAD} button[data-pad-card='{edge}']") for edge in ("SA", "JK")]
    taps.pad(card)
    assert fixing.is_hidden()
    return taps.total - before, places


def record_and_check(phone, taps: Taps, name: str) -> None:
    """Record the hand and check the stored tricks and the scores against the worked hand."""
    round_ = golden(name)
    sid = phone.session_id()
    assert taps.page.locator(f"{PAD} [data-pad-turn]").inner_text() == "All 10 tricks are in."
    phone.tap("button[name=action][value=record]")
    session = phone.session(sid)
    (stored,) = session["rounds"]
    assert stored["input"]["tricks"] == round_["input"]["tricks"]
    assert stored["input"]["opposition_points"] == round_["result"]["opposition_points"]
    assert session["totals"] == round_["deltas"]
    phone.check(f"{name} recorded after a change")


def test_a_card_changed_in_trick_3_keeps_the_tricks_that_still_fit(table_phone):
    phone = table_phone
    page = phone.page
    hand = golden("MT-01")["input"]
    tricks = hand["tricks"]
    taps = open_pad(phone, hand)
    for number in (1, 2):
        play_trick(taps, tricks[number - 1], number)
    tap_cards(taps, ["DK", "S4", "D7", "D9", "D5"])  # Dee's ♦3 tapped as ♦7
    play_trick(taps, tricks[3], 4)
    tap_cards(taps, ["SK", "SJ"])  # trick 5 under way when the table sees the mistake
    wrong = page.locator(f"{PAD} button[data-pad-change='2.2']")
    assert wrong.inner_text().split() == ["♦7", "Dee"]
    # the phone as the cards are tapped: the pad's head at the top, the grid of cards under it
    page.locator(f"{PAD} [data-pad-body]").evaluate("(node) => node.scrollIntoView()")
    spent, places = change(taps, "2.2", "D3")
    print(f"change in trick 3 while entering trick 5: {spent} taps; places {places}")
    assert spent == 2 <= CHANGE_TAPS
    bar = page.locator(".record-bar").evaluate("(node) => node.getBoundingClientRect().top")
    for found in places:  # on the screen, above the record bar, reached by a tap: no scrolling
        assert found["width"] >= 44 and found["height"] >= 44, found
        assert found["reached"] and found["top"] >= 0 and found["bottom"] <= bar, (found, bar)
    fixed = page.locator(f"{PAD} [data-pad-fixed] li").all_inner_texts()
    assert fixed == ["Trick 3: Dee played ♦3, not ♦7.", "Tricks 4 to 5 still fit: kept as entered."]
    note = place(taps, f"{PAD} [data-pad-fixed]")
    print(f"what the change did, on screen at {note}")
    assert note["top"] >= 0 and note["bottom"] <= bar, note
    assert page.locator(f"{PAD} [data-pad-tricks] > li").count() == 4
    assert wrong.inner_text().split() == ["♦3", "Dee"]
    assert page.locator(f"{PAD} button[data-pad-card='D7']").is_enabled()  # free again
    assert page.locator(f"{PAD} [data-pad-turn]").inner_text().startswith("Next: Ben in trick 5")

    tap_cards(taps, ["S7", "S9", "JK"])  # the rest of trick 5, as it was played
    assert page.locator(f"{PAD} [data-pad-fixed]").is_hidden()  # the next card closes the note
    for number in range(6, 11):
        play_trick(taps, tricks[number - 1], number)
    record_and_check(phone, taps, "MT-01")


def test_a_change_that_moves_trick_3_drops_the_tricks_the_old_winner_led(table_phone):
    phone = table_phone
    page = phone.page
    hand = golden("MT-01")["input"]
    tricks = hand["tricks"]
    taps = open_pad(phone, hand)
    for number in (1, 2):
        play_trick(taps, tricks[number - 1], number)
    tap_cards(taps, ["D6", "S4", "D3", "D9", "D5"])  # Ben's ♦K tapped as ♦6: Eve's ♦9 wins
    assert page.locator(f"{PAD} [data-pad-turn]").inner_text() == "Next: Eve leads trick 4."
    tap_cards(taps, ["HA", "H6", "HQ", "H4", "H2", "SK", "SJ"])  # tricks 4 and 5, Eve leading

    spent, _places = change(taps, "2.0", "DK")
    assert spent == 2
    fixed = page.locator(f"{PAD} [data-pad-fixed] li").all_inner_texts()
    assert fixed == [
        "Trick 3: Ben played ♦K, not ♦6.",
        "Tricks 4 to 5 no longer fit: enter them again.",
        "Ben took trick 3 and leads trick 4, not Eve.",
    ]
    assert page.locator(f"{PAD} [data-pad-tricks] > li").count() == 3
    assert page.locator(f"{PAD} [data-pad-current] li").count() == 0
    assert page.locator(f"{PAD} [data-pad-turn]").inner_text() == "Next: Ben leads trick 4."
    for card in ("HA", "H6", "HQ", "SK", "SJ", "D6"):  # the dropped cards are back in the grid
        assert page.locator(f"{PAD} button[data-pad-card='{card}']").is_enabled(), card
    for number in range(4, 11):
        play_trick(taps, tricks[number - 1], number)
    record_and_check(phone, taps, "MT-01")


def test_a_change_the_referee_refuses_leaves_the_tricks_as_they_were(table_phone):
    phone = table_phone
    page = phone.page
    hand = golden("MT-01")["input"]
    taps = open_pad(phone, hand)
    for number in (1, 2, 3):
        play_trick(taps, hand["tricks"][number - 1], number)
    kept = page.locator("#tricks").input_value()
    taps.tap(f"{PAD} button[data-pad-change='2.4']")  # Ann's ♦5 in trick 3
    assert page.locator(f"{PAD} [data-pad-fixing]").inner_text() == (
        "Change ♦5 (Ann, trick 3): tap the right card."
    )
    grid = f"{PAD} button[data-pad-card='{{}}']"
    changing = page.locator(grid.format("D5"))
    assert changing.is_disabled() and "pad-changing" in (changing.get_attribute("class") or "")
    for card in ("DA", "CA", "DK", "D9"):  # earlier tricks, and the rest of trick 3
        assert page.locator(grid.format(card)).is_disabled(), card
    assert page.locator(grid.format("C5")).is_enabled()

    # Ann showed no club in trick 2 (♥3 on ♣A): a club now is a revoke, refused
    taps.pad(grid.format("C5"))
    notice = page.locator(f"{PAD} [data-pad-refused]")
    assert notice.inner_text() == (
        "Revoke: Ann did not follow clubs in trick 2, yet plays ♣5 in trick 3, "
        "so they held it then."
    )
    refused = [error for error in phone.errors if browser_support.REFUSED_PAGE.search(error)]
    assert len(refused) == 1
    phone.errors = [error for error in phone.errors if error not in refused]
    assert page.locator("#tricks").input_value() == kept
    assert page.locator(f"{PAD} [data-pad-fixing]").is_visible()  # another card may be tapped
    taps.tap(f"{PAD} button[data-pad-fix-cancel]")
    assert page.locator(f"{PAD} [data-pad-fixing]").is_hidden() and notice.is_hidden()
    assert page.locator(f"{PAD} button[data-pad-change='2.4']").inner_text().split() == [
        "♦5",
        "Ann",
    ]
    assert page.locator("#tricks").input_value() == kept
    assert page.locator(f"{PAD} [data-pad-turn]").inner_text() == "Next: Ben leads trick 4."
    phone.check("after a refused change")
