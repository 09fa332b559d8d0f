"""Tap targets in a real browser at 390x844, in English, Korean and Hungarian: every visible link,
button, summary, select, checkbox and radio (with the label around it) of the pages outside the
round form is at least 44 px high and wide, measured with getBoundingClientRect.

Exempt, by WCAG 2.5.8's inline exception: a link inside a sentence (``p.inline-link a``: the
sign-in link of "This table has a password. Sign in to rename Ann.").
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import browser_support

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

LANGUAGES = ["en", "ko", "hu"]
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]

#: every visible target under 44 px: the label around a checkbox or radio is its target;
#: every <details> is opened first, so that what it hides is measured too
SMALL_TARGETS = """(skip) => {
    document.querySelectorAll("details").forEach((node) => { node.open = true; });
    const what = "a[href], button, summary, select, input[type=checkbox], input[type=radio]";
    const found = [];
    for (const node of document.querySelectorAll(what)) {
        if (skip && node.closest(skip)) continue;
        const target = (node.matches("input") && node.closest("label")) || node;
        const box = target.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;  // not shown
        if (box.width < 44 || box.height < 44) {
            const words = (target.innerText || node.name || node.value || "").trim().slice(0, 40);
            found.push(`${node.tagName.toLowerCase()} "${words}": `
                + `${Math.round(box.width)}x${Math.round(box.height)}`);
        }
    }
    return found;
}"""
#: what another part owns or the inline exception covers (see the module's docstring)
NOT_MEASURED = "form#round-form, .record-bar, #record, #history, p.inline-link"


def count_targets(page) -> int:
    """Return how many targets the measurement saw (a page with none measured nothing)."""
    return page.evaluate(
        """(skip) => Array.from(document.querySelectorAll(
            "a[href], button, summary, select, input[type=checkbox], input[type=radio]"))
            .filter((node) => !node.closest(skip)).length""",
        NOT_MEASURED,
    )


def small_targets(page) -> list[str]:
    """Return the visible targets under 44 px (described for the failure)."""
    return page.evaluate(SMALL_TARGETS, NOT_MEASURED)


def speak(phone, language: str) -> None:
    """Pick the page language with the picker's cookie."""
    phone.page.context.add_cookies([{"name": "lang", "value": language, "url": phone.base}])


@pytest.fixture(scope="module")
def guarded_live(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """A live server whose table has a password (the sign-in page and the signed-out pages)."""
    yield from browser_support.serve(
        tmp_path_factory.mktemp("guarded"), WTF_CSRF_ENABLED=False, PASSWORD="owl"
    )


def seed(phone) -> int:
    """Store what the pages show: a session of each game, a saved set; return a Mighty id."""
    if phone.api("GET", "/api/sessions")["total"]:
        return phone.api("GET", "/api/sessions?game=mighty")["sessions"][0]["id"]
    phone.api("POST", "/api/sessions", {"game": "dixit", "players": PLAYERS[:4]})
    phone.api("POST", "/api/sessions", {"game": "dalmuti", "players": PLAYERS})
    body = {"game": "mighty", "preset": "online", "rules": {"min_bid": 14}}
    phone.api("PUT", "/api/rule-sets/Friday", body)
    return phone.api("POST", "/api/sessions", {"game": "mighty", "players": PLAYERS})["id"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_target_outside_the_round_form_is_44_px(phone, language):
    sid = seed(phone)
    dalmuti = phone.api("GET", "/api/sessions?game=dalmuti")["sessions"][0]["id"]
    dixit = phone.api("GET", "/api/sessions?game=dixit")["sessions"][0]["id"]
    speak(phone, language)
    pages = [
        "/",
        "/sessions/new?game=dalmuti",
        "/sessions/new?game=mighty",
        "/sessions/new?game=dixit",
        f"/sessions/new?game=mighty&again={sid}",
        "/players",
        "/players/Ann",
        "/rule-sets",
        f"/sessions/{sid}/changes",
        f"/sessions/{sid}",
        f"/sessions/{sid}/trick",
        f"/sessions/{sid}/print",
        f"/sessions/{dalmuti}",
        f"/sessions/{dalmuti}/check-play",
        f"/sessions/{dixit}",
    ]
    found = {}
    for path in pages:
        page = phone.open(path)
        assert page.evaluate("document.documentElement.lang") == language
        assert count_targets(page) >= 5, path
        found[path] = small_targets(page)
        phone.check(f"{path} with every <details> open")  # what opens does not widen the page
    assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_way_back_from_an_unknown_page_is_44_px(phone, language):
    speak(phone, language)
    page = phone.page
    assert page.goto(phone.base + "/sessions").status == 404  # the reviewer's address: no page
    back = page.locator("main a[href='/']")
    assert back.count() == 1
    box = back.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44, box
    assert small_targets(page) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_signed_out_pages_are_44_px_too(chromium, guarded_live, language):
    phone = browser_support.Phone(chromium, guarded_live[0])
    try:
        body = {"game": "dixit", "players": PLAYERS[:4]}
        answer = phone.page.request.post(
            phone.base + "/api/sessions", data=body, headers={"X-Table-Password": "owl"}
        )
        assert answer.ok, answer.text()
        speak(phone, language)
        found = {}
        for path in ["/signin", "/", "/players", "/players/Ann"]:
            page = phone.open(path)
            assert count_targets(page) >= 5, path
            found[path] = small_targets(page)
        exempt = page.locator("#rename p.inline-link a")
        assert exempt.count() == 1  # the one link inside a sentence, on the player's page
        assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)
    finally:
        phone.page.close()
