"""A stale entry is safe, at 390x844 in Chromium: when another phone recorded the round first,
the page shows that round and the kept entry side by side with two choices, "Record mine as
round N+1" and "Discard mine"; neither Enter nor a pre-focused button records it, recording it
stores it as N+1, and discarding it leaves N rounds and an empty form.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .browser_support import PAST_A_RETRY, PHONE, Phone
from .test_e2e_live import MIGHTY_NEXT, MIGHTY_PLAYERS, SET_FIELDS

chromium = browser_support.chromium
#: a poll that never comes within a test (ms): the page still shows round 1 when it is tapped
NO_POLL = 3_600_000
#: a field the player types into (Mighty's are all taps): Enter there submits implicitly
TYPED = """() => {
  const field = document.querySelector("#typed") || document.createElement("input");
  field.id = "typed";
  document.querySelector("#round-form .record-bar").before(field);
}"""
#: round 1 as another phone records it: Ann bids 15 hearts, Cy (the joker) is her friend
THEIRS = {"dealer": "Ann", "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
          "friend": {"card": "JK", "player": "Cy"}, "opposition_points": 3}  # fmt: skip


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A live server (CSRF off) whose pages do not follow another phone on their own: the tap
    is stale as a phone's is before its next poll, never swapped into step by a poll first."""
    yield from browser_support.serve(
        tmp_path_factory.mktemp("stale"), WTF_CSRF_ENABLED=False, POLL_MS=NO_POLL
    )


@pytest.fixture
def phone(chromium, live):
    """Return a phone-sized page on the live server."""
    made = Phone(chromium, live[0])
    yield made
    made.page.context.close()


def stale_page(phone: Phone, language: str) -> int:
    """Enter Mighty's next hand as round 1 while another phone records round 1 first, tap
    Record and land on the stale choice; return the session's id."""
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": MIGHTY_PLAYERS})["id"]
    page = f"/sessions/{sid}"
    phone.open(f"/language/{language}?next={page}" if language != "en" else page)
    phone.page.evaluate("() => { window.stayed = true; }")
    phone.page.evaluate(SET_FIELDS, MIGHTY_NEXT)
    phone.api("POST", f"/api/sessions/{sid}/rounds", THEIRS)
    phone.tap("#round-form .record-bar button[value=record]", 422)
    return sid


def dealers(phone: Phone, sid: int) -> list[str]:
    """Return the dealer of each stored round."""
    return [played["input"]["dealer"] for played in phone.session(sid)["rounds"]]


def side_deltas(phone: Phone, side: str) -> dict[str, int]:
    """Return the points a side of the stale choice shows per player."""
    return phone.page.evaluate(
        """(side) => Object.fromEntries(Array.from(
             document.querySelectorAll(`#stale [data-side=${side}] .delta`)).map((node) => [
               node.querySelector("bdi").textContent.trim(),
               Number(node.querySelector("b").textContent.replace("\u2212", "-")),
             ]))""",
        side,
    )


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_stale_choice_shows_both_rounds_and_records_nothing_by_default(phone, language):
    sid = stale_page(phone, language)
    stale = phone.page.locator("#stale")
    box = stale.bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"], "the choice is off screen"
    theirs = phone.session(sid)["rounds"][0]["result"]["deltas"]
    assert side_deltas(phone, "theirs") == theirs
    mine = side_deltas(phone, "mine")
    assert sorted(mine) == sorted(MIGHTY_PLAYERS) and mine != theirs
    numbers = phone.page.evaluate(
        """() => ({
          heading: document.querySelector("#record h2").textContent,
          record: document.querySelector("#round-form .record-bar button[value=record]")
            .textContent,
          mine: document.querySelector("#stale [data-record-mine]").textContent,
          expected: document.querySelector("#round-form input[name=expected_round]").value,
          focused: document.activeElement.matches("[data-record-mine], .record-bar button"),
        })"""
    )
    assert numbers["expected"] == "2" and not numbers["focused"], numbers
    for text in (numbers["heading"], numbers["record"], numbers["mine"]):
        assert "2" in text and "1" not in text, numbers  # every label names round 2

    swaps = phone.swaps()
    phone.page.evaluate(TYPED)
    phone.page.locator("#typed").focus()
    phone.page.keyboard.press("Enter")  # Enter in a field records nothing
    phone.page.wait_for_timeout(1500)
    assert phone.swaps() == swaps and dealers(phone, sid) == ["Ann"]
    assert phone.page.locator("#stale").is_visible()

    # the control: without the disabled first button the same Enter sends the entry
    phone.page.evaluate("() => document.querySelector('#stale button[disabled]').remove()")
    phone.page.evaluate(TYPED)
    phone.page.locator("#typed").focus()
    phone.page.keyboard.press("Enter")
    phone.wait_for_swap(swaps)
    assert dealers(phone, sid) == ["Ann", "Cy"]


