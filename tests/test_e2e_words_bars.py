"""Every bar of buttons holds one row on a phone, in English, Korean and Hungarian, none clipped.

At 390 px a longer word (Hungarian "4. forduló rögzítése") must not push the sticky record
bar into two rows, nor clip a button's text (the no-trump bids "13 NT") or a select's chosen
option (Dalmuti's "Which revolution?"). The pages are measured as a phone shows them, with
every bar of buttons revealed (the card pad's questions too), not with the wording: a
longer translation that no longer fits fails here whatever it says.
"""

from __future__ import annotations

import pytest

from .browser_support import PHONE, chromium, live, phone  # noqa: F401  (fixtures)
from .conftest import MIGHTY_HAND, SEED_TURN, turn

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

#: the rows of buttons a page lays out, by their classes
BARS = ".buttons, .record-bar, .pad-choices, .pad-tools, .trick-actions, .actions"
#: what may not clip its words: buttons, button links, chips, bids, a round form's selects (the
#: new session's rule selects hold long descriptions of a rule: only their hint wraps)
CONTROLS = "button, .button, .mighty-bid, .mighty-chip, #round-form select"
#: each bar as rows of tops, and each control whose words do not fit (text wider than its box)
MEASURE = """([bars, controls]) => {
  for (const node of document.querySelectorAll("[hidden]")) {
    if (node.closest(".pad-body, .pad-ask, [data-tap-pad], [data-mighty-pad]")
        && !node.matches("button, .button")) node.hidden = false;
  }
  for (const node of document.querySelectorAll("details")) node.open = true;
  const shown = (node) => node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== "hidden";
  const name = (node) => `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`
    + ` "${(node.innerText || node.value || "").trim().slice(0, 40)}"`;
  const rows = [];
  for (const bar of document.querySelectorAll(bars)) {
    const items = [...bar.children].filter((node) => shown(node)
      && node.matches("button, .button, a, select, form, input"));
    const tops = new Set(items.map((node) => Math.round(node.getBoundingClientRect().top)));
    if (items.length > 1 && tops.size > 1)
      rows.push(`${name(bar)} has ${tops.size} rows: ${items.map(name).join(" | ")}`);
  }
  const canvas = document.createElement("canvas").getContext("2d");
  const clipped = [];
  for (const node of document.querySelectorAll(controls)) {
    if (!shown(node) || node.closest("[aria-hidden=true]")) continue;
    if (node.tagName === "SELECT") {
      const style = getComputedStyle(node);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const option = node.options[node.selectedIndex];
      const room = node.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight) - 20;  // the arrow
      const text = option ? option.text : "";
      if (canvas.measureText(text).width > room) clipped.push(`${name(node)} "${text}"`);
    } else if (node.scrollWidth > node.clientWidth + 1) {  // +1: whole pixels, both rounded
      clipped.push(`${name(node)} ${node.scrollWidth} > ${node.clientWidth}`);
    }
  }
  return {rows, clipped, width: document.documentElement.scrollWidth};
}"""
LANGUAGES = ("en", "ko", "hu")
DALMUTI = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
MIGHTY = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DIXIT = ["Ann", "Ben", "Cy", "Dee"]


def measure(device, path: str) -> list[str]:
    """Open a page and return what does not fit: bars in two rows, clipped words."""
    device.open(path)
    found = device.page.evaluate(MEASURE, [BARS, CONTROLS])
    wide = [f"the page is {found['width']} px wide"] if found["width"] > PHONE["width"] else []
    return [f"{path}: {line}" for line in found["rows"] + found["clipped"] + wide]


def sessions(device) -> dict[str, int]:
    """Start a session of each game with rounds recorded; return their ids.

    Dixit has ten turns: its record bar says "Record round 11", the longest number a table
    usually reaches.
    """
    ids = {}
    for game, players, body in (
        ("dixit", DIXIT, SEED_TURN),
        ("mighty", MIGHTY, MIGHTY_HAND),
        ("dalmuti", DALMUTI, {"tribute": {"paid": True}, "finish_order": DALMUTI}),
    ):
        sid = device.api("POST", "/api/sessions", {"game": game, "players": players})["id"]
        device.api("POST", f"/api/sessions/{sid}/rounds", body)
        ids[game] = sid
    for number in range(1, 10):
        later = turn(DIXIT[number % len(DIXIT)])
        device.api("POST", f"/api/sessions/{ids['dixit']}/rounds", later)
    return ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bar_is_one_row_and_no_word_is_clipped(phone, language):  # noqa: F811
    ids = sessions(phone)
    phone.page.context.add_cookies([{"name": "lang", "value": language, "url": phone.base}])
    paths = ["/", "/players", "/rule-sets", "/trick"]
    for game, sid in ids.items():
        paths += [
            f"/sessions/{sid}",
            f"/sessions/{sid}/rounds/1/edit",
            f"/sessions/{sid}/changes",
            f"/sessions/{sid}/print",
            f"/sessions/new?game={game}",
        ]
    paths += [f"/sessions/{ids['mighty']}/trick", f"/sessions/{ids['dalmuti']}/check-play"]
    problems = [line for path in paths for line in measure(phone, path)]
    assert not problems, "\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_measured_have_the_bars_and_controls(phone, language):  # noqa: F811
    """The measure sees what it judges: the record bar, the bids, the revolution select."""
    ids = sessions(phone)
    phone.page.context.add_cookies([{"name": "lang", "value": language, "url": phone.base}])
    phone.open(f"/sessions/{ids['mighty']}")
    page = phone.page
    assert page.locator(".record-bar button").count() == 2
    assert page.locator(".mighty-bid.mighty-suit-NT").count() >= 8
    phone.open(f"/sessions/{ids['dalmuti']}")
    assert page.locator("select[data-revolution-kind] option").count() == 2
    phone.open(f"/sessions/{ids['dixit']}")
    assert "11" in page.locator(".record-bar button[value=record]").inner_text()
