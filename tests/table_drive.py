"""How the table report drives a phone: counted taps, and the evening's page to count them on.

A tap counts 1; a key pressed counts as a character typed; a control that is not wholly on the
screen (or lies under the record bar) when it is to be tapped counts as a scroll, a search for it.
The estimate of seconds is the table's model: 1.2 s a tap, 0.4 s a character, 2 s a control
searched off-screen, 3 s a refusal read.

Each kind of round is counted on the page a table has in front of it: ``open_session`` records
the round before the measured one through the page, by taps (not counted), presses Record and
waits for the answer, so the banner of the round just recorded stands above the form. The taps
that enter a stored round's input are each game's ``ENTER[game](phone, input)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .browser_support import KEYS, VIEW

#: the model's seconds for each thing a player does
SECONDS = {"tap": 1.2, "typed": 0.4, "scroll": 2.0, "refusal": 3.0}
#: is the control wholly on screen, and the topmost thing at its centre (not under the bar)?
ON_SCREEN = """node => {
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) return false;
  if (box.left < 0 || box.right > innerWidth) return false;
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return Boolean(top && (node === top || node.contains(top) || top.contains(node)));
}"""
#: asks the composer for the part that holds a control (the warm-up only: a player taps a chip)
SHOW_PART = """node => {
  const part = node.closest("[data-part]");
  if (part) node.dispatchEvent(new CustomEvent("refapp:show-part",
    { bubbles: true, detail: { part: part.dataset.part } }));
}"""
#: counts the keys pressed from now on (the page may have loaded before the count began)
KEYS_NOW = """() => {
  if (window.__keys === undefined) addEventListener("keydown", () => { window.__keys += 1; }, true);
  window.__keys = 0;
}"""
RECORD = "#round-form button[value=record]"

MIGHTY = ["Minsu", "Jiwoo", "Seoyeon", "Hyunwoo", "Eunji"]
MIGHTY_SIX = [*MIGHTY, "Jihun"]
MIGHTY_SEVEN = [*MIGHTY_SIX, "Yuna"]
DIXIT = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DALMUTI = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
#: the Mighty hand recorded before a measured one (a 6마 and 7마 one carries its kills too)
MIGHTY_FIRST = {
    "dealer": "Minsu",
    "contract": {"boss": "Jiwoo", "bid": 14, "trump": "H"},
    "friend": {"card": "JK", "player": "Eunji"},
    "opposition_points": 5,
}


@dataclass
class Count:
    """What one round cost at the table: taps, characters typed, searches, refusals."""

    kind: str
    taps: int = 0
    typed: int = 0
    scrolls: int = 0
    refusals: int = 0
    off_screen: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """Return the model's estimate of the time the round took."""
        return round(
            self.taps * SECONDS["tap"]
            + self.typed * SECONDS["typed"]
            + self.scrolls * SECONDS["scroll"]
            + self.refusals * SECONDS["refusal"],
            1,
        )

    def line(self) -> str:
        """Return the report's line for this kind of round."""
        return (
            f"{self.kind}: taps={self.taps} typed={self.typed} scrolls={self.scrolls} "
            f"seconds={self.seconds}"
        )


class Table:
    """A phone at the table whose taps are counted (a Phone from tests/browser_support.py)."""

    def __init__(self, phone: Any, kind: str) -> None:
        self.phone = phone
        self.page = phone.page
        self.count = Count(kind)
        self.page.add_init_script(KEYS)  # the pages it loads from now on
        self.page.evaluate(KEYS_NOW)  # the page in front of it

    def tap(self, selector: str) -> None:
        """Tap a control; one that is off screen or covered first costs a search."""
        control = self.page.locator(selector).first
        control.wait_for(state="visible")
        if not control.evaluate(ON_SCREEN):
            self.count.scrolls += 1
            self.count.off_screen.append(selector)
        control.click()
        self.count.taps += 1

    def send(self, selector: str, status: int = 200) -> None:
        """Tap a button that sends the form and wait for the answer."""
        control = self.page.locator(selector).first
        if not control.evaluate(ON_SCREEN):
            self.count.scrolls += 1
            self.count.off_screen.append(selector)
        self.phone.tap(control, status=status)
        self.count.taps += 1

    def done(self) -> Count:
        """Return the counts, with the keys the page saw as characters typed."""
        self.count.typed = int(self.page.evaluate("window.__keys || 0"))
        return self.count


def reach(page: Any, selector: str) -> None:
    """Tap a control, not counted (the warm-up): its part is asked for when it is not shown."""
    control = page.locator(selector).first
    if not control.is_visible():
        control.evaluate(SHOW_PART)
    control.click()


def chip(field_name: str, value: str) -> str:
    """Return a Mighty name or count chip over a select."""
    return f".mighty-names[data-for='{field_name}'] button[data-value='{value}']"


