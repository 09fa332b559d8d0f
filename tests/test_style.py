"""The style sheets' colours: custom properties, light and dark, each text pair WCAG AA.

Every colour in style.css and the per-game sheets is a custom property defined in style.css's
:root (light) and again in its dark ``prefers-color-scheme`` query; the pairs a page draws text
in are checked for a contrast ratio of at least 4.5:1, and the chart's dark lines for 3:1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REFAPP = Path(__file__).parent.parent / "refapp"
#: the app's style sheet, then each game's (in its own static folder)
FOLDERS = {
    "style.css": REFAPP / "static",
    "dalmuti.css": REFAPP / "games" / "dalmuti" / "web" / "static",
    "mighty.css": REFAPP / "games" / "mighty" / "web" / "static",
    "trick.css": REFAPP / "games" / "mighty" / "web" / "static",
}
SHEETS = tuple(FOLDERS)

#: (text, background) custom properties a page draws text in
TEXT_PAIRS = [
    *(("text", bg) for bg in ("bg", "card-bg", "input-bg", "ok-bg", "note-bg", "chip-bg",
                              "chip-last-bg", "rule")),
    *(("muted", bg) for bg in ("bg", "card-bg", "chip-bg", "note-bg")),
    *(("link", bg) for bg in ("bg", "card-bg", "ok-bg")),
    ("bar-text", "bar-bg"),
    ("primary-text", "primary-bg"),
    ("primary-text", "warn-bg"),
    ("secondary-text", "secondary-bg"),
    *(("danger", bg) for bg in ("bg", "card-bg", "error-bg")),
    *(("success", bg) for bg in ("card-bg", "bg")),
    ("gold", "card-bg"),
    ("brown", "card-bg"),
    *(("suit-red", bg) for bg in ("card-bg", "note-bg", "input-bg")),
]  # fmt: skip


def css(name: str) -> str:
    """Return a style sheet without its comments."""
    return re.sub(r"/\*.*?\*/", "", (FOLDERS[name] / name).read_text(), flags=re.S)


def properties(block: str) -> dict[str, str]:
    """Return the custom properties declared in a block: {name without --: value}."""
    return {name: value.strip() for name, value in re.findall(r"--([\w-]+)\s*:\s*([^;]+);", block)}


def schemes() -> dict[str, dict[str, str]]:
    """Return the light (:root) and dark (the media query's :root) custom properties."""
    sheet = css("style.css")
    light = re.search(r"(?m)^:root\s*\{([^}]*)\}", sheet)
    dark = re.search(r"@media[^{]*prefers-color-scheme:\s*dark[^{]*\{\s*:root\s*\{([^}]*)\}", sheet)
    assert light and dark, "style.css defines :root and a dark :root"
    return {"light": properties(light.group(1)), "dark": properties(dark.group(1))}


def luminance(colour: str) -> float:
    """Return the WCAG relative luminance of #rgb or #rrggbb."""
    hex_digits = colour.lstrip("#")
    if len(hex_digits) == 3:
        hex_digits = "".join(digit * 2 for digit in hex_digits)
    assert re.fullmatch(r"[0-9a-fA-F]{6}", hex_digits), colour

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_digits[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """Return the WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_of_known_pairs():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("text", "background"), TEXT_PAIRS)
def test_text_meets_wcag_aa(scheme, text, background):
    colours = schemes()[scheme]
    ratio = contrast(colours[text], colours[background])
    assert ratio >= 4.5, f"{scheme}: --{text} on --{background} is {ratio:.2f}:1"


def test_light_chart_lines_stand_out_on_the_card():
    from refapp.web.chart import COLOURS

    card = schemes()["light"]["card-bg"]
    for colour in COLOURS:
        ratio = contrast(colour, card)
        assert ratio >= 3, f"{colour} on the light card is {ratio:.2f}:1"


def test_dark_chart_lines_stand_out_on_the_card():
    dark = schemes()["dark"]
    series = {name: value for name, value in dark.items() if name.startswith("series-")}
    assert len(series) == 12  # one per colour of refapp.web.chart.COLOURS
    for name, colour in series.items():
        ratio = contrast(colour, dark["card-bg"])
        assert ratio >= 3, f"--{name} on the dark card is {ratio:.2f}:1"
    sheet = css("style.css")
    for index in range(12):
        assert f".chart .series-{index} {{ stroke: var(--series-{index}); }}" in sheet


def test_both_schemes_define_the_same_colours():
    light, dark = schemes()["light"], schemes()["dark"]
    assert set(light) <= set(dark)
    used = {name for sheet in SHEETS for name in re.findall(r"var\(--([\w-]+)\)", css(sheet))}
    assert used <= set(light) | {name for name in dark if name.startswith("series-")}
    assert used - set(light) <= set(dark)


@pytest.mark.parametrize("sheet", SHEETS)
def test_colours_are_custom_properties(sheet):
    """A colour written as a literal outside the :root blocks would not follow dark mode."""
    text = css(sheet)
    text = re.sub(r":root\s*\{[^}]*\}", "", text)  # the definitions themselves
    text = re.sub(r"@media print\s*\{(?:[^{}]*\{[^}]*\})*[^{}]*\}", "", text)  # paper is white
    stray = re.findall(r"[^;{}]*(?:#[0-9a-fA-F]{3,6}\b|rgba?\()[^;{}]*", text)
    assert stray == [], f"{sheet}: colours not written as var(--...): {stray}"


def test_dark_mode_is_for_screens_only():
    """Printing from a phone in dark mode still gives a light page."""
    assert re.search(r"@media screen and \(prefers-color-scheme: dark\)", css("style.css"))
    assert "prefers-color-scheme" not in "".join(css(sheet) for sheet in SHEETS[1:])


def test_tap_targets_are_44_px():
    sheet = css("style.css")
    rule = re.search(r"([^{}]*)\{[^}]*min-height: 44px; min-width: 44px;[^}]*\}", sheet)
    assert rule, "a rule gives tap targets 44 px"
    selectors = {selector.strip() for selector in rule.group(1).split(",")}
    assert {".bar a", ".bar button.link", ".languages a", ".actions a", ".actions button.link"} <= (
        selectors
    )
    assert re.search(r"(?m)^summary \{[^}]*min-height: 44px", sheet)
    assert re.search(r"\.mighty-chips button \{[^}]*min-height: 44px", css("mighty.css"))
