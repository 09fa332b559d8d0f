"""Take the result card's screenshots: a finished Mighty night's card page at phone size, light
and dark, and the picture card.js draws from it (needs Chromium and a Korean font, as take.py).

Usage: python docs/screens/take_card.py  - writes docs/screens/card-phone-<light|dark>.png and
docs/screens/card-picture.png
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from take import CHROMIUM, HERE, SIZES, serve

PLAYERS = ["민준", "Ben", "서연", "Dee", "Ödön"]
HANDS = [
    {"contract": {"boss": "Ödön", "bid": 16, "trump": "NT"},
     "friend": {"card": "DA", "player": "민준"}, "opposition_points": 0},
    {"contract": {"boss": "서연", "bid": 15, "trump": "H"},
     "friend": {"card": "JK", "player": "Dee"}, "opposition_points": 3},
    {"all_pass": True},
    {"contract": {"boss": "Ben", "bid": 14, "trump": "S"},
     "friend": {"card": "SA", "player": "Ben"}, "opposition_points": 14},
    {"contract": {"boss": "민준", "bid": 13, "trump": "D"},
     "friend": {"card": "HA", "player": "Ödön"}, "opposition_points": 5},
]  # fmt: skip


def main() -> int:
    """Play the night through the API, then photograph its card page and save its picture."""
    if not os.path.exists(CHROMIUM):
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, server = serve(Path(folder))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            request = browser.new_context().request
            answer = request.post(
                f"{base}/api/sessions", data={"game": "mighty", "players": PLAYERS}
            )
            sid = answer.json()["id"]
            for played in HANDS:
                assert request.post(f"{base}/api/sessions/{sid}/rounds", data=played).ok
            assert request.post(f"{base}/api/sessions/{sid}/finish").ok
            for scheme in ("light", "dark"):
                context = browser.new_context(
                    viewport=SIZES["phone"],
                    color_scheme=scheme,
                    locale="en-US",
                    accept_downloads=True,
                )
                page = context.new_page()
                page.add_init_script("delete Navigator.prototype.share;")
                page.goto(f"{base}/sessions/{sid}/card")
                page.screenshot(path=str(HERE / f"card-phone-{scheme}.png"))
                print(f"docs/screens/card-phone-{scheme}.png")
                if scheme == "light":
                    with page.expect_download() as downloading:
                        page.locator("[data-share-card]").click()
                    downloading.value.save_as(str(HERE / "card-picture.png"))
                    print("docs/screens/card-picture.png")
                context.close()
        finally:
            browser.close()
            server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
