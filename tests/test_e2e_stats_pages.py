"""The statistics pages on a phone, in a real browser at 390x844, in English, Korean and
Hungarian: /stats and a player's page (with a period and players chosen, and a refused date)
and a finished session's records never scroll sideways, and every target is at least 44 px."""

from __future__ import annotations

import pytest

from . import browser_support
from .test_e2e_targets import count_targets, small_targets, speak
from .test_stats import FIVE, MIGHTY_HANDS

#: measures the pages on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

LANGUAGES = ["en", "ko", "hu"]
#: a long name, which must wrap rather than widen the standings, the grid or a chip
LONG = "Bartholomew-Alexandrina"


def seed(phone) -> int:
    """Store a finished Mighty session of seven hands and two finished Dixit sessions (one with
    a long name); return the Mighty session's id."""
    found = phone.api("GET", "/api/sessions?game=mighty")["sessions"]
    if found:
        return found[0]["id"]
    for players in (["Ann", "Ben", "Cy", "Dee"], ["Ann", "Ben", "Cy", LONG]):
        sid = phone.api("POST", "/api/sessions", {"game": "dixit", "players": players})["id"]
        for teller in players:
            others = [name for name in players if name != teller]
            body = {"storyteller": teller, "positions": [teller, *others],
                    "votes": dict.fromkeys(others, 1)}  # fmt: skip
            phone.api("POST", f"/api/sessions/{sid}/rounds", body)
        phone.api("POST", f"/api/sessions/{sid}/finish")
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": list(FIVE)})["id"]
    for hand in MIGHTY_HANDS:
        phone.api("POST", f"/api/sessions/{sid}/rounds", hand)
    phone.api("POST", f"/api/sessions/{sid}/finish")
    return sid


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_statistics_pages_fit_a_phone_with_44_px_targets(phone, language):
    mighty = seed(phone)
    speak(phone, language)
    paths = [
        "/stats",
        "/stats?game=dixit&players=Ann,Ben",
        "/players/Ann",
        f"/players/{LONG}",
        "/players/Eve?from=2020-01-01",
        f"/sessions/{mighty}",
    ]
    found = {}
    for path in paths:
        page = phone.open(path)
        assert page.evaluate("document.documentElement.lang") == language
        assert count_targets(page) >= 8, path
        found[path] = small_targets(page)
    assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)
    page = phone.open("/stats")
    assert page.locator("table.pairs td").count() >= 25  # the grid of five or more players
    assert page.locator("#records ul.records a").count() >= 4
    assert page.locator("#records-fell").count() == 0
    assert phone.open(f"/sessions/{mighty}").locator("#records-fell a").count() >= 1


def test_a_record_leads_to_its_round_and_a_bad_date_stands_by_its_field(phone):
    mighty = seed(phone)
    speak(phone, "en")
    page = phone.open("/stats?game=mighty")
    record = page.locator("#records a", has_text="Highest contract made")
    phone.tap(record)
    assert page.url.endswith(f"/sessions/{mighty}?upto=6#round-6")
    assert page.locator("li#round-6").is_visible()
    page = phone.open("/stats")
    page.fill("#f-from", "2026-11-06")
    page.fill("#f-to", "2026-11-01")
    phone.tap("#period button[type=submit]", 422)
    phone.assert_message_by("#f-to", "before it starts")
