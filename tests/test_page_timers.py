"""The pages' timers: the app's POLL_MS and RETRY_MS reach the scripts through <body>, the
deployed values keep a second phone in step within 3 s, and the browser tests run theirs short."""

from __future__ import annotations

import re
from pathlib import Path

from refapp import create_app

from . import browser_support
from .test_e2e_live import IN_STEP_SECONDS, SWAP_SECONDS
from .test_web import shown

STATIC = Path(__file__).parent.parent / "refapp" / "static"
#: a script's delay read from the page, with the value it falls back on: (data key, ms)
READ = re.compile(r"Number\(document\.body\.dataset\.(\w+)\) \|\| (\d+);")


def deployed() -> dict:
    """Return the app's config as deployed (no test values)."""
    return create_app({"SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": "sqlite://"}).config


def test_the_deployed_poll_keeps_a_second_phone_in_step_within_three_seconds():
    config = deployed()
    assert (config["POLL_MS"], config["RETRY_MS"]) == (2000, 4000)
    assert config["POLL_MS"] / 1000 + SWAP_SECONDS <= IN_STEP_SECONDS


def test_every_page_hands_its_timers_to_the_scripts(client, app):
    page = shown(client.get("/"))
    assert '<body data-poll-ms="2000" data-retry-ms="4000">' in page
    app.config.update(POLL_MS=150, RETRY_MS=250)
    assert '<body data-poll-ms="150" data-retry-ms="250">' in shown(client.get("/"))


def test_a_live_answer_carries_no_body_and_so_no_second_timer(client):
    page = shown(client.get("/", headers={"X-Refapp-Live": "1"}))
    assert "data-poll-ms" not in page and "data-retry-ms" not in page


def test_each_script_falls_back_on_the_deployed_value():
    config = deployed()
    wanted = {"pollMs": config["POLL_MS"], "retryMs": config["RETRY_MS"]}
    found = {
        name: READ.findall((STATIC / name).read_text())
        for name in ("live.js", "queue.js", "signin-again.js")
    }
    assert found == {
        "live.js": [("pollMs", "2000")],
        "queue.js": [("retryMs", "4000")],
        "signin-again.js": [("retryMs", "4000")],
    }
    for reads in found.values():
        for key, fallback in reads:
            assert int(fallback) == wanted[key], key


def test_the_browser_tests_run_the_timers_short():
    assert browser_support.POLL_MS <= 250 and browser_support.RETRY_MS <= 250
    assert browser_support.PAST_A_RETRY > 2 * browser_support.RETRY_MS
