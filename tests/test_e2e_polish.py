"""Polish in a real browser at phone size, light and dark: tap targets of at least 44 px, a small
chart legend, and no console errors, on session pages with one recorded round."""

from __future__ import annotations

import pytest

from . import browser_support
from .conftest import MIGHTY_HAND, SEED_TURN

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live, phone = browser_support.chromium, browser_support.live, browser_support.phone

#: what a round's page offers to tap, whatever the game
TAPPABLE = [
    "header.bar a",
    "nav.languages a",
    "nav.languages strong",
    "#history .actions a",
    "#history .actions button",
    "#history details > summary",
    ".session-links a",
    "#record .buttons button",
]


def small_targets(page, selectors) -> list[str]:
    """Return the visible elements under 44 px high (or wide), described for the failure."""
    found = []
    for selector in selectors:
        elements = page.locator(selector)
        assert elements.count(), f"nothing matches {selector}"
        for index in range(elements.count()):
            box = elements.nth(index).bounding_box()
            assert box, f"{selector} #{index} is not shown"
            if box["height"] < 44 or box["width"] < 44:
                found.append(f"{selector} #{index}: {box['width']:.0f}x{box['height']:.0f}")
    return found


def background_luminance(page) -> float:
    """Return the relative luminance (0 to 1, roughly) of the page's background."""
    return page.evaluate(
        """() => {
            const [r, g, b] = getComputedStyle(document.body).backgroundColor
                .match(/\\d+/g).map(Number);
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        }"""
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dixit_round_page_has_44_px_targets_and_a_small_legend(phone, scheme):
    players = ["Ann", "Ben", "Cy", "Dee"]
    sid = phone.api("POST", "/api/sessions", {"game": "dixit", "players": players})["id"]
    phone.api("POST", f"/api/sessions/{sid}/rounds", SEED_TURN)
    phone.page.emulate_media(color_scheme=scheme)
    page = phone.open(f"/sessions/{sid}")
    dark = background_luminance(page) < 0.2
    assert dark == (scheme == "dark")

    assert small_targets(page, TAPPABLE) == []
    swatches = page.locator(".legend .swatch")
    assert swatches.count() == len(players)
    for index in range(swatches.count()):
        box = swatches.nth(index).bounding_box()
        assert box and 0 < box["width"] < 40 and 0 < box["height"] < 16, box
    phone.check()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_mighty_joker_and_mighty_picks_are_44_px(phone, scheme):
    players = ["Ann", "Ben", "Cy", "Dee", "Eve"]
    sid = phone.api("POST", "/api/sessions", {"game": "mighty", "players": players})["id"]
    phone.api("POST", f"/api/sessions/{sid}/rounds", MIGHTY_HAND)
    phone.page.emulate_media(color_scheme=scheme)
    page = phone.open(f"/sessions/{sid}")
    page.locator("input[data-mighty-friend-kind][value=card]").check()
    picks = page.locator(".mighty-chips button")
    assert picks.all_inner_texts() == ["Joker JK", "Mighty ♠A", "Joker call ♣3"]
    assert small_targets(page, [*TAPPABLE, ".mighty-chips button"]) == []
    assert page.locator(".legend .swatch").first.bounding_box()["height"] < 16
    phone.check()
