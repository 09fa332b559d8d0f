"""No select option or button cuts its words on a phone, in English, Korean and Hungarian.

At 390 px a select shows only as much of its chosen option as its box holds: a house rule's
choice written as a whole sentence ("the boss may not lead trump; the others ...") is cut off
mid-word. A table that scrolls inside its own box hides its last column just the same.
Every page kind is opened with every folded part unfolded (the new session's house
rules too) and each option of every select is measured, not only the chosen one, since a player
may pick any of them; the Mighty tables of six and seven show their own seat options. A page
wider than the phone (a table running off the screen) fails as well.
"""

from __future__ import annotations

import pytest

from .browser_support import PHONE, chromium, live, phone  # noqa: F401  (fixtures)
from .conftest import MIGHTY_HAND, SEED_TURN

#: measures the page on the phone, whatever the database
pytestmark = pytest.mark.layout

#: the room a select's drop-down arrow takes inside its content box (px): Chromium draws it
#: about 20 px wide at the pages' font size
ARROW = 20
#: a scroll width may exceed the client width by rounding alone (both are whole pixels)
ROUNDING = 1
#: each select option or button whose words are cut, each box hiding some of its content
#: sideways (a phone scrolls inside it), and the outermost elements ending past the phone's edge
MEASURE = """([arrow, rounding]) => {
  for (const node of document.querySelectorAll("details")) node.open = true;
  for (const node of document.querySelectorAll(".rule[data-seats], .preset-choice[data-seats], "
    + ".rule-group")) node.style.display = "";
  const shown = (node) => node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== "hidden" && !node.closest("[aria-hidden=true]");
  const name = (node) => `${node.tagName.toLowerCase()}`
    + `${node.id ? "#" + node.id : ""}${node.name ? "[name=" + node.name + "]" : ""}`;
  const canvas = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const node of document.querySelectorAll("select")) {
    if (!shown(node)) continue;
    const style = getComputedStyle(node);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = node.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - arrow;
    for (const option of node.options) {
      const wide = canvas.measureText(option.text).width;
      if (wide > room)
        cut.push(`${name(node)} option "${option.text}" (${Math.round(wide)} > ${room} px)`);
    }
  }
  for (const node of document.querySelectorAll("button, .button")) {
    if (shown(node) && node.scrollWidth > node.clientWidth + rounding)
      cut.push(`${name(node)} "${node.innerText.trim()}" (${node.scrollWidth} > `
        + `${node.clientWidth} px)`);
  }
  const edge = document.documentElement.clientWidth;
  const wide = [];
  for (const node of document.querySelectorAll("main *")) {
    if (!shown(node)) continue;
    const sideways = ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
    if (sideways && node.scrollWidth > node.clientWidth + rounding)
      cut.push(`${name(node)}.${node.className} hides ${node.scrollWidth - node.clientWidth} px `
        + "sideways: a phone scrolls inside it");
    const right = node.getBoundingClientRect().right;
    const parent = node.parentElement.getBoundingClientRect().right;
    if (right > edge + rounding && parent <= edge + rounding)  // the outermost one only
      wide.push(`${name(node)}${node.className ? "." + node.className : ""} "`
        + `${(node.innerText || "").trim().slice(0, 30)}" ends at ${Math.round(right)} px`);
  }
  return {cut, wide: wide.slice(0, 5), width: document.documentElement.scrollWidth};
}"""
LANGUAGES = ("en", "ko", "hu")
DALMUTI = ["Ann", "Ben", "Cy", "Dee", "Eve"]
MIGHTY = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DIXIT = ["Ann", "Ben", "Cy", "Dee"]
#: Dalmuti's first hand: the tribute paid, the finishing order as seated
DALMUTI_HAND = {"tribute": {"paid": True}, "finish_order": DALMUTI}


def measure(device, path: str) -> list[str]:
    """Open a page and return what is cut or sticks out on the phone."""
    response = device.page.goto(device.base + path)
    assert response.status == 200, path
    found = device.page.evaluate(MEASURE, [ARROW, ROUNDING])
    wide = []
    if found["width"] > PHONE["width"]:
        wide = [f"the page is {found['width']} px wide: {'; '.join(found['wide'])}"]
    return [f"{path}: {line}" for line in found["cut"] + wide]


def page_paths(device) -> list[str]:
    """Start a session of each game with a round recorded; return every page kind to measure."""
    paths = ["/", "/players", "/players/Ann", "/rule-sets", "/signin", "/trick"]
    for game, players, body in (
        ("dixit", DIXIT, SEED_TURN),
        ("mighty", MIGHTY, MIGHTY_HAND),
        ("dalmuti", DALMUTI, DALMUTI_HAND),
    ):
        sid = device.api("POST", "/api/sessions", {"game": game, "players": players})["id"]
        device.api("POST", f"/api/sessions/{sid}/rounds", body)
        paths += [
            f"/sessions/new?game={game}",
            f"/sessions/{sid}",
            f"/sessions/{sid}/rounds/1/edit",
            f"/sessions/{sid}/how-we-score",
            f"/sessions/{sid}/changes",
            f"/sessions/{sid}/print",
        ]
        if game == "mighty":
            paths.append(f"/sessions/{sid}/trick")
        if game == "dalmuti":
            paths.append(f"/sessions/{sid}/check-play")
    for seats in (6, 7):  # the six and seven seat rules show on these sessions' pages
        players = [*MIGHTY, "Fay", "Gus"][:seats]
        sid = device.api("POST", "/api/sessions", {"game": "mighty", "players": players})["id"]
        paths += [f"/sessions/{sid}", f"/sessions/{sid}/how-we-score"]
    return paths


def cut_words(device, language: str) -> list[str]:
    """Return every cut word and overflow over every page kind, in that language."""
    paths = page_paths(device)
    device.page.context.add_cookies([{"name": "lang", "value": language, "url": device.base}])
    return [line for path in paths for line in measure(device, path)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_select_or_button_cuts_its_words_on_a_phone(phone, language):  # noqa: F811
    problems = cut_words(phone, language)
    assert not problems, "\n" + "\n".join(problems)


def test_the_measure_sees_a_cut_option(phone):  # noqa: F811
    """A select narrowed below its words is reported: the measure can fail."""
    phone.open("/sessions/new?game=mighty")
    phone.page.evaluate("document.querySelectorAll('select').forEach(s => s.style.width = '8rem')")
    found = phone.page.evaluate(MEASURE, [ARROW, ROUNDING])
    assert any("rule_misdeal" in line for line in found["cut"]), found["cut"]