def mighty_card(scope: str, card: str, mighty: str = "") -> list[str]:
    """Return the card picker's taps for a card: the joker (and the mighty, when it is given)
    by its own chip, else its suit and rank."""
    picker = f"{scope} [data-mighty-picker]"
    if card == "JK":
        return [f"{picker} [data-pick='joker']"]
    if card == mighty:
        return [f"{picker} [data-pick='mighty']"]
    rank = "10" if card[1:] == "T" else card[1:]
    return [f"{picker} [data-suit='{card[0]}']", f"{picker} [data-rank='{rank}']"]


def mighty_taps(played: dict) -> list[str]:
    """Return the taps that enter a played Mighty hand: contract, kills (the mighty named by its
    chip), friend (a card by suit and rank), points."""
    contract = played["contract"]
    taps = [
        chip("boss", contract["boss"]),
        chip("contract_bid", str(contract["bid"])),
        f"#contract label.mighty-chip:has(input[value='{contract['trump']}'])",
    ]
    mighty = "DA" if contract["trump"] == "S" else "SA"
    kills = played.get("kill") or []
    for index, kill in enumerate([kills] if isinstance(kills, dict) else kills):
        part = "kill" if index == 0 else f"kill{index + 1}"
        taps += mighty_card(f"#{part}", kill["card"], mighty)
        taps.append(chip(f"{part}_player", kill["player"]))
    friend = played["friend"]
    if friend.get("card"):
        taps += mighty_card("#friend", friend["card"])
    else:
        kind = "none" if friend.get("none") or not friend.get("player") else "first_trick"
        taps.append(f"#friend label.mighty-chip:has(input[value='{kind}'])")
    if friend.get("player"):
        taps.append(chip("friend_player", friend["player"]))
    taps.append(f"[data-mighty-points] button[data-points='{played['opposition_points']}']")
    return taps


def enter_mighty(phone: Any, played: dict) -> None:
    """Enter a played Mighty hand by taps: its dealer when the form's is another, the rest."""
    page = phone.page
    dealer = played.get("dealer")
    if dealer and page.locator("#round-form select[name=dealer]").input_value() != dealer:
        reach(page, chip("dealer", dealer))
    for selector in mighty_taps(played):
        reach(page, selector)


def enter_dixit(phone: Any, played: dict) -> None:
    """Enter a Dixit turn by taps: its storyteller when the form's is another, who laid each
    card (the last fills itself), each voter's card or cards."""
    page = phone.page
    teller = played["storyteller"]
    if page.locator("#round-form select[name=storyteller]").input_value() != teller:
        reach(page, f".dx-tellers button[data-teller='{teller}']")
    for name in played["positions"][:-1]:
        reach(page, f".dx-names button[data-name='{name}']")
    for voter, cards in played["votes"].items():
        for card in cards if isinstance(cards, list) else [cards]:
            reach(page, f".vote-row[data-voter='{voter}'] button[data-vote='{card}']")


def enter_dalmuti(phone: Any, played: dict) -> None:
    """Enter a Dalmuti hand by taps: the tax paid as due (when it is asked), who went out (the
    last fills itself)."""
    page = phone.page
    assert not played.get("revolution"), "the warm-up enters a hand without a revolution"
    paid = page.locator("label.dal-paid")
    if (played.get("tribute") or {}).get("paid") and paid.count():
        reach(page, "label.dal-paid")
    for name in played["finish_order"][:-1]:
        reach(page, f".dal-tap button[data-name='{name}']")


#: how each game's round input is entered by taps (the warm-up's round)
ENTER: dict[str, Callable[[Any, dict], None]] = {
    "mighty": enter_mighty,
    "dixit": enter_dixit,
    "dalmuti": enter_dalmuti,
}


def open_session(
    phone: Any,
    game: str,
    players: list[str],
    rounds: Sequence[dict],
    lang: str,
    rules: dict | None = None,
    warm_up: Callable[[Any], None] | None = None,
) -> int:
    """Start a session and leave its page as a table has it after recording a round.

    The session starts through the API (with ``rules``) and every round but the last is
    recorded there; the page opens in ``lang`` with the composer; the last round is entered
    through the page by taps, not counted (``warm_up(phone)`` when given, else the game's
    ``ENTER[game]`` with that round's input), Record is pressed and the answer swapped in: the
    banner of the round just recorded stands above the next round's form. No round, no warm-up:
    a new session's first round. Return the session's id.
    """
    page = phone.page
    page.add_init_script(VIEW % "steps")
    page.add_init_script(KEYS)
    body = {"game": game, "players": players, "rules": rules or {}}
    sid = phone.api("POST", "/api/sessions", body)["id"]
    for played in rounds[:-1]:
        phone.api("POST", f"/api/sessions/{sid}/rounds", played)
    page.goto(f"{phone.base}/language/{lang}?next=/sessions/{sid}")
    phone.open(f"/sessions/{sid}")
    if rounds or warm_up:
        if warm_up is not None:
            warm_up(phone)
        else:
            ENTER[game](phone, rounds[-1])
        phone.tap(RECORD)
        page.locator("#just").wait_for()
        stored = phone.session(sid)["rounds"]
        assert len(stored) == len(rounds) or warm_up, f"the warm-up was not recorded: {stored}"
    return sid
