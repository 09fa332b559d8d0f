"""Every page in Korean and Hungarian in real Chromium: picked on the page, fully rendered."""

from __future__ import annotations

import re

import pytest

from .browser_support import chromium, live, phone  # noqa: F401  (fixtures)
from .conftest import SEED_TURN

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.mark.parametrize(
    ("language", "label", "word"),
    [("ko", "한국어", "이야기꾼"), ("hu", "Magyar", "mesélő")],
)
def test_pages_switch_language_from_the_picker(phone, language, label, word):  # noqa: F811
    sid = phone.api(
        "POST", "/api/sessions", {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    )["id"]
    phone.api("POST", f"/api/sessions/{sid}/rounds", SEED_TURN)
    page = phone.open(f"/sessions/{sid}")
    page.get_by_role("link", name=label).click()
    page.wait_for_load_state()
    phone.check()
    assert page.locator("html").get_attribute("lang") == language
    assert f"/sessions/{sid}" in page.url
    text = page.locator("main").inner_text().lower()
    assert word in text
    if language == "ko":
        assert HANGUL.search(page.locator("#record").inner_text())
    for path in (
        "/",
        f"/sessions/{sid}/print",
        f"/sessions/{sid}/changes",
        "/players",
        "/sessions/new?game=mighty",
        "/sessions/new?game=dalmuti",
    ):
        phone.open(path)
        assert page.locator("html").get_attribute("lang") == language
    for game in ("mighty", "dalmuti"):
        other = phone.api(
            "POST", "/api/sessions", {"game": game, "players": ["Ann", "Ben", "Cy", "Dee", "Eve"]}
        )["id"]
        phone.open(f"/sessions/{other}")
