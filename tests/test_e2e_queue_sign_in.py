"""A lapsed sign-in keeps the entry, at 390x844 in Chromium: when the server has ended the
sign-in, the table's password changed or the cookie (and its CSRF token) is gone, Record asks
for the password in place, and the kept round is sent once it is typed; nothing is stored
before that, and the page is never left.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import delete

from refapp.extensions import db
from refapp.models import SignIn

from . import browser_support
from .browser_support import PAST_A_RETRY, Phone
from .test_e2e_live import DIXIT_PLAYERS, DIXIT_ROUND, SET_FIELDS

#: the rounds waiting on the phone (the queue's keys in localStorage)
QUEUED = "() => Object.keys(localStorage).filter((key) => key.startsWith('refapp-queue')).length"


chromium = browser_support.chromium
RECORD = "#round-form .record-bar button[value=record]"
DESIGNED = re.compile(r"status of 40[13]\b")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A live server as deployed with a table password ('owl'): CSRF on."""
    yield from browser_support.serve(tmp_path_factory.mktemp("table"), PASSWORD="owl")


@pytest.fixture
def phone(chromium, table):
    """Return a phone-sized page on the live server with a password."""
    made = Phone(chromium, table[0])
    yield made
    made.page.context.close()
    table[1].config["PASSWORD"] = "owl"


def start(phone: Phone, language: str) -> int:
    """Start a session through the API (with the password), sign in, and open its page."""
    response = phone.page.request.post(
        phone.base + "/api/sessions",
        data={"game": "dixit", "players": DIXIT_PLAYERS},
        headers={"X-Table-Password": "owl"},
    )
    assert response.ok, response.text()
    sid = response.json()["id"]
    if language != "en":
        phone.open(f"/language/{language}?next=/")
    phone.open(f"/signin?next=/sessions/{sid}")
    phone.page.fill("input[name=password]", "owl")
    with phone.page.expect_navigation():
        phone.page.locator("main form button[type=submit]").click()
    assert phone.page.url.endswith(f"/sessions/{sid}")
    phone.page.evaluate("() => { window.stayed = true; }")  # gone if the page ever reloads
    return sid


def rounds(phone: Phone, sid: int) -> list[str]:
    """Return the storytellers of the stored rounds."""
    session = phone.page.request.get(f"{phone.base}/api/sessions/{sid}").json()
    return [played["input"]["storyteller"] for played in session["rounds"]]


def lapse(how: str, phone: Phone, app) -> str:
    """End the phone's sign-in the given way; return the password to type now."""
    if how == "ended":
        with app.app_context():
            db.session.execute(delete(SignIn))  # as signing out elsewhere, or 12 h passing
            db.session.commit()
        return "owl"
    if how == "new password":
        app.config["PASSWORD"] = "hawk"
        return "hawk"
    phone.page.context.clear_cookies()  # the cookie, with its CSRF token, expired
    return "owl"


#: each way a sign-in lapses, in English, and twice more in Korean and Hungarian pages
LAPSES = [("ended", "en"), ("new password", "en"), ("cookie gone", "en"), ("ended", "ko"),
          ("cookie gone", "hu")]  # fmt: skip


@pytest.mark.parametrize(("how", "language"), LAPSES)
def test_a_lapsed_sign_in_keeps_the_entry_and_sends_it_after_the_password(
    phone, table, how, language
):
    sid = start(phone, language)
    phone.page.evaluate(SET_FIELDS, DIXIT_ROUND)
    password = lapse(how, phone, table[1])
    keys: list[str | None] = []  # the Idempotency-Key of every post of the round
    phone.page.on(
        "request",
        lambda request: (
            keys.append(request.headers.get("idempotency-key"))
            if request.method == "POST" and request.url.endswith("/rounds")
            else None
        ),
    )

    phone.page.locator(RECORD).click()
    box = phone.page.locator("#sign-in-again")
    box.wait_for()
    top = box.bounding_box()
    assert top is not None and 0 <= top["y"] < 844, "the password box is off screen"
    assert phone.page.evaluate("() => document.activeElement.name") == "password"
    assert phone.page.locator("#storyteller").input_value() == "Ann"  # the entry is kept
    assert phone.page.locator("#round-form").count() == 1
    assert rounds(phone, sid) == []

    box.locator("input[type=password]").fill("wrong")
    box.locator("button[type=submit]").click()
    box.locator(".error:not([hidden])").wait_for()
    assert rounds(phone, sid) == []
    # the answers by design: 403 for the lapsed CSRF token, 401 for the wrong password
    phone.errors = [e for e in phone.errors if not DESIGNED.search(e)]

    box.locator("input[type=password]").fill(password)
    box.locator("button[type=submit]").click()
    phone.page.locator("#just").wait_for()
    assert rounds(phone, sid) == ["Ann"]
    assert phone.page.locator("#sign-in-again").count() == 0
    assert phone.page.evaluate("() => window.stayed === true")
    assert phone.page.evaluate(QUEUED) == 0  # nothing left waiting on the phone
    phone.page.wait_for_timeout(PAST_A_RETRY)  # past a retry: stored once
    assert rounds(phone, sid) == ["Ann"]
    assert len(keys) == 2 and keys[0] and len(set(keys)) == 1  # the resend is the same entry
    phone.check("after signing in again")