@pytest.mark.parametrize("language", ["en", "hu"])
def test_record_mine_stores_it_as_the_next_round(phone, language):
    sid = stale_page(phone, language)
    phone.tap("#stale [data-record-mine]")
    assert dealers(phone, sid) == ["Ann", "Cy"]
    session = phone.session(sid)
    assert phone.page.locator("#just").is_visible()
    assert phone.standings() == session["totals"]
    assert phone.page.evaluate("() => window.stayed === true")


@pytest.mark.parametrize("language", ["en", "hu"])
def test_discard_mine_leaves_their_round_and_an_empty_form(phone, language):
    sid = stale_page(phone, language)
    phone.tap("#stale [data-discard]")
    assert dealers(phone, sid) == ["Ann"]
    assert phone.page.locator("#stale").count() == 0
    form = phone.page.locator("#round-form")
    assert form.locator("input[name=expected_round]").input_value() == "2"
    assert form.locator("#contract_bid").input_value() == ""
    assert form.locator("#opposition_points").input_value() == ""
    phone.page.wait_for_timeout(PAST_A_RETRY)  # past a retry: nothing kept is sent
    assert dealers(phone, sid) == ["Ann"]


#: round 2 as another phone records it, dealt by Cy (the friend of round 1)
THEIRS_SECOND = {"dealer": "Cy", "contract": {"boss": "Dee", "bid": 13, "trump": "C"},
                 "friend": {"card": "CA", "player": "Ann"}, "opposition_points": 5}  # fmt: skip


def test_the_kept_entry_takes_the_next_dealer_and_both_sides_show_their_round(phone):
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": MIGHTY_PLAYERS})["id"]
    phone.api("POST", f"/api/sessions/{sid}/rounds", THEIRS)
    phone.open(f"/sessions/{sid}")
    assert phone.page.locator("#dealer").input_value() == "Cy"  # offered for round 2
    phone.page.evaluate(SET_FIELDS, {k: v for k, v in MIGHTY_NEXT.items() if k != "dealer"})
    other = phone.api("POST", f"/api/sessions/{sid}/rounds", THEIRS_SECOND)
    moved_on = other["session"]["state"]["next_dealer"]
    assert moved_on != "Cy"
    phone.tap("#round-form .record-bar button[value=record]", 422)
    # (a) the kept entry deals as the table now does
    assert phone.page.locator("#dealer").input_value() == moved_on
    # (b) each side shows its round whole: the other phone's hand and this one's, in words
    theirs = phone.page.locator("#stale [data-side=theirs]").inner_text()
    mine = phone.page.locator("#stale [data-side=mine]").inner_text()
    assert "Dee" in theirs and "13" in theirs and "Ann" in theirs, theirs
    assert "Ben" in mine and "14" in mine and "Eve" in mine, mine
    assert phone.page.locator("#stale [data-side=mine] .error").count() == 0, mine
    # (c) no empty box: the disabled catcher of Enter is not drawn
    catcher = phone.page.locator("#stale button[disabled]")
    assert catcher.count() == 1 and catcher.bounding_box() is None
    phone.tap("#stale [data-record-mine]")
    assert dealers(phone, sid) == ["Ann", "Cy", moved_on]
    assert phone.page.locator("#stale").count() == 0
