"""The Great Dalmuti at the table, in a real browser at phone size, through the forms (CSRF on).

A session is started with the new-session form; a hand is recorded as it happens: the tribute
tapped on its card pads and checked with "Check the tribute", then the finishing order by
tapping the names as players go out, then "Record". The standings are read off the page and
compared with the API. Refused inputs stand by their fields and store nothing; the check-a-play
page answers; a past hand is corrected and the last one undone. Every page visited: no console
errors, no sideways scrolling.

Five players in rank order: Ann (Greater Dalmuti), Ben, Cy (merchant), Dee, Eve (Greater
Peasant). Going out first scores 4, then 3, 2, 1 and 0.
"""

from __future__ import annotations

from . import browser_support

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: the hand being entered (a correction's page also holds the next hand's form, folded away)
HAND = "#round-form > .dal-form"
TAX = {
    "greater_peasant": "5 6",
    "greater_dalmuti": "12 12",
    "lesser_peasant": "7",
    "lesser_dalmuti": "11",
}


def start_session(phone) -> int:
    """Start a Dalmuti session through the new-session form (ranks as listed); return its id."""
    page = phone.open("/sessions/new?game=dalmuti")
    page.fill("#name", "Dalmuti evening")
    assert page.locator("input[name=first_ranks][value=order]").is_checked()
    page.fill("#players", "\n".join(PLAYERS))
    phone.tap("button:has-text('Start the session')")
    assert phone.flash() == [f"Session started: {', '.join(PLAYERS)}."]
    return phone.session_id()


def pay_tax(page, tax=TAX) -> None:
    """Tap the tribute cards of each exchange on its card pad (the text field lies under it)."""
    for role, cards in tax.items():
        for card in cards.split():
            page.locator(
                f"{HAND} [data-pay]:has(#tribute_{role}) button[data-card='{card}']"
            ).click()


def tap_out(phone, *names: str) -> None:
    """Tap the players' names in the order they went out (the last place fills itself)."""
    for name in names:
        phone.page.locator(f"{HAND} .dal-tap button[data-name='{name}']").click()
    phone.check("after tapping the finishing order")


def points(order: list[str]) -> dict[str, int]:
    """Return a hand's points: 4 for going out first, down to 0 for the last."""
    return {name: len(order) - 1 - order.index(name) for name in PLAYERS}


