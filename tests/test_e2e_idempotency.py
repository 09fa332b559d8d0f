"""A round is stored at most once, whatever the phones do, at 390x844 in Chromium: every entry
carries the key it was started with, so the offline queue meeting another phone's round, a
retry whose first answer was lost, and a double tap on Record each store the entry once, and the
page never says another phone recorded what this phone recorded.
"""

from __future__ import annotations

import json
import urllib.request
from collections import Counter

import pytest

from . import browser_support
from .browser_support import PAST_A_RETRY, Phone
from .test_e2e_live import DIXIT_NEXT, DIXIT_ROUND, SET_FIELDS
from .test_e2e_queue import (
    API_TURN,
    RECORD,
    enter_offline,
    forget_cut_offs,
    form_state,
    posts,
    start,
    stored,
    wait_until,
)

chromium, live = browser_support.chromium, browser_support.live
#: what this page must never say about its own rounds
NOT_MINE = ("Recorded by another phone", "Other phones recorded", "Another phone recorded")
#: round 2 as another phone records it (after Ann's turn 1 it is Ben's turn to tell)
OTHER_SECOND = {"storyteller": "Ben", "positions": ["Ben", "Ann", "Cy", "Dee"],
                "votes": {"Ann": 1, "Cy": 2, "Dee": 1}}  # fmt: skip


@pytest.fixture
def phone(chromium, live):
    """Return a phone-sized page on the live server, in its own browser context."""
    made = Phone(chromium, live[0])
    yield made
    made.page.context.close()


def hands(phone: Phone, sid: int) -> Counter:
    """Return how often each hand (its input, whatever its number) is in the session's export."""
    exported = phone.api("GET", f"/api/sessions/{sid}/export")
    return Counter(json.dumps(played["input"], sort_keys=True) for played in exported["rounds"])


def says(phone: Phone) -> str:
    """Return the text the page shows."""
    return phone.page.locator("main").inner_text()


def test_record_mine_after_the_offline_queue_met_another_phone_stores_each_hand_once(phone):
    sid = start(phone)
    phone.page.context.set_offline(True)
    enter_offline(phone, [DIXIT_ROUND, DIXIT_NEXT])  # phone A: rounds 1 and 2, queued
    phone.api("POST", f"/api/sessions/{sid}/rounds", API_TURN)  # phone B: round 1
    phone.page.context.set_offline(False)
    phone.page.locator("#stale").wait_for()
    assert "2" in phone.page.locator("#stale [data-record-mine]").inner_text()
    # the key each waiting entry was started with, kept with it on the phone
    kept = phone.page.evaluate(
        f"""() => JSON.parse(localStorage.getItem('refapp-queue:{sid}')).map((item) =>
              (item.entries.find(([name]) => name === 'idempotency_key') || [])[1])"""
    )
    assert len(kept) == 2 and all(kept) and kept[0] != kept[1]
    shown_key = phone.page.locator("#round-form input[name=idempotency_key]").input_value()
    assert shown_key == kept[0]  # the stale choice carries the held entry's own key

    phone.page.locator("#stale [data-record-mine]").click()
    assert phone.page.locator("#stale").count() == 0  # the choice is made: the panel goes
    wait_until(phone, lambda: len(stored(phone, sid)) == 3)
    phone.page.locator("#just").wait_for()
    # then everything still offered is tapped again
    for selector in ("#stale [data-record-mine]", "#queue a[data-discard]"):
        offered = phone.page.locator(selector)
        if offered.count():
            offered.first.click()
    phone.page.wait_for_timeout(PAST_A_RETRY)
    assert stored(phone, sid) == [(1, "Dee"), (2, "Ann"), (3, "Ben")]
    assert set(hands(phone, sid).values()) == {1}, "a hand stored twice"
    assert not any(words in says(phone) for words in NOT_MINE), says(phone)
    state = form_state(phone)
    assert state["expected"] == "4" and state["waiting"] == []
    new_key = phone.page.locator("#round-form input[name=idempotency_key]").input_value()
    assert new_key and new_key not in kept  # the next round is a new entry

    # what the review saw: the same entry sent again after its round was stored (its key, the
    # round the stale choice named) is answered as the round it is, never stored again
    answered = posts(phone)
    phone.page.evaluate(
        """([sid, key]) => {
          const body = new FormData();
          Object.entries({storyteller: "Ann", pos_1: "Dee", pos_2: "Ann", pos_3: "Ben",
                          pos_4: "Cy", vote_1: "2", vote_2: "2", vote_3: "3",
                          expected_round: "4", idempotency_key: key, action: "record"})
            .forEach(([name, value]) => body.append(name, value));
          return fetch(`/sessions/${sid}/rounds`, {method: "POST", body: body});
        }""",
        [sid, kept[0]],
    )
    wait_until(phone, lambda: len(answered) == 1)
    assert answered == [302] and len(stored(phone, sid)) == 3
    forget_cut_offs(phone)
    # the one 422 meant: round 1 held, answered with the stale choice
    phone.errors = [e for e in phone.errors if not browser_support.REFUSED_PAGE.search(e)]
    phone.check("after the queue met another phone")


def test_a_retry_whose_first_answer_was_lost_stores_one_round(phone, live):
    sid = start(phone)
    base = live[0]
    cut: list[int] = []

    def lose_the_answer(route) -> None:
        if cut:
            route.continue_()
            return
        cut.append(route.fetch().status)  # the server stores the round...
        # ...and another phone records round 2 before this phone tries again
        request = urllib.request.Request(
            f"{base}/api/sessions/{sid}/rounds",
            data=json.dumps(OTHER_SECOND).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request) as answer:
            cut.append(answer.status)
        route.abort("connectionreset")  # ...but the phone never hears its answer

    answered = posts(phone)
    phone.page.route("**/sessions/*/rounds", lose_the_answer)
    phone.page.evaluate(SET_FIELDS, DIXIT_ROUND)
    phone.page.locator(RECORD).click()
    wait_until(phone, lambda: len(answered) >= 1)  # the retry, answered
    phone.page.wait_for_timeout(PAST_A_RETRY)
    assert cut == [200, 201]  # stored (its redirect followed), then round 2 by the other phone
    assert stored(phone, sid) == [(1, "Ann"), (2, "Ben")]
    assert set(hands(phone, sid).values()) == {1}
    assert answered == [302]  # answered as the round it stored, not as a stale entry
    assert phone.page.locator("#stale").count() == 0
    assert not any(words in says(phone) for words in NOT_MINE), says(phone)
    forget_cut_offs(phone)


def test_a_double_tap_on_record_stores_one_round(phone):
    sid = start(phone)
    answered = posts(phone)
    phone.page.evaluate(SET_FIELDS, DIXIT_ROUND)
    phone.page.locator(RECORD).dblclick()
    phone.page.locator("#just").wait_for()
    phone.page.wait_for_timeout(PAST_A_RETRY)
    assert stored(phone, sid) == [(1, "Ann")]
    assert answered == [302]
    assert form_state(phone)["expected"] == "2"
    phone.check("after a double tap")
