"""Join in one scan, at 390x844 in Chromium: the session page ends with a 44 px "Join from
another phone" control; one tap shows a QR code that decodes (zxing-cpp, from a screenshot) to
the session's address other phones open, inside the screen's width, with no sideways scroll."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image

from refapp.web import join

from . import browser_support
from .browser_support import FLAGS, PHONE, Phone

chromium, live = browser_support.chromium, browser_support.live

LAN = "192.168.1.23"
#: a name for this computer as a phone on the LAN would know it (Chromium resolves it here)
NAME = "tablepc.lan"
#: an element's box in page coordinates (getBoundingClientRect plus the scroll)
RECT = """node => { const r = node.getBoundingClientRect();
  return [r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY]; }"""


def decoded(phone: Phone) -> str:
    """Screenshot the page's QR code and return what a decoder reads in it."""
    shot = phone.page.locator("#join .join-code svg").screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)))
    assert [code.format.name for code in found] == ["QRCode"]
    return found[0].text


def open_join(phone: Phone) -> tuple[list[float], list[float]]:
    """Tap the join control once; return its box before the tap and the code's box after."""
    summary = phone.page.locator("#join summary")
    control = summary.evaluate(RECT)
    assert not phone.page.locator("#join .join-code").is_visible()  # closed: one line only
    summary.click()
    code = phone.page.locator("#join .join-code svg")
    code.wait_for(state="visible")
    phone.check("with the join code open")
    return control, code.evaluate(RECT)


@pytest.fixture
def on_the_network(live, monkeypatch):
    """The live server as ``make run HOST=0.0.0.0`` serves it, on a computer at LAN."""
    _base, app = live
    monkeypatch.setitem(app.config, "SERVED_HOST", "0.0.0.0")
    monkeypatch.setattr(join, "lan_address", lambda: LAN)
    return live


def test_one_tap_shows_a_code_of_the_lan_address(chromium, on_the_network):
    base, _app = on_the_network
    phone = Phone(chromium, base)
    sid = phone.api("POST", "/api/sessions", {"game": "dixit", "players": ["Ann", "Ben", "Cy"]})[
        "id"
    ]
    phone.open(f"/sessions/{sid}")
    page_end = phone.page.evaluate("document.documentElement.scrollHeight")
    record = phone.page.locator("#record").evaluate(RECT)
    _left, top, _right, bottom = phone.page.locator("#join").evaluate(RECT)
    # the page's last part, below the round's form: it never stands in a round's way
    assert top >= record[3]
    assert page_end - bottom < 60
    control, code = open_join(phone)
    assert control[3] - control[1] >= 44, f"the control is {control[3] - control[1]} px high"
    assert control[2] - control[0] >= 44
    assert code[0] >= 0 and code[2] <= PHONE["width"], code
    assert code[2] - code[0] >= 150, "a code a camera reads from across the table"
    port = base.rsplit(":", 1)[1]
    expected = f"http://{LAN}:{port}/sessions/{sid}"
    assert decoded(phone) == expected
    phone.page.emulate_media(color_scheme="dark")  # dark on its own light square still
    assert decoded(phone) == expected
    assert phone.page.locator("#join .join-address").inner_text() == expected
    assert phone.errors == []


def test_a_phone_that_came_by_the_computers_name_gets_that_name(chromium, live):
    base, _app = live
    port = base.rsplit(":", 1)[1]
    players = {"game": "dixit", "players": ["Ann", "Ben", "Cy"]}
    sid = Phone(chromium, base).api("POST", "/api/sessions", players)["id"]
    browser = chromium.browser_type.launch(
        executable_path=browser_support.CHROMIUM,
        args=[*FLAGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
    )
    try:
        phone = Phone(browser, f"http://{NAME}:{port}")
        phone.open(f"/sessions/{sid}")
        open_join(phone)
        assert decoded(phone) == f"http://{NAME}:{port}/sessions/{sid}"
    finally:
        browser.close()
