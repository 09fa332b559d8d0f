"""Rounds entered with no connection wait on the phone in order, at 390x844 in Chromium: the
form moves on to the next round after each tap, a reload keeps them, and each is sent once, in
order, when the connection is back; a waiting round the server refuses stops the queue until
the table decides, with the rounds after it still waiting.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .browser_support import PAST_A_RETRY, Phone
from .test_e2e_live import CUT_OFF, DIXIT_NEXT, DIXIT_PLAYERS, DIXIT_ROUND, SET_FIELDS

#: the rounds waiting on the phone (the queue's keys in localStorage)
QUEUED = "() => Object.keys(localStorage).filter((key) => key.startsWith('refapp-queue')).length"


chromium, live = browser_support.chromium, browser_support.live

#: a third turn, Cy telling: everyone finds Cy's card
DIXIT_THIRD = {"storyteller": "Cy", "pos_1": "Cy", "pos_2": "Ann", "pos_3": "Ben",
               "pos_4": "Dee", "vote_0": "1", "vote_1": "1", "vote_3": "1"}  # fmt: skip
TURNS = [DIXIT_ROUND, DIXIT_NEXT, DIXIT_THIRD]
STORYTELLERS = ["Ann", "Ben", "Cy"]
#: the same first turn through the API, as another phone would record it
API_TURN = {"storyteller": "Dee", "positions": ["Dee", "Ann", "Ben", "Cy"],
            "votes": {"Ann": 1, "Ben": 1, "Cy": 2}}  # fmt: skip
RECORD = "#round-form .record-bar button[value=record]"


@pytest.fixture
def phone(chromium, live):
    """Return a phone-sized page on the live server, in its own browser context."""
    made = Phone(chromium, live[0])
    yield made
    made.page.context.close()


def start(phone: Phone, language: str = "en") -> int:
    """Start a Dixit session through the API and open its page (in a language); return its id."""
    sid = phone.api("POST", "/api/sessions", {"game": "dixit", "players": DIXIT_PLAYERS})["id"]
    page = f"/sessions/{sid}"
    phone.open(f"/language/{language}?next={page}" if language != "en" else page)
    phone.page.evaluate("() => { window.stayed = true; }")  # gone if the page ever reloads
    return sid


def stored(phone: Phone, sid: int) -> list[tuple[int, str]]:
    """Return the stored rounds as (number, storyteller)."""
    return [(r["number"], r["input"]["storyteller"]) for r in phone.session(sid)["rounds"]]


def posts(phone: Phone) -> list[int]:
    """Start counting the round posts that reached the server; return the list of statuses."""
    answered: list[int] = []

    def finished(request) -> None:
        if request.method == "POST" and request.url.endswith("/rounds"):
            answered.append(request.response().status)

    phone.page.on("requestfinished", finished)
    return answered


def form_state(phone: Phone) -> dict:
    """Return what the round form says: heading, button, expected_round, waiting rounds."""
    return phone.page.evaluate(
        """() => ({
          heading: document.querySelector("#record h2").textContent.trim(),
          button: document.querySelector("#round-form .record-bar button[value=record]")
            .textContent.trim(),
          expected: document.querySelector("#round-form input[name=expected_round]").value,
          waiting: Array.from(document.querySelectorAll("#queue li")).map((li) => li.dataset.round),
          held: Array.from(document.querySelectorAll("#queue li[data-held]")).map(
            (li) => li.dataset.round),
          vote: (document.getElementById("vote_1") || {}).value || "",
        })"""
    )


def enter_offline(phone: Phone, turns: list[dict]) -> None:
    """Enter each turn with no connection: one tap each, the form moving on every time."""
    for index, turn in enumerate(turns):
        if turn:
            phone.page.evaluate(SET_FIELDS, turn)
        phone.page.locator(RECORD).click()  # the one tap per round
        phone.page.locator("#queue li").nth(index).wait_for()
        state = form_state(phone)
        after = str(index + 2)
        assert state["expected"] == after
        assert after in state["heading"] and after in state["button"], state
        assert state["waiting"] == [str(n) for n in range(1, index + 2)]
        assert state["vote"] == "", "the next round starts with its fields empty"


def wait_until(phone: Phone, check, seconds: float = 15) -> None:
    """Poll the server until check() holds."""
    for _step in range(int(seconds * 10)):
        if check():
            return
        phone.page.wait_for_timeout(100)
    raise AssertionError("timed out")


def forget_cut_offs(phone: Phone) -> None:
    """Drop the console lines of the requests the test cut off on purpose."""
    phone.errors = [e for e in phone.errors if not any(cut in e for cut in CUT_OFF)]


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_three_rounds_entered_offline_are_sent_once_each_in_order(phone, language):
    sid = start(phone, language)
    answered = posts(phone)
    phone.page.context.set_offline(True)
    enter_offline(phone, TURNS)
    assert phone.page.locator("#queue").is_visible()
    box = phone.page.locator("#queue").bounding_box()
    assert box is not None and 0 <= box["y"] < 844, "the waiting rounds are off screen"
    assert "3" in phone.page.locator("#queue .queue-count").inner_text()
    assert stored(phone, sid) == []

    phone.page.context.set_offline(False)
    wait_until(phone, lambda: len(stored(phone, sid)) == 3)
    phone.page.locator("#just").wait_for()
    assert stored(phone, sid) == [(1, "Ann"), (2, "Ben"), (3, "Cy")]
    phone.page.wait_for_timeout(PAST_A_RETRY)  # past a retry: nothing is sent twice
    assert stored(phone, sid) == [(1, "Ann"), (2, "Ben"), (3, "Cy")]
    assert answered == [302, 302, 302]  # each stored, and each answered by the round's page
    assert phone.page.locator("#queue").count() == 0
    assert form_state(phone)["expected"] == "4"
    assert phone.page.evaluate("() => window.stayed === true")
    assert phone.page.evaluate(QUEUED) == 0  # nothing left waiting on the phone
    forget_cut_offs(phone)
    phone.check("after the queue was sent")


def test_waiting_rounds_survive_a_reload_and_keep_their_order(phone):
    sid = start(phone)
    phone.page.route("**/sessions/*/rounds", lambda route: route.abort("internetdisconnected"))
    enter_offline(phone, TURNS[:2])
    phone.page.reload()
    phone.page.locator("#queue li").nth(1).wait_for()
    state = form_state(phone)
    assert state["waiting"] == ["1", "2"] and state["expected"] == "3"
    assert "3" in state["heading"] and "3" in state["button"]
    phone.page.unroute("**/sessions/*/rounds")
    wait_until(phone, lambda: len(stored(phone, sid)) == 2)
    phone.page.locator("#just").wait_for()
    assert stored(phone, sid) == [(1, "Ann"), (2, "Ben")]
    forget_cut_offs(phone)


def test_a_refusal_mid_queue_stops_the_queue_until_the_table_decides(phone):
    sid = start(phone)
    phone.page.context.set_offline(True)
    enter_offline(phone, [DIXIT_ROUND, {}, DIXIT_THIRD])  # the second has no cards: refused
    phone.page.context.set_offline(False)
    phone.page.locator("#queue li[data-held]").wait_for()
    phone.page.wait_for_timeout(PAST_A_RETRY)  # past a retry: the round after it is not sent
    assert stored(phone, sid) == [(1, "Ann")]
    state = form_state(phone)
    assert state["held"] == ["2"] and state["waiting"] == ["2", "3"]
    assert phone.page.locator("#round-form .refused").is_visible()

    phone.page.evaluate(SET_FIELDS, DIXIT_NEXT)  # the table fixes it and records it
    phone.page.locator(RECORD).click()
    wait_until(phone, lambda: len(stored(phone, sid)) == 3)
    assert stored(phone, sid) == [(1, "Ann"), (2, "Ben"), (3, "Cy")]
    phone.page.locator("#just").wait_for()
    assert phone.page.locator("#queue").count() == 0
    forget_cut_offs(phone)


@pytest.mark.parametrize("language", ["en", "hu"])
def test_a_round_another_phone_recorded_first_holds_the_queue(phone, language):
    sid = start(phone, language)
    phone.page.context.set_offline(True)
    enter_offline(phone, TURNS)
    phone.api("POST", f"/api/sessions/{sid}/rounds", API_TURN)  # another phone was first
    phone.page.context.set_offline(False)
    phone.page.locator("#stale").wait_for()
    phone.page.wait_for_timeout(PAST_A_RETRY)
    assert stored(phone, sid) == [(1, "Dee")]
    assert form_state(phone)["held"] == ["1"]
    mine = phone.page.locator("#stale [data-record-mine]")
    assert "2" in mine.inner_text()
    mine.click()  # recorded after theirs: the rounds after it follow it
    wait_until(phone, lambda: len(stored(phone, sid)) == 4)
    assert stored(phone, sid) == [(1, "Dee"), (2, "Ann"), (3, "Ben"), (4, "Cy")]
    phone.page.locator("#just").wait_for()
    forget_cut_offs(phone)


def test_the_queue_keeps_at_most_fifty_rounds_and_says_so(phone):
    sid = start(phone)
    phone.page.route("**/sessions/*/rounds", lambda route: route.abort("internetdisconnected"))
    enter_offline(phone, [DIXIT_ROUND])
    phone.page.evaluate(
        """(key) => {
          const kept = JSON.parse(localStorage.getItem(key));
          localStorage.setItem(key, JSON.stringify(Array.from({ length: 50 }, (_, index) => ({
            ...kept[0],
            entries: kept[0].entries.map(([name, value]) =>
              [name, name === "expected_round" ? String(index + 1) : value]),
          }))));
        }""",
        f"refapp-queue:{sid}",
    )
    phone.page.reload()
    phone.page.locator("#queue li").nth(49).wait_for()
    assert form_state(phone)["expected"] == "51"
    phone.page.evaluate(SET_FIELDS, DIXIT_NEXT)
    phone.page.locator(RECORD).click()
    full = phone.page.locator(".live-note[data-kind=full]")
    full.wait_for()
    assert "50" in full.inner_text()
    assert phone.page.locator("#queue li").count() == 50
    assert phone.page.locator("#storyteller").input_value() == "Ben"  # the entry stays put
    kept = phone.page.evaluate(f"() => JSON.parse(localStorage.getItem('refapp-queue:{sid}'))")
    assert len(kept) == 50
    forget_cut_offs(phone)


class Held(list):
    """The round posts held unanswered; once let go, every post goes through."""

    def __init__(self, phone: Phone) -> None:
        super().__init__()
        self.going = False
        phone.page.route("**/sessions/*/rounds", self.route)

    def route(self, route) -> None:
        """Hold a post, or let it through once the test has let go."""
        if self.going:
            route.continue_()
        else:
            self.append(route)

    def let_go(self) -> None:
        """Send on the held posts and every one after."""
        self.going = True
        while self:
            self.pop(0).continue_()


def wait_for_held(phone: Phone, held: Held, count: int) -> None:
    """Wait until count round posts are held."""
    for _step in range(150):
        if len(held) >= count:
            return
        phone.page.wait_for_timeout(100)
    raise AssertionError(f"{len(held)} round posts held, {count} expected")


def first_round_held(phone: Phone) -> tuple[int, Held]:
    """Start a session and tap round 1 in, its post held unanswered; return (id, held)."""
    sid = start(phone)
    held = Held(phone)
    phone.page.evaluate(SET_FIELDS, DIXIT_ROUND)
    phone.page.locator(RECORD).click()
    wait_for_held(phone, held, 1)
    return sid, held


def test_a_round_tapped_while_a_waiting_one_is_sent_again_is_kept(phone):
    sid, held = first_round_held(phone)
    held.pop().abort("internetdisconnected")  # round 1 waits on the phone
    phone.page.locator("#queue li").nth(0).wait_for()
    wait_for_held(phone, held, 1)  # round 1 is being sent again, no answer yet
    phone.page.evaluate(SET_FIELDS, DIXIT_NEXT)
    phone.page.locator(RECORD).click()  # the tap meanwhile is kept too
    phone.page.locator("#queue li").nth(1).wait_for()
    assert form_state(phone)["waiting"] == ["1", "2"]
    held.let_go()
    wait_until(phone, lambda: len(stored(phone, sid)) == 2)
    assert stored(phone, sid) == [(1, "Ann"), (2, "Ben")]
    forget_cut_offs(phone)


def test_a_second_tap_on_a_round_being_sent_stores_it_once(phone):
    sid, held = first_round_held(phone)
    phone.page.locator(RECORD).click()  # no answer yet: tapped again
    phone.page.wait_for_timeout(PAST_A_RETRY)
    assert len(held) == 1, "the same round is not sent twice"
    held.let_go()
    wait_until(phone, lambda: form_state(phone)["expected"] == "2")
    phone.page.wait_for_timeout(PAST_A_RETRY)
    assert stored(phone, sid) == [(1, "Ann")]
    state = form_state(phone)
    assert state["waiting"] == [] and state["held"] == [] and state["expected"] == "2"
