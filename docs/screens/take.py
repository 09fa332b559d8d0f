"""Take the README's screenshots: each game's session page at phone and laptop size, light and
dark, after a few rounds (``make screens``; needs Chromium, as the browser tests do, and a
Korean font for the Korean names, e.g. Debian's fonts-nanum).

Usage: python docs/screens/take.py  - writes docs/screens/<game>-<phone|laptop>-<light|dark>.png
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from playwright.sync_api import sync_playwright
from waitress.server import create_server

from refapp import create_app
from refapp.extensions import db

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("REFAPP_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
#: scroll so that a part of the page starts at the top of the screen (the page's top for #main)
SCROLL_TO = """(where) => where === "#main" ? window.scrollTo(0, 0)
    : document.querySelector(where).scrollIntoView({ block: "start" })"""

#: a few rounds of each game, as a table would have played them
TABLES = {
    "mighty": (
        ["민준", "Ben", "서연", "Dee", "Eve"],
        [
            {"dealer": "민준", "contract": {"boss": "민준", "bid": 15, "trump": "H"},
             "friend": {"card": "JK", "player": "서연"}, "opposition_points": 3},
            {"dealer": "서연", "contract": {"boss": "Dee", "bid": 14, "trump": "S"},
             "friend": {"card": "DA", "player": "Eve"}, "opposition_points": 9},
        ],
    ),
    "dixit": (
        ["Ann", "Ben", "Cy", "Dee", "Eve"],
        [
            {"storyteller": "Ann", "positions": ["Dee", "Ann", "Ben", "Cy", "Eve"],
             "votes": {"Ben": 2, "Cy": 2, "Dee": 3, "Eve": 1}},
            {"storyteller": "Ben", "positions": ["Ben", "Ann", "Cy", "Dee", "Eve"],
             "votes": {"Ann": 1, "Cy": 2, "Dee": 1, "Eve": 3}},
        ],
    ),
    "dalmuti": (
        ["Ann", "Ben", "Cy", "Dee", "Eve"],
        [
            {"tribute": {"greater_peasant": [5, 6], "greater_dalmuti": [12, 12],
                         "lesser_peasant": [7], "lesser_dalmuti": [11]},
             "finish_order": ["Cy", "Ann", "Eve", "Ben", "Dee"]},
        ],
    ),
}  # fmt: skip


def run(server) -> None:
    """Serve until closed (closing under a poll is the server stopping, not a failure)."""
    with contextlib.suppress(OSError, ValueError):
        server.run()


def serve(folder: Path, clock: Callable[[], datetime] | None = None):
    """Serve a fresh app (on ``clock``, when given) on a free loopback port; return (base URL,
    server)."""
    app = create_app(
        {"SECRET_KEY": "screens", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 's.sqlite'}"}
    )
    if clock is not None:
        app.config["CLOCK"] = clock
    with app.app_context():
        db.create_all()
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    threading.Thread(target=run, args=(server,), daemon=True).start()
    return f"http://127.0.0.1:{server.effective_port}", server


def main() -> int:
    """Play the tables through the API, then photograph each page in each size and scheme."""
    if not os.path.exists(CHROMIUM):
        print(f"needs Chromium at {CHROMIUM}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, server = serve(Path(folder))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            request = browser.new_context().request
            for game, (players, rounds) in TABLES.items():
                answer = request.post(
                    f"{base}/api/sessions", data={"game": game, "players": players}
                )
                sid = answer.json()["id"]
                for played in rounds:
                    assert request.post(f"{base}/api/sessions/{sid}/rounds", data=played).ok
                for size, viewport in SIZES.items():
                    for scheme in ("light", "dark"):
                        context = browser.new_context(
                            viewport=viewport, color_scheme=scheme, locale="en-US"
                        )
                        page = context.new_page()
                        page.goto(f"{base}/sessions/{sid}")
                        shots = {f"{game}-{size}-{scheme}.png": "#main"}
                        if size == "phone":  # and the round form, scrolled to as a player does
                            shots[f"{game}-{size}-{scheme}-form.png"] = "#record"
                        for name, where in shots.items():
                            page.locator(where).scroll_into_view_if_needed()
                            page.evaluate(SCROLL_TO, where)
                            page.screenshot(path=str(HERE / name))
                            print(f"docs/screens/{name}")
                        context.close()
        finally:
            browser.close()
            server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
