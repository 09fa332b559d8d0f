"""The year in review on a phone, in a real browser at 390x844, in English, Korean and
Hungarian, light and dark: /review and a player's review never scroll sideways and every target
is at least 44 px; "Share as a picture" without the Web Share API downloads a PNG of the review's
card (1080x1350, more than one colour) whose name says what it is."""

from __future__ import annotations

import io
import struct
from datetime import UTC, datetime

import pytest
from PIL import Image

from . import browser_support
from .test_e2e_targets import count_targets, small_targets, speak
from .test_stats import FIVE, MIGHTY_HANDS

#: measures the pages on the phone, whatever the database
pytestmark = pytest.mark.layout

chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

LANGUAGES = ["en", "ko", "hu"]
#: names in the scripts the card must draw: Korean and Hungarian
PLAYERS = ["Ann", "김민지", "Őrsi Ágota", "Ben"]
#: the PNG signature and the card's size (static/card.js)
PNG = b"\x89PNG\r\n\x1a\n"
CARD = (1080, 1350)
#: what hides the Web Share API from the page, as on a laptop's browser
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def seed(phone) -> None:
    """Store this year's finished sessions: two Dixit tables and a Mighty one (once a module)."""
    if phone.api("GET", "/api/sessions")["total"]:
        return
    for _table in range(2):
        sid = phone.api("POST", "/api/sessions", {"game": "dixit", "players": PLAYERS})["id"]
        for teller in PLAYERS[:3]:
            others = [name for name in PLAYERS if name != teller]
            body = {"storyteller": teller, "positions": [teller, *others],
                    "votes": dict.fromkeys(others, 1)}  # fmt: skip
            phone.api("POST", f"/api/sessions/{sid}/rounds", body)
        phone.api("POST", f"/api/sessions/{sid}/finish")
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": list(FIVE)})["id"]
    for hand in MIGHTY_HANDS:
        phone.api("POST", f"/api/sessions/{sid}/rounds", hand)
    phone.api("POST", f"/api/sessions/{sid}/finish")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_review_fits_a_phone_with_44_px_targets(phone, language, scheme):
    seed(phone)
    speak(phone, language)
    phone.page.emulate_media(color_scheme=scheme)
    year = datetime.now(UTC).year
    paths = {
        f"/review?year={year}": 200,
        "/review": 200,
        "/players/Ann/review": 200,
        f"/players/{PLAYERS[2]}/review?from={year}-01-01&to={year}-12-31": 200,
        "/review?year=20x6": 422,
    }
    found = {}
    for path, status in paths.items():
        page = phone.page
        assert page.goto(phone.base + path).status == status, path
        # a refused year is answered 422, which Chromium logs as a failed load: by design
        phone.errors = [e for e in phone.errors if not browser_support.REFUSED_PAGE.search(e)]
        phone.check(path)
        assert page.evaluate("document.documentElement.lang") == language
        assert count_targets(page) >= 8, path
        found[path] = small_targets(page)
    assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)
    page = phone.open("/review")
    assert page.locator('[data-review="sessions"]').inner_text() == "3"
    assert page.locator('[data-review="nights"]').inner_text() == "1"


@pytest.mark.parametrize("path", ["/review", "/players/김민지/review"])
def test_sharing_without_the_share_sheet_downloads_the_cards_png(phone, path):
    seed(phone)
    speak(phone, "ko")
    phone.page.add_init_script(NO_SHARE)
    page = phone.open(path)
    assert page.evaluate("typeof navigator.share") == "undefined"
    with page.expect_download() as waiting:
        page.locator("[data-share-card]").click()
    download = waiting.value
    year = datetime.now(UTC).year
    who = "group" if path == "/review" else "player"
    assert download.suggested_filename == f"refapp-review-{who}-{year}.png"
    with open(download.path(), "rb") as png:
        data = png.read()
    assert data[:8] == PNG
    assert data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == CARD
    with Image.open(io.BytesIO(data)) as picture:
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 1, "the card is blank"
    # the status line says where the picture went
    assert page.locator("[data-card-status]").inner_text().strip() != ""
    phone.check()
