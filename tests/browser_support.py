"""What the real-browser tests share: headless Chromium, a live server, and a phone-sized page.

Chromium is /usr/bin/chromium (or $REFAPP_CHROMIUM). Without it the browser tests are skipped
with a clear reason, unless REFAPP_REQUIRE_BROWSER=1 (CI), which makes its absence a failure.
The live servers are plain waitress, whose pages poll; REFAPP_BROWSER_STREAMS=1 serves them
behind refapp's front instead (as make run), so every page follows its session's event stream.

A test module imports the fixtures it uses into its own namespace, e.g.
``from .browser_support import chromium, live, phone  # noqa: F401``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from waitress.server import create_server

from refapp import create_app
from refapp.extensions import db

CHROMIUM = os.environ.get("REFAPP_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("REFAPP_REQUIRE_BROWSER") == "1"
#: every live server behind refapp's front: the pages follow event streams (not a poll)
STREAMS = os.environ.get("REFAPP_BROWSER_STREAMS") == "1"
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
#: how long a click or a page load may take before the test fails (ms)
TIMEOUT = 15_000
#: the pages' timers on the tests' server (ms): the session page polls and a waiting round is
#: sent again at once, so no test sleeps on the deployed ones (refapp/__init__.py's POLL_MS,
#: RETRY_MS); a test of how often they run reads the app's defaults instead
POLL_MS = 200
RETRY_MS = 200
#: how long a test waits to see that nothing more is sent: a few retries (ms)
PAST_A_RETRY = 3 * RETRY_MS
#: what Chromium logs when a page answers 422: the way a refused form is sent back, by design
#: does this element submit a live form (answered in place by live.js)?
LIVE_BUTTON = (
    "node => Boolean(node.form && node.form.hasAttribute('data-live') && node.type === 'submit')"
)
#: counts every key pressed in a page (window.__keys): the table's typing, which taps avoid
#: (once a page, however often it is added)
KEYS = (
    "if (window.__keys === undefined) { window.__keys = 0;"
    " addEventListener('keydown', () => { window.__keys += 1; }, true); }"
)
#: sets the round form's view before the page's scripts run (composer.js reads it)
VIEW = "try { localStorage.setItem('refapp.composer.view', '%s'); } catch (e) {}"
REFUSED_PAGE = re.compile(r"Failed to load resource: the server responded with a status of 422\b")


@pytest.fixture(scope="module")
def chromium():
    """Return a headless Chromium, or skip (fail under REFAPP_REQUIRE_BROWSER=1) without one."""
    if not os.path.exists(CHROMIUM):
        message = f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    if REQUIRED:
        import playwright.sync_api as sync_api  # under CI a missing Playwright is a failure
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


def run_until_closed(server) -> None:
    """Run a waitress server's loop in a thread; closing it at teardown under a poll is fine.

    The loop may be inside select() when the test closes the server's sockets; the EBADF that
    follows is the server stopping, not a failure.
    """
    with contextlib.suppress(OSError, ValueError):
        server.run()


def serve(folder, front: bool = False, **config: Any) -> Iterator[tuple[str, object]]:
    """Serve a fresh app, its timers short, with waitress on a free loopback port; yield (base
    URL, app). ``front``: behind refapp's front, as make run serves it (sessions' event streams
    held, the pages following them)."""
    app = create_app(
        {
            "SECRET_KEY": "live",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'live.sqlite'}",
            "POLL_MS": POLL_MS,
            "RETRY_MS": RETRY_MS,
            **config,
        }
    )
    with app.app_context():
        db.create_all()
    if front or (STREAMS and config.get("POLL_MS") is None):
        from refapp.serving.front import create_server as create_front

        server = create_front(app, host="127.0.0.1", port=0, threads=2)
    else:
        server = create_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=run_until_closed, args=(server,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", app
    server.close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """A live server with CSRF off (for tests that set up through the JSON API)."""
    yield from serve(tmp_path_factory.mktemp("live"), WTF_CSRF_ENABLED=False)


@pytest.fixture(scope="module")
def streamed(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """A live server behind refapp's front (CSRF off): session pages follow event streams."""
    yield from serve(tmp_path_factory.mktemp("streamed"), front=True, WTF_CSRF_ENABLED=False)