def test_a_whole_hand_tribute_checked_then_tapped_out(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page
    assert phone.standings() == dict.fromkeys(PLAYERS, 0)
    assert "Eve gives Ann their 2 best cards" in page.locator(".dal-status").inner_text()

    pay_tax(page)
    phone.tap("button:has-text('Check the tribute')")
    checked = page.locator("#dal-step-checked").inner_text()
    assert "Checked: nothing wrong so far." in checked
    assert "Now play the hand, then enter who goes out." in checked
    assert page.locator("#tribute_greater_peasant").input_value() == "5 6"  # kept
    assert phone.session(sid)["rounds"] == []

    tap_out(phone, "Cy", "Ann", "Eve", "Ben")
    assert [page.locator(f"#finish_{n}").input_value() for n in range(1, 6)] == [
        "Cy",
        "Ann",
        "Eve",
        "Ben",
        "Dee",
    ]
    assert page.locator(".dal-tap button[data-name='Cy']").inner_text() == "1. Cy"
    # the last place filled itself; a placed name is marked (a tap on it would take it back)
    assert page.locator(".dal-tap button[data-name='Dee']").get_attribute("aria-pressed") == "true"
    phone.tap("button:has-text('Record round 1')")
    assert "Round 1 recorded." in phone.flash()

    order = ["Cy", "Ann", "Eve", "Ben", "Dee"]
    session = phone.session(sid)
    assert phone.standings() == points(order) == session["totals"]
    assert session["state"]["ranks"] == order
    played = session["rounds"][0]["input"]
    assert played["tribute"]["greater_peasant"] == [5, 6] and played["finish_order"] == order
    # the next hand's table: Cy is the Greater Dalmuti, Dee pays the tax
    assert "Dee gives Cy their 2 best cards" in page.locator(".dal-status").inner_text()
    assert "Record round 2" in page.locator("#record").inner_text()


def test_refused_inputs_stand_by_their_fields_and_store_nothing(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page

    pay_tax(page, {**TAX, "greater_peasant": "5"})
    phone.tap("button:has-text('Check the tribute')", status=422)
    phone.assert_message_by(
        "#tribute_greater_peasant", "Cards the Greater Peasant gives: exactly 2, not 1 (given: 5)."
    )
    assert page.locator("#tribute_greater_peasant").input_value() == "5"
    # its link leads to the card pad, never to the text field (a phone would open its keyboard)
    page.locator("#refused a[data-field='tribute_greater_peasant']").click()
    focused = page.evaluate("document.activeElement.closest('[data-for]')?.dataset.for")
    assert focused == "tribute_greater_peasant"
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"

    # a gap in the finishing places: refused at the empty place
    pay_tax(page, {"greater_peasant": "6"})
    page.select_option("#finish_1", "Cy")
    page.select_option("#finish_3", "Eve")
    phone.tap("button:has-text('Record round 1')", status=422)
    phone.assert_message_by("#finish_2", "Choose who went out 2nd.")
    session = phone.session(sid)
    assert session["rounds"] == [] and set(session["totals"].values()) == {0}
    assert phone.standings() == dict.fromkeys(PLAYERS, 0)

    # the check-a-play page: a refused play stands by the play, a legal one is explained
    phone.tap(".dal-status a:has-text('Check a play')")
    page.fill("#previous", "7 7")
    page.fill("#play", "8 8")
    phone.tap("button:has-text('Check the play')", status=422)
    phone.assert_message_by("#play", "8, 8 does not beat 7, 7")
    page.fill("#play", "6 J")
    phone.tap("button:has-text('Check the play')")
    assert "Legal:" in page.locator("#verdict").inner_text()
    assert phone.session(sid)["rounds"] == []


def test_correct_a_past_hand_undo_the_last_and_read_the_other_pages(table_phone):
    phone = table_phone
    sid = start_session(phone)
    page = phone.page
    pay_tax(page)
    tap_out(phone, "Cy", "Ann", "Eve", "Ben")
    phone.tap("button:has-text('Record round 1')")
    pay_tax(page)
    tap_out(phone, "Ann", "Cy", "Dee", "Eve")
    phone.tap("button:has-text('Record round 2')")
    assert "Round 2 recorded." in phone.flash()
    second = points(["Ann", "Cy", "Dee", "Eve", "Ben"])

    # correct hand 1: Dee went out before Ben after all (take back two places, tap again)
    page.locator("#round-1 a:has-text('Correct')").click()  # opens in place, in the history
    phone.tap("#round-1 .correction a:has-text('Open on its own page')")
    assert page.locator("h1").inner_text() == "Correct round 1"
    assert page.locator("#tribute_greater_peasant").input_value() == "5 6"
    assert page.locator("#finish_5").input_value() == "Dee"
    page.locator(f"{HAND} .dal-tap .dal-undo").click()
    page.locator(f"{HAND} .dal-tap .dal-undo").click()
    tap_out(phone, "Dee")
    assert page.locator("#finish_5").input_value() == "Ben"
    phone.tap("button:has-text('Save the correction')")
    assert "Round 1 corrected; later rounds were rescored." in phone.flash()
    first = points(["Cy", "Ann", "Eve", "Dee", "Ben"])
    both = {name: first[name] + second[name] for name in PLAYERS}
    assert phone.standings() == both == phone.session(sid)["totals"]

    phone.tap("#round-2 button:has-text('Undo')")
    assert phone.dialogs == ["Undo round 2? It stays in the history of changes."]
    assert "Round 2 undone." in phone.flash()
    session = phone.session(sid)
    assert phone.standings() == first == session["totals"]
    assert len(session["rounds"]) == 1

    phone.open(f"/sessions/{sid}/print")
    page = phone.open(f"/sessions/{sid}/changes")
    changes = page.locator("ol.changes").inner_text()
    for line in ("Round 1 recorded.", "Round 1 corrected.", "Round 2 undone."):
        assert line in changes
    page = phone.open("/players")
    phone.tap("table.players a:has-text('Cy')")
    assert page.locator("h1").inner_text() == "Cy"
    assert page.locator("#game-dalmuti").count() == 1
