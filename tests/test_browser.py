"""Real Chromium against a live server: pages render at phone size without errors or sideways
scrolling, and the score chart draws.

Runs when Chromium is present (/usr/bin/chromium or $REFAPP_CHROMIUM); skipped with a clear
reason otherwise, unless REFAPP_REQUIRE_BROWSER=1 (CI), which makes its absence a failure.
"""

from __future__ import annotations

import pytest

from . import browser_support
from .conftest import SEED_TURN, turn

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone


def test_dixit_session_page_draws_the_chart_without_errors(phone):
    sid = phone.api(
        "POST", "/api/sessions", {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    )["id"]
    phone.api("POST", f"/api/sessions/{sid}/rounds", SEED_TURN)
    phone.api("POST", f"/api/sessions/{sid}/rounds", turn("Ben"))
    page = phone.open(f"/sessions/{sid}")
    assert page.locator("figure.chart > svg polyline").count() == 4
    box = page.locator("figure.chart > svg").bounding_box()
    assert 300 <= box["width"] <= 390 and box["height"] > 100
    for path in (
        f"/sessions/{sid}/print",
        f"/sessions/{sid}/changes",
        "/",
        "/sessions/new?game=dixit",
    ):
        phone.open(path)


def test_a_long_name_does_not_push_the_page_sideways(phone):
    long_name = "Bartholomew-Maximilian-Alexandrovich-Xu"
    sid = phone.api(
        "POST", "/api/sessions", {"game": "dixit", "players": [long_name, "Ben", "Cy"]}
    )["id"]
    phone.api(
        "POST",
        f"/api/sessions/{sid}/rounds",
        {
            "storyteller": long_name,
            "positions": [long_name, "Ben", "Cy", "Ben", "Cy"],
            "votes": {"Ben": 1, "Cy": 2},
        },
    )
    phone.open(f"/sessions/{sid}")
    phone.open(f"/sessions/{sid}/print")


@pytest.mark.parametrize("game", ["mighty", "dalmuti"])
def test_other_games_session_pages_fit_a_phone(phone, game):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = phone.api("POST", "/api/sessions", {"game": game, "players": players})["id"]
    page = phone.open(f"/sessions/{sid}")
    assert page.locator("form").count() >= 1