@pytest.fixture(scope="module")
def live_csrf(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """A live server as deployed: CSRF on, so every form must carry its hidden token."""
    yield from serve(tmp_path_factory.mktemp("live_csrf"))


class Phone:
    """A phone-sized page that remembers console errors and failed requests.

    Confirmation dialogs (undo, finish) are accepted, and their messages kept in ``dialogs``.
    """

    def __init__(self, browser, base: str, composer: bool = False) -> None:
        self.base = base
        self.page = browser.new_page(viewport=PHONE, locale="en-US")
        # the round form one part at a time (the composer) or whole (its "All at once" view):
        # tests of the form's fields use the whole form; tests/table_rounds.py the composer
        self.page.add_init_script(VIEW % ("steps" if composer else "all"))
        self.page.set_default_timeout(TIMEOUT)
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", self._request_failed)
        self.page.on("dialog", self._dialog)

    def _request_failed(self, request) -> None:
        # a load cut short by the next navigation (e.g. the favicon) is not a failure
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"request failed: {request.url} ({request.failure})")

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.accept()

    def check(self, where: str = "") -> None:
        """Check the page as it stands: no sideways scrolling, no console errors so far."""
        where = where or self.page.url
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{where} scrolls sideways: {width}px"
        assert self.errors == [], f"{where}: {self.errors}"

    def open(self, path: str, status: int = 200):
        """Load a page and check it: its status, no console errors, no sideways scrolling."""
        response = self.page.goto(self.base + path)
        assert response.status == status, path
        self.check(path)
        return self.page

    def tap(self, button, status: int = 200):
        """Tap a button or link (a locator or a selector) and check the page it leads to.

        A button of a live form (``data-live``) is answered in place: wait for live.js to swap
        the server's answer in, and read its status; anything else is a page load. A refused
        form comes back with 422, which Chromium logs as a failed load: that one expected
        message is dropped; any other console error fails the check.
        """
        locator = self.page.locator(button) if isinstance(button, str) else button
        where = f"after tapping {locator}"
        if locator.evaluate(LIVE_BUTTON):
            answered = self.swaps()
            locator.click()
            self.wait_for_swap(answered)
            got = int(self.page.evaluate("document.body.dataset.liveStatus"))
        else:
            with self.page.expect_navigation() as navigation:
                locator.click()
            response = navigation.value
            got = response.status if response is not None else None
        assert got == status, f"{where}: {got}, expected {status}"
        if status == 422:
            self.errors = [error for error in self.errors if not REFUSED_PAGE.search(error)]
        self.check(where)
        return self.page

    def wait_for_swap(self, answered: int) -> None:
        """Wait until live.js has swapped in more answers than ``answered`` (the page's CSP
        forbids the eval that Playwright's wait_for_function needs, so poll from here)."""
        for _step in range(TIMEOUT // 50):
            if self.swaps() > answered:
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"no answer was swapped in within {TIMEOUT} ms")

    def swaps(self) -> int:
        """Return how many answers live.js has swapped into this page so far."""
        return int(self.page.evaluate("Number(document.body.dataset.swaps || 0)"))

    def api(self, method: str, path: str, body=None) -> dict:
        """Call the JSON API through the page's own request context."""
        response = self.page.request.fetch(self.base + path, method=method, data=body)
        assert response.ok, response.text()
        return response.json()

    def session(self, session_id: int) -> dict:
        """Return the session object from the API (to compare with what the page shows)."""
        return self.api("GET", f"/api/sessions/{session_id}")

    def session_id(self) -> int:
        """Return the id of the session page the phone is on."""
        found = re.search(r"/sessions/(\d+)", self.page.url)
        assert found, self.page.url
        return int(found.group(1))

    def standings(self) -> dict[str, int]:
        """Return the standings table of the session page: {player: points}."""
        rows = self.page.locator("#standings table.standings tbody tr")
        table = {}
        for index in range(rows.count()):
            name, points = rows.nth(index).locator("td").all_inner_texts()
            table[name.strip()] = int(points.strip())
        return table

    def flash(self) -> list[str]:
        """Return the flashed messages at the top of the page."""
        return [text.strip() for text in self.page.locator("p.flash").all_inner_texts()]

    def assert_message_by(self, field: str, message: str, container: str = "") -> None:
        """Assert that a refusal's message is visible next to its field.

        Next to means: inside the field's own container (its closest div, fieldset, details or
        form, or the given container around a group of fields laid out side by side), after
        the field, with no other field between the two.
        """
        notice = self.page.locator("p.error", has_text=message)
        assert notice.count() >= 1, f"no message {message!r} on the page: {self.messages()}"
        assert notice.first.is_visible(), f"the message {message!r} is hidden"
        problem = self.page.evaluate(
            """([selector, text, around]) => {
                const field = document.querySelector(selector);
                if (!field) return `no field ${selector}`;
                const box = around ? document.querySelector(around)
                    : field.closest("div, fieldset, details, form");
                if (!box || !box.contains(field)) return `${around} does not hold the field`;
                const near = Array.from(box.querySelectorAll("p.error"))
                    .filter((node) => node.textContent.includes(text));
                if (!near.length) return `not in the field's ${box.tagName} ${box.className}`;
                const note = near[0];
                const after = (a, b) =>
                    Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
                if (!after(field, note)) return "the message stands before the field";
                const between = Array.from(
                    box.querySelectorAll("input[name], select[name], textarea[name]")
                ).filter((other) => other.type !== "hidden" && other.name !== field.name
                    && after(field, other) && after(other, note));
                return between.length ? `${between[0].name} stands between` : "";
            }""",
            [field, message, container],
        )
        assert problem == "", f"{message!r} is not next to {field}: {problem}"

    def messages(self) -> list[str]:
        """Return every refusal message on the page."""
        return [text.strip() for text in self.page.locator("p.error").all_inner_texts()]


@pytest.fixture
def phone(chromium, live):
    """Return a fresh phone-sized page on the live server (CSRF off)."""
    phone = Phone(chromium, live[0])
    yield phone
    phone.page.close()


@pytest.fixture
def table_phone(chromium, live_csrf):
    """Return a fresh phone-sized page on the live server as deployed (CSRF on)."""
    phone = Phone(chromium, live_csrf[0])
    yield phone
    phone.page.close()
