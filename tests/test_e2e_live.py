"""The session page answers in place, at 390x844 in Chromium: a round recorded or refused
without a page load (the refusal inside the viewport), a second phone in step within 3 s that
keeps its half-filled form, a stale submit recovered in one tap, a round the network lost sent
again and stored once, and two rounds corrected together. Served as make run serves it, a
second phone follows the session's event stream (in step within a second, no poll made) and
polls when the stream is cut.

The round's fields are set by script here (the taps that fill them are counted in the
test_e2e_*_taps tests); what is tested is what the page does with a submit.
"""

from __future__ import annotations

import time

import pytest

from . import browser_support
from .browser_support import PHONE, POLL_MS, Phone

chromium, live = browser_support.chromium, browser_support.live
streamed = browser_support.streamed

#: a second phone must show another phone's round within this many seconds, as deployed
IN_STEP_SECONDS = 3.0
#: what a phone may take past its poll to fetch the changed page and swap it in (seconds): the
#: tests' server polls every browser_support.POLL_MS, the deployed app every POLL_MS, and
#: tests/test_page_timers.py checks the deployed poll with this stays within IN_STEP_SECONDS
SWAP_SECONDS = 1.0

#: set each field by id (a radio group by name) and tell the page it changed, as a tap would
SET_FIELDS = """(fields) => {
  for (const [key, value] of Object.entries(fields)) {
    const radios = document.querySelectorAll(`input[type=radio][name="${key}"]`);
    if (radios.length) {
      radios.forEach((radio) => { radio.checked = radio.value === value; });
      radios[0].dispatchEvent(new Event("change", { bubbles: true }));
      continue;
    }
    const node = document.getElementById(key);
    if (!node) throw new Error("no field " + key);
    node.value = value;
    node.dispatchEvent(new Event("change", { bubbles: true }));
  }
}"""

DIXIT_PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
#: Ann tells; Ben and Cy find her card, Dee votes for Ben's: Ann 3, Ben 4, Cy 3, Dee 0
DIXIT_ROUND = {"storyteller": "Ann", "pos_1": "Dee", "pos_2": "Ann", "pos_3": "Ben",
               "pos_4": "Cy", "vote_1": "2", "vote_2": "2", "vote_3": "3"}  # fmt: skip
