"""Real Chromium against a live server: pages render at phone size without errors or sideways
scrolling, and the score chart draws.

Runs when Chromium is present (/usr/bin/chromium or $REFAPP_CHROMIUM); skipped with a clear
reason otherwise, unless REFAPP_REQUIRE_BROWSER=1 (CI), which makes its absence a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator

import pytest
from waitress.server import create_server

from refapp import create_app
from refapp.extensions import db

from .conftest import SEED_TURN, turn

CHROMIUM = os.environ.get("REFAPP_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("REFAPP_REQUIRE_BROWSER") == "1"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def chromium():
    """Return a headless Chromium, or skip (fail under REFAPP_REQUIRE_BROWSER=1) without one."""
    if not os.path.exists(CHROMIUM):
        message = f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """Serve a fresh app with waitress on a free loopback port; yield (base URL, app)."""
    folder = tmp_path_factory.mktemp("live")
    app = create_app(
        {
            "SECRET_KEY": "live",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'live.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", app
    server.close()
    with app.app_context():
        db.engine.dispose()


class Phone:
    """A phone-sized page that remembers console errors and failed requests."""

    def __init__(self, browser, base: str) -> None:
        self.base = base
        self.page = browser.new_page(viewport=PHONE)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: str):
        """Load a page and check it: 200, no console errors, no sideways scrolling."""
        response = self.page.goto(self.base + path)
        assert response.status == 200, path
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} scrolls sideways: {width}px"
        assert self.errors == [], f"{path}: {self.errors}"
        return self.page

    def api(self, method: str, path: str, body=None) -> dict:
        """Call the JSON API through the page's own request context."""
        response = self.page.request.fetch(self.base + path, method=method, data=body)
        assert response.ok, response.text()
        return response.json()


@pytest.fixture
def phone(chromium, live):
    """Return a fresh phone-sized page on the live server."""
    phone = Phone(chromium, live[0])
    yield phone
    phone.page.close()


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
