"""Take the year in review's screenshots: a group's 2026 of five nights at phone size, light and
dark (needs Chromium and a Korean font, as take.py).

Usage: python docs/screens/take_review.py  - writes docs/screens/review-phone-<light|dark>.png
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from take import CHROMIUM, HERE, SIZES, serve

DIXIT = ["Ann", "김민지", "Őrsi Ágota", "Ben"]
MIGHTY = ["Ann", "김민지", "Őrsi Ágota", "Ben", "Cy"]
HANDS = [
    {"contract": {"boss": "Cy", "bid": 15, "trump": "H"},
     "friend": {"card": "JK", "player": "Ben"}, "opposition_points": 3},
    {"contract": {"boss": "Ann", "bid": 14, "trump": "S"},
     "friend": {"card": "SA", "player": "Ann"}, "opposition_points": 14},
    {"contract": {"boss": "김민지", "bid": 16, "trump": "NT"},
     "friend": {"card": "DA", "player": "Ann"}, "opposition_points": 0},
]  # fmt: skip


class Clock:
    """The app's clock, set by hand: each night in its own month of 2026."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def play_the_year(post, clock: Clock) -> None:
    """Play five nights of Dixit, a Mighty session every other night, each finished."""
    for night, month in enumerate([3, 5, 8, 10, 12]):
        clock.now = datetime(2026, month, 6 + night, 19, 0, tzinfo=UTC)
        seats = DIXIT[night % 4 :] + DIXIT[: night % 4]
        sid = post("/api/sessions", {"game": "dixit", "players": seats})["id"]
        for teller in seats[:3]:
            clock.now += timedelta(minutes=9)
            others = [name for name in seats if name != teller]
            turn = {"storyteller": teller, "positions": [teller, *others],
                    "votes": dict.fromkeys(others, 1)}  # fmt: skip
            post(f"/api/sessions/{sid}/rounds", turn)
        post(f"/api/sessions/{sid}/finish")
        if night % 2 == 0:
            sid = post("/api/sessions", {"game": "mighty", "players": MIGHTY})["id"]
            for hand in HANDS:
                clock.now += timedelta(minutes=7)
                post(f"/api/sessions/{sid}/rounds", hand)
            post(f"/api/sessions/{sid}/finish")
    clock.now = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)


def main() -> int:
    """Play the year through the API, then photograph the group's review in each scheme."""
    if not os.path.exists(CHROMIUM):
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 1
    clock = Clock()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, server = serve(Path(folder), clock)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            request = browser.new_context().request

            def post(path: str, body: object = None) -> dict:
                answer = request.post(base + path, data=body)
                assert answer.ok, answer.text()
                return answer.json()

            play_the_year(post, clock)
            for scheme in ("light", "dark"):
                context = browser.new_context(
                    viewport=SIZES["phone"], color_scheme=scheme, locale="en-US"
                )
                page = context.new_page()
                page.goto(f"{base}/review?year=2026")
                page.screenshot(path=str(HERE / f"review-phone-{scheme}.png"))
                print(f"docs/screens/review-phone-{scheme}.png")
                context.close()
        finally:
            browser.close()
            server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