DIXIT_DELTAS = {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
#: the next turn, Ben telling: Ann and Dee find his card, Cy votes for Ann's
DIXIT_NEXT = {"storyteller": "Ben", "pos_1": "Ben", "pos_2": "Ann", "pos_3": "Cy",
              "pos_4": "Dee", "vote_0": "1", "vote_2": "2", "vote_3": "1"}  # fmt: skip

MIGHTY_PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: Ann bids 15 hearts, the joker's holder Cy is the friend; the opposition took 3 points
MIGHTY_ROUND = {"dealer": "Ann", "boss": "Ann", "contract_bid": "15", "contract_trump": "H",
                "friend_kind": "card", "friend_card": "JK", "friend_player": "Cy",
                "opposition_points": "3"}  # fmt: skip

DALMUTI_PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DALMUTI_ORDER = ["Cy", "Ann", "Eve", "Ben", "Dee"]
DALMUTI_ROUND = {
    "tribute_greater_peasant": "5 6",
    "tribute_greater_dalmuti": "12 12",
    "tribute_lesser_peasant": "7",
    "tribute_lesser_dalmuti": "11",
    **{f"finish_{n}": name for n, name in enumerate(DALMUTI_ORDER, 1)},
}

#: Cy, the first hand's friend, deals; Ben bids 14 spades with the diamond ace's Eve, and loses
MIGHTY_NEXT = {"dealer": "Cy", "boss": "Ben", "contract_bid": "14", "contract_trump": "S",
               "friend_kind": "card", "friend_card": "DA", "friend_player": "Eve",
               "opposition_points": "9"}  # fmt: skip
#: the second hand: the same tribute by rank, and another finishing order
DALMUTI_NEXT = {
    **DALMUTI_ROUND,
    **{f"finish_{n}": name for n, name in enumerate(["Dee", "Cy", "Ann", "Eve", "Ben"], 1)},
}

GAMES = {
    "dixit": (DIXIT_PLAYERS, DIXIT_ROUND),
    "mighty": (MIGHTY_PLAYERS, MIGHTY_ROUND),
    "dalmuti": (DALMUTI_PLAYERS, DALMUTI_ROUND),
}
#: a round each game's second phone enters as the next one while the first records its round
NEXT = {"dixit": DIXIT_NEXT, "mighty": MIGHTY_NEXT, "dalmuti": DALMUTI_NEXT}
#: a field of that entry the second phone must keep, and its value
KEPT = {"dixit": ("vote_0", "1"), "mighty": ("friend_card", "DA"), "dalmuti": ("finish_1", "Dee")}


@pytest.fixture
def phones(chromium, live):
    """Return a factory of phone-sized pages (each in its own browser context)."""
    made: list[Phone] = []

    def make() -> Phone:
        made.append(Phone(chromium, live[0]))
        return made[-1]

    yield make
    for phone in made:
        phone.page.close()


def start(phone: Phone, game: str) -> int:
    """Start a session of a game through the API and open its page; return its id."""
    players = GAMES[game][0]
    session = phone.api("POST", "/api/sessions", {"game": game, "players": players})
    phone.open(f"/sessions/{session['id']}")
    phone.page.evaluate("() => { window.stayed = true; }")  # gone if the page ever reloads
    return session["id"]


def stayed(phone: Phone) -> bool:
    """Return True when the page was never reloaded or left since start()."""
    return phone.page.evaluate("() => window.stayed === true")


def in_view(phone: Phone, selector: str) -> bool:
    """Return True when the element's top and some of it lie inside the phone's screen."""
    box = phone.page.locator(selector).first.bounding_box()
    return box is not None and 0 <= box["y"] < PHONE["height"] and box["height"] > 0


def fill(phone: Phone, fields: dict) -> None:
    """Set the round's fields as taps would."""
    phone.page.evaluate(SET_FIELDS, fields)


def record(phone: Phone, status: int = 200) -> None:
    """Tap the form's record button (answered in place)."""
    phone.tap(phone.page.locator("#round-form button[value=record]").first, status)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_round_refused_then_recorded_in_place(phones, game):
    phone = phones()
    sid = start(phone, game)
    record(phone, 422)
    assert stayed(phone) and phone.page.url.endswith(f"/sessions/{sid}")
    assert in_view(phone, "#refused"), "the refusal is outside the screen"
    assert "Not accepted" in phone.page.locator("#refused").inner_text()
    focused = phone.page.evaluate("() => document.activeElement && document.activeElement.id")
    first = phone.page.locator("#refused a[data-field]").first
    wanted = {"refused", first.get_attribute("data-field") if first.count() else None}
    assert focused in wanted
    assert phone.session(sid)["rounds"] == []

    fill(phone, GAMES[game][1])
    record(phone)
    assert stayed(phone) and phone.page.url.endswith(f"/sessions/{sid}")
    assert in_view(phone, "#just"), "the recorded round is outside the screen"
    assert "Round 1 recorded." in phone.page.locator("#just").inner_text()
    session = phone.session(sid)
    assert len(session["rounds"]) == 1
    assert phone.standings() == session["totals"]
    assert "Record round 2" in phone.page.locator("#record").inner_text()
    if game == "dixit":
        assert session["totals"] == DIXIT_DELTAS


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_second_phone_follows_and_keeps_its_entry_then_records_it_next(phones, game):
    first, second = phones(), phones()
    sid = start(first, game)
    second.open(f"/sessions/{sid}")
    second.page.evaluate("() => { window.stayed = true; }")
    fill(second, NEXT[game])  # the second phone is half-way through the next round
    field, value = KEPT[game]

    fill(first, GAMES[game][1])
    record(first)
    recorded_at = time.monotonic()
    totals = first.session(sid)["totals"]
    seen = None
    within = POLL_MS / 1000 + SWAP_SECONDS  # one poll, and the changed page swapped in
    while time.monotonic() - recorded_at < IN_STEP_SECONDS + 2:
        if second.standings() == totals:
            seen = time.monotonic() - recorded_at
            break
        second.page.wait_for_timeout(50)
    assert seen is not None and seen <= within, f"in step after {seen} s"
    assert stayed(second)
    assert second.page.locator(f"#{field}").input_value() == value  # its entry is kept
    assert second.page.locator(".live-note[data-kind=moved]").is_visible()

    record(second, 422)  # stale: the form was for round 1
    refusal = second.page.locator("#refused").inner_text()
    assert "Another phone recorded round 1 while you were entering this one." in refusal
    assert in_view(second, "#refused")
    assert second.page.locator(f"#{field}").input_value() == value
    record(second)  # one tap: recorded as round 2
    session = second.session(sid)
    assert [played["number"] for played in session["rounds"]] == [1, 2]
    assert "Round 2 recorded." in second.page.locator("#just").inner_text()
    assert stayed(second)


#: what Chromium logs for a request the test cut off on purpose
CUT_OFF = ("ERR_INTERNET_DISCONNECTED", "ERR_CONNECTION_RESET", "Failed to fetch")


def expected_failures(phone: Phone) -> None:
    """Drop the console lines of a request the test itself cut off."""
    phone.errors = [error for error in phone.errors if not any(cut in error for cut in CUT_OFF)]


def wait_for_just(phone: Phone, text: str) -> None:
    """Wait (a retry runs every browser_support.RETRY_MS) until the page shows the round."""
    phone.page.locator("#just", has_text=text).wait_for(timeout=15_000)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_round_the_network_lost_is_sent_again_and_stored_once(phones, game):
    phone = phones()
    sid = start(phone, game)
    cut = []

    def drop_first(route) -> None:
        if not cut:
            cut.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    phone.page.route("**/sessions/*/rounds", drop_first)
    fill(phone, GAMES[game][1])
    answered = phone.swaps()
    phone.page.locator("#round-form button[value=record]").first.click()
    phone.wait_for_swap(answered)
    note = phone.page.locator(".live-note[data-kind=offline]")
    assert note.is_visible() and "No connection" in note.inner_text()
    assert phone.session(sid)["rounds"] == []
    wait_for_just(phone, "Round 1 recorded.")
    assert len(cut) == 1 and len(phone.session(sid)["rounds"]) == 1
    expected_failures(phone)
    phone.check("after the retry")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_round_whose_answer_was_lost_is_not_stored_twice(phones, game):
    phone = phones()
    sid = start(phone, game)
    lost = []

    def store_then_lose_the_answer(route) -> None:
        if not lost:
            lost.append(route.fetch().status)  # the server stores the round ...
            route.abort("connectionreset")  # ... and the phone never hears of it
        else:
            route.continue_()

    phone.page.route("**/sessions/*/rounds", store_then_lose_the_answer)
    fill(phone, GAMES[game][1])
    phone.page.locator("#round-form button[value=record]").first.click()
    wait_for_just(phone, "Round 1 recorded.")
    session = phone.session(sid)
    assert lost == [200] and len(session["rounds"]) == 1  # 200: the redirect was followed
    assert phone.standings() == session["totals"]
    expected_failures(phone)
    phone.check("after the retry")


def test_two_rounds_corrected_together(phones):
    phone = phones()
    sid = start(phone, "mighty")
    for dealer, friend in (("Ann", "Cy"), ("Cy", "Ben")):
        hand = {"dealer": dealer, "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
                "friend": {"card": "JK", "player": friend}, "opposition_points": 3}  # fmt: skip
        phone.api("POST", f"/api/sessions/{sid}/rounds", hand)
    phone.open(f"/sessions/{sid}/rounds/1/edit")
    phone.page.evaluate("() => { window.stayed = true; }")
    fill(phone, {"friend_player": "Dee"})
    # Dee holds the joker now, so she deals round 2: the page fills that in and saves both
    assert phone.page.locator("#next-dealer").input_value() == "Dee"
    assert phone.page.locator("#also_next").is_checked()
    save = phone.page.locator("#round-form button[value=record]").first
    phone.tap(save)
    assert stayed(phone) and phone.page.url.endswith(f"/sessions/{sid}")
    assert "Round 1 corrected." in phone.page.locator("#just").inner_text()
    rounds = phone.session(sid)["rounds"]
    assert rounds[0]["input"]["friend"]["player"] == "Dee"
    assert rounds[1]["input"]["dealer"] == "Dee"


# -- following by the session's event stream (served behind refapp's front, as make run) -------

#: a second phone following the stream shows another phone's round within this (seconds): the
#: stream's 0.5 s bar and the changed page swapped in
STREAM_SECONDS = 0.5 + SWAP_SECONDS


class Listening(Phone):
    """A phone that keeps the address of every request its page makes (``asked``)."""

    def __init__(self, browser, base: str) -> None:
        super().__init__(browser, base)
        self.asked: list[str] = []
        self.page.on("request", lambda request: self.asked.append(request.url))

    def polls(self, sid: int) -> int:
        """Return how many version polls the page has sent for the session."""
        return sum(f"/api/sessions/{sid}?rounds=none" in url for url in self.asked)


@pytest.fixture
def streamed_phones(chromium, streamed):
    """Return a factory of phone-sized pages on the server that holds event streams."""
    made: list[Listening] = []

    def make() -> Listening:
        made.append(Listening(chromium, streamed[0]))
        return made[-1]

    yield make
    for phone in made:
        phone.page.close()


def in_step_after(second: Phone, totals: dict, since: float) -> float | None:
    """Return the seconds until the second phone shows these standings (None: not within 5 s)."""
    while time.monotonic() - since < 5:
        if second.standings() == totals:
            return time.monotonic() - since
        second.page.wait_for_timeout(25)
    return None


def test_a_second_phone_follows_the_stream_and_keeps_its_entry_without_polling(
    streamed_phones,
):
    first, second = streamed_phones(), streamed_phones()
    sid = start(first, "dixit")
    second.open(f"/sessions/{sid}")
    second.page.evaluate("() => { window.stayed = true; }")
    assert second.page.locator("#main").get_attribute("data-stream") == (
        f"/api/sessions/{sid}/events"
    )
    fill(second, NEXT["dixit"])  # half-way through the next round
    second.page.wait_for_timeout(3 * POLL_MS)  # a polling page would have polled meanwhile
    fill(first, GAMES["dixit"][1])
    record(first)
    recorded_at = time.monotonic()
    seen = in_step_after(second, first.session(sid)["totals"], recorded_at)
    assert seen is not None and seen <= STREAM_SECONDS, f"in step after {seen} s"
    assert stayed(second)
    field, value = KEPT["dixit"]
    assert second.page.locator(f"#{field}").input_value() == value  # its entry is kept
    assert second.page.locator(".live-note[data-kind=moved]").is_visible()
    assert second.polls(sid) == 0, second.asked
    streams = [url for url in second.asked if url.endswith(f"/api/sessions/{sid}/events")]
    assert len(streams) == 1, streams  # one stream, held the whole time
    record(second, 422)  # stale: the hand-off works as with polling
    assert "Another phone recorded round 1" in second.page.locator("#refused").inner_text()
    record(second)
    assert [r["number"] for r in second.session(sid)["rounds"]] == [1, 2]
    second.check("after following the stream")


def test_the_page_polls_when_the_stream_is_cut(streamed_phones):
    first, second = streamed_phones(), streamed_phones()
    sid = start(first, "dixit")
    second.page.route("**/events", lambda route: route.abort("connectionreset"))
    assert second.page.goto(f"{second.base}/sessions/{sid}").status == 200
    second.page.wait_for_timeout(3 * POLL_MS)
    assert second.polls(sid) >= 1  # the stream failed: the page polls
    fill(first, GAMES["dixit"][1])
    record(first)
    recorded_at = time.monotonic()
    seen = in_step_after(second, first.session(sid)["totals"], recorded_at)
    assert seen is not None and seen <= POLL_MS / 1000 + SWAP_SECONDS, f"in step after {seen} s"
    expected_failures(second)  # the stream cut off, as the test cut it
    second.check("after polling")


#: the page hidden or shown again, as a phone's browser does when the player switches apps
SHOW = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_page_closes_its_stream_and_catches_up_when_shown(streamed_phones):
    first, second = streamed_phones(), streamed_phones()
    sid = start(first, "dixit")
    second.open(f"/sessions/{sid}")
    stream = f"/api/sessions/{sid}/events"
    second.page.evaluate(SHOW, True)
    fill(first, GAMES["dixit"][1])
    record(first)
    totals = first.session(sid)["totals"]
    second.page.wait_for_timeout(4 * POLL_MS)
    assert second.standings() != totals  # hidden: nothing followed, nothing polled
    assert second.polls(sid) == 0
    second.page.evaluate(SHOW, False)
    shown_at = time.monotonic()
    seen = in_step_after(second, totals, shown_at)
    assert seen is not None and seen <= SWAP_SECONDS, f"in step after {seen} s"
    assert second.polls(sid) == 1  # one poll when shown, then the stream again
    assert sum(url.endswith(stream) for url in second.asked) == 2
    second.check("after being shown again")
