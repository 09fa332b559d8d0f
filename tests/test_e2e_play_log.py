"""The play log, the location form and the Share block on a phone (390x844), light and dark, in
English, Korean and Hungarian: no sideways scroll, every target at least 44 px, text at AA."""

from __future__ import annotations

import pytest

from . import browser_support
from .contrast import CONTRAST_FAILURES
from .test_e2e_targets import count_targets, small_targets, speak

#: measures the pages on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

#: a long place without a space, which must wrap rather than widen the list
LONG_PLACE = "Bartholomew-Alexandrinas-Boardgame-Basement-Clubhouse-Upstair"[:60]


def seed(phone) -> int:
    """Store a finished Dixit session at a long-named place and one running elsewhere."""
    found = phone.api("GET", f"/api/sessions?location={LONG_PLACE}")["sessions"]
    if found:
        return found[0]["id"]
    players = ["Ann", "Ben", "Cy", "Dee"]
    body = {"game": "dixit", "players": players, "location": LONG_PLACE}
    sid = phone.api("POST", "/api/sessions", body)["id"]
    for teller in players:
        others = [name for name in players if name != teller]
        turn = {"storyteller": teller, "positions": [teller, *others],
                "votes": dict.fromkeys(others, 1)}  # fmt: skip
        phone.api("POST", f"/api/sessions/{sid}/rounds", turn)
    phone.api("POST", f"/api/sessions/{sid}/finish")
    phone.api("POST", "/api/sessions", {"game": "dixit", "players": players, "location": "Home"})
    return sid


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_play_log_and_share_fit_a_phone(phone, language, scheme):
    sid = seed(phone)
    speak(phone, language)
    phone.page.emulate_media(color_scheme=scheme)
    found = {}
    for path in ("/?location=Home", "/", f"/sessions/{sid}", "/sessions/new?game=dixit"):
        page = phone.open(path)
        if path == f"/sessions/{sid}":
            page.locator("#share details summary").click()
            phone.check(path)
        assert count_targets(page) >= 3, path
        found[path] = small_targets(page)
        assert page.evaluate(CONTRAST_FAILURES) == [], path
    assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)
    page = phone.open(f"/sessions/{sid}")
    link = page.locator("#share a[data-bgstats]")
    assert link.count() == 1
    assert link.get_attribute("href").startswith("https://app.bgstatsapp.com/createPlay.html?")
    page = phone.open("/")
    assert page.locator(".play-log .place", has_text=LONG_PLACE).count() == 1


def test_the_location_is_set_from_the_session_page(phone):
    sid = seed(phone)
    speak(phone, "en")
    page = phone.open(f"/sessions/{sid}")
    page.locator("#share details summary").click()
    page.fill("#share input[name=location]", "  The  Attic ")
    phone.tap(page.locator("#share form button[type=submit]"))
    assert phone.session(sid)["location"] == "The Attic"
    assert "Played at The Attic" in page.locator(".session-head").inner_text()
