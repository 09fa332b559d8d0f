"""Seasons and public views on a phone, in a real browser at 390x844, in English, Korean and
Hungarian: the organizer's seasons and public-view pages, the statistics and review with a
season, and both public views never scroll sideways and keep every target at least 44 px; a
public view follows a new round by itself."""

from __future__ import annotations

import pytest

from . import browser_support
from .conftest import turn
from .test_e2e_targets import count_targets, small_targets, speak

#: measures the pages on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

LANGUAGES = ["en", "ko", "hu"]
#: a long season name (40 characters), which must wrap rather than widen a chip or a card
LONG = "Bartholomew-Alexandrina Autumn Open 2027"
PLAYERS = ["Ann", "Ben", "Cy", "Bartholomew-Alexandrina"]


def seed(phone) -> tuple[int, str, str]:
    """Store a Dixit session of two turns and two seasons; return the session's id and the
    tokens of its public view and the group's."""
    sid = phone.api("POST", "/api/sessions", {"game": "dixit", "players": PLAYERS})["id"]
    for teller in PLAYERS[:2]:
        phone.api("POST", f"/api/sessions/{sid}/rounds", turn(teller, tuple(PLAYERS)))
    phone.api("PUT", "/api/seasons/Spring", {"from": "2026-01-01", "to": "2026-12-31"})
    phone.api("PUT", f"/api/seasons/{LONG}", {"from": "2026-09-01", "to": "2026-12-31"})
    mine = phone.api("POST", f"/api/sessions/{sid}/public-view")["public_view"]["url"]
    group = phone.api("POST", "/api/public-views")["public_view"]["url"]
    return sid, mine.rsplit("/view/", 1)[1], group.rsplit("/view/", 1)[1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_season_and_view_pages_fit_a_phone_with_44_px_targets(phone, language):
    sid, mine, group = seed(phone)
    speak(phone, language)
    paths = [
        "/seasons",
        f"/public-views?session={sid}",
        "/stats?season=Spring",
        "/review?season=Spring",
        f"/view/{mine}",
        f"/view/{group}",
    ]
    found = {}
    for path in paths:
        page = phone.open(path)  # no sideways scroll, no console error
        assert page.evaluate("document.documentElement.lang") == language
        if not path.startswith("/view/"):
            assert count_targets(page) >= 4, path
        found[path] = small_targets(page)
    assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)
    page = phone.open(f"/view/{mine}")
    assert page.locator("form, button, input, select, textarea").count() == 0


def test_a_public_view_follows_a_new_round_by_itself(phone):
    sid, mine, _group = seed(phone)
    speak(phone, "en")
    page = phone.open(f"/view/{mine}")
    assert page.locator("li[data-round='3']").count() == 0
    phone.api("POST", f"/api/sessions/{sid}/rounds", turn("Cy", tuple(PLAYERS)))
    page.locator("li[data-round='3']").wait_for(timeout=10_000)  # polled, swapped in place
    assert page.locator("main form").count() == 0
