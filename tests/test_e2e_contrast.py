"""Every game's session page at phone size, light and dark: no text below WCAG AA contrast, by
the colours Chromium computes (a recorded round with its explanation open, then a refusal)."""

from __future__ import annotations

import pytest

from . import browser_support
from .browser_support import PHONE
from .contrast import CONTRAST_FAILURES
from .test_e2e_live import GAMES

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live = browser_support.chromium, browser_support.live

#: open every fold, so that the explanations and house rules are checked too
OPEN_DETAILS = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"


def session_with_a_round(base: str, request, game: str) -> int:
    """Start a session and record its first round through the API; return its id."""
    players, _fields = GAMES[game]
    created = request.post(f"{base}/api/sessions", data={"game": game, "players": players})
    sid = created.json()["id"]
    first = {
        "dixit": {"storyteller": "Ann", "positions": ["Dee", "Ann", "Ben", "Cy"],
                  "votes": {"Ben": 2, "Cy": 2, "Dee": 3}},
        "mighty": {"dealer": "Ann", "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
                   "friend": {"card": "JK", "player": "Cy"}, "opposition_points": 3},
        "dalmuti": {"tribute": {"greater_peasant": [5, 6], "greater_dalmuti": [12, 12],
                                "lesser_peasant": [7], "lesser_dalmuti": [11]},
                    "finish_order": ["Cy", "Ann", "Eve", "Ben", "Dee"]},
    }[game]  # fmt: skip
    answer = request.post(f"{base}/api/sessions/{sid}/rounds", data=first)
    assert answer.status == 201, answer.text()
    return sid


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_session_page_text_meets_aa(chromium, live, game, scheme):
    context = chromium.new_context(viewport=PHONE, color_scheme=scheme, locale="en-US")
    page = context.new_page()
    try:
        sid = session_with_a_round(live[0], context.request, game)
        page.goto(f"{live[0]}/sessions/{sid}")
        page.evaluate(
            "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
        )
        assert page.evaluate(CONTRAST_FAILURES) == []
        # a refusal and its messages
        page.locator("#round-form button[value=record]").first.click()
        page.locator("#refused").wait_for()
        assert page.evaluate(CONTRAST_FAILURES) == []
    finally:
        context.close()
