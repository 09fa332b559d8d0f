"""The result card in Chromium at 390x844: one tap on "Share as a picture" hands a PNG to the
phone's share sheet (the Web Share API with files), or downloads it where the browser cannot
share files; the PNG's bytes are decoded (its signature, its size from IHDR, more than one
colour). "Copy as text" copies the card's plain text. No sideways scroll, 44 px targets, light
and dark, Korean and Hungarian names."""

from __future__ import annotations

import io
import json
import struct
import zlib

import pytest
from PIL import Image

from . import browser_support
from .browser_support import Phone
from .test_stats import MIGHTY_HANDS

chromium, live = browser_support.chromium, browser_support.live
pytestmark = pytest.mark.layout

#: the picture card.js draws: a portrait card every chat previews whole
WIDTH, HEIGHT = 1080, 1350
PLAYERS = ["민준", "Ben", "서연", "Dee", "Ödön"]
#: the browser cannot share files: what a desktop browser without Web Share is
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
#: a phone whose share sheet takes files: it keeps what it was handed
SHARE_SHEET = """
Object.defineProperty(navigator, "canShare", { configurable: true,
  value: (data) => Boolean(data && data.files && data.files.length) });
Object.defineProperty(navigator, "share", { configurable: true, value: (data) => {
  const file = data.files[0];
  return file.arrayBuffer().then((bytes) => {
    window.__shared = { name: file.name, type: file.type, title: data.title,
                        bytes: Array.from(new Uint8Array(bytes)) };
  });
} });
"""


def played_night(phone: Phone) -> int:
    """Play five Mighty hands with Korean and Hungarian names, finish, and return the id."""
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": PLAYERS})["id"]
    hands = [
        {"contract": {"boss": "Ödön", "bid": 16, "trump": "NT"},
         "friend": {"card": "DA", "player": "민준"}, "opposition_points": 0},
        {"contract": {"boss": "서연", "bid": 15, "trump": "H"},
         "friend": {"card": "JK", "player": "Dee"}, "opposition_points": 3},
        MIGHTY_HANDS[2], MIGHTY_HANDS[3],
        {"contract": {"boss": "Ben", "bid": 14, "trump": "S"},
         "friend": {"card": "SA", "player": "Ben"}, "opposition_points": 14},
    ]  # fmt: skip
    for hand in hands:
        phone.api("POST", f"/api/sessions/{sid}/rounds", hand)
    phone.api("POST", f"/api/sessions/{sid}/finish")
    return sid


def png_facts(data: bytes) -> tuple[int, int, int]:
    """Return a PNG's width and height read from its IHDR, and how many colours it holds."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG starts with its signature"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR"), "the first chunk is IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert zlib.crc32(data[12:29]) == struct.unpack(">I", data[29:33])[0], "IHDR's CRC holds"
    picture = Image.open(io.BytesIO(data))
    picture.load()
    colours = picture.convert("RGB").getcolors(maxcolors=1 << 24) or []
    return width, height, len(colours)


def card_data(phone: Phone) -> dict:
    """Return the card data the page embeds."""
    return json.loads(phone.page.locator("#card-data").text_content())


def test_share_without_web_share_downloads_the_png(chromium, live):
    phone = Phone(chromium, live[0])
    phone.page.add_init_script(NO_SHARE)
    sid = played_night(phone)
    phone.open(f"/sessions/{sid}/card")
    data = card_data(phone)
    first = data["rows"][0]
    assert (first["place"], first["name"], first["winner"]) == ("1", "Ödön", True)
    with phone.page.expect_download() as downloading:
        phone.page.locator("[data-share-card]").click()
    download = downloading.value
    assert download.suggested_filename == data["file"]
    assert download.suggested_filename.startswith(f"refapp-mighty-{sid}-")
    with open(download.path(), "rb") as saved:
        width, height, colours = png_facts(saved.read())
    assert (width, height) == (WIDTH, HEIGHT)
    assert colours > 10, "the picture is drawn, not blank"
    status = phone.page.locator("[data-card-status]")
    assert "The picture is saved" in status.inner_text()
    phone.check("after the download")
    phone.page.close()


def test_share_hands_the_png_to_the_share_sheet(chromium, live):
    phone = Phone(chromium, live[0])
    phone.page.add_init_script(SHARE_SHEET)
    sid = played_night(phone)
    phone.open(f"/sessions/{sid}/card")
    data = card_data(phone)
    phone.page.locator("[data-share-card]").click()
    shared = None
    for _step in range(100):
        shared = phone.page.evaluate("window.__shared || null")
        if shared:
            break
        phone.page.wait_for_timeout(50)
    assert shared, "the share sheet was handed nothing"
    assert (shared["name"], shared["type"], shared["title"]) == (
        data["file"],
        "image/png",
        data["title"],
    )
    width, height, colours = png_facts(bytes(shared["bytes"]))
    assert (width, height) == (WIDTH, HEIGHT) and colours > 10
    phone.check("after sharing")
    phone.page.close()


def test_copy_as_text_copies_the_cards_text(chromium, live):
    phone = Phone(chromium, live[0])
    phone.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sid = played_night(phone)
    phone.open(f"/sessions/{sid}/card")
    data = card_data(phone)
    phone.page.locator("[data-copy-card-text]").click()
    phone.page.locator("[data-card-status]", has_text="Copied").wait_for()
    assert phone.page.evaluate("navigator.clipboard.readText()") == data["text"]
    assert "1. Ödön " in data["text"] and "🏆" in data["text"] and "민준" in data["text"]
    phone.page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_the_card_page_fits_a_phone_with_44px_targets(chromium, live, scheme, language):
    phone = Phone(chromium, live[0])
    phone.page.emulate_media(color_scheme=scheme)
    sid = played_night(phone)
    phone.page.context.add_cookies([{"name": "lang", "value": language, "url": live[0]}])
    page = phone.open(f"/sessions/{sid}/card")
    for selector in ("[data-share-card]", "[data-copy-card-text]", ".result-text summary",
                     ".result-share a.go", ".result-row"):  # fmt: skip
        for box in [node.bounding_box() for node in page.locator(selector).all()]:
            assert box and box["height"] >= 44 and box["width"] >= 44, (selector, box)
    assert page.locator(".result-row.winner").count() == 1
    assert page.locator(".result-facts li").count() >= 3
    phone.check(f"the card in {language}, {scheme}")
    phone.page.close()
