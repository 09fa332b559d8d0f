"""Each kind of round a table enters, driven by taps in Chromium at 390x844, and counted.

A tap counts 1; a key pressed counts as a character typed; a control that is not wholly on the
screen (or lies under the record bar) when it is to be tapped counts as a scroll, a search for it.
The estimate of seconds is the table's model: 1.2 s a tap, 0.4 s a character, 2 s a control
searched off-screen, 3 s a refusal read. The browser tests hold these counts to their targets and
``python -m tests.table_report`` prints them.
"""

from __future__ import annotations

from collections.abc import Callable
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

MIGHTY = ["Minsu", "Jiwoo", "Seoyeon", "Hyunwoo", "Eunji"]
MIGHTY_SIX = [*MIGHTY, "Jihun"]
MIGHTY_SEVEN = [*MIGHTY_SIX, "Yuna"]
DIXIT = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DALMUTI = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


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
        self.page.add_init_script(KEYS)

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


def open_session(
    phone: Any,
    game: str,
    players: list[str],
    rounds: list[dict],
    lang: str,
    rules: dict | None = None,
) -> int:
    """Start a session through the API, record rounds, open its page in the language."""
    phone.page.add_init_script(VIEW % "steps")
    body = {"game": game, "players": players, "rules": rules or {}}
    sid = phone.api("POST", "/api/sessions", body)["id"]
    for body in rounds:
        phone.api("POST", f"/api/sessions/{sid}/rounds", body)
    phone.page.goto(f"{phone.base}/language/{lang}?next=/sessions/{sid}")
    phone.open(f"/sessions/{sid}")
    return sid


def chip(field_name: str, value: str) -> str:
    """Return a Mighty name or count chip over a select."""
    return f".mighty-names[data-for='{field_name}'] button[data-value='{value}']"


def mighty_plain(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter an ordinary Mighty hand after one recorded hand: contract, friend card, points."""
    first = {
        "dealer": "Minsu",
        "contract": {"boss": "Jiwoo", "bid": 14, "trump": "H"},
        "friend": {"card": "JK", "player": "Eunji"},
        "opposition_points": 5,
    }
    sid = open_session(phone, "mighty", MIGHTY, [first], lang)
    table = Table(phone, "mighty plain")
    for selector in (
        chip("boss", "Seoyeon"),
        chip("contract_bid", "15"),
        "#contract label.mighty-chip[data-short='♠']",
        "[data-mighty-picker] [data-suit='D']",
        "[data-mighty-picker] [data-rank='A']",
        chip("friend_player", "Minsu"),
        "[data-mighty-points] button[data-points='7']",
    ):
        table.tap(selector)
    table.send("#round-form button[value=record]")
    return table.done(), phone.session(sid)


#: the hand the seat scenarios record first (a 6마 and 7마 one carries its kills too)
MIGHTY_FIRST = {
    "dealer": "Minsu",
    "contract": {"boss": "Jiwoo", "bid": 14, "trump": "H"},
    "friend": {"card": "JK", "player": "Eunji"},
    "opposition_points": 5,
}


def mighty_hand(
    phone: Any, name: str, sid: int, kill_taps: tuple[str, ...], friend_rank: str = "A"
) -> tuple[Count, dict]:
    """Enter a Mighty hand at more seats: boss, count, trump, the kill's taps (if any), the
    friend card (♦ and a rank) and holder, the points; record."""
    table = Table(phone, name)
    for selector in (
        chip("boss", "Seoyeon"),
        chip("contract_bid", "15"),
        "#contract label.mighty-chip[data-short='♠']",
        *kill_taps,
        "#friend [data-mighty-picker] [data-suit='D']",
        f"#friend [data-mighty-picker] [data-rank='{friend_rank}']",
        chip("friend_player", "Minsu"),
        "[data-mighty-points] button[data-points='7']",
    ):
        table.tap(selector)
    table.send("#round-form button[value=record]")
    return table.done(), phone.session(sid)


def mighty_six_kill(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a 6마 hand after one recorded: the plain hand's taps, and the kill (the joker named,
    its holder by name) in two more."""
    first = {**MIGHTY_FIRST, "kill": {"card": "JK", "player": "Jihun"}}
    first["friend"] = {"card": "SA", "player": "Eunji"}
    sid = open_session(phone, "mighty", MIGHTY_SIX, [first], lang)
    kill = ("#kill [data-mighty-picker] [data-pick='joker']", chip("kill_player", "Hyunwoo"))
    return mighty_hand(phone, "mighty 6마", sid, kill)


def mighty_seven_kill(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a 7마 hand after one recorded: the plain hand's taps and two kills, two taps each
    (the mighty and the joker named, their holders by name), each kill a step of its own."""
    first = {**MIGHTY_FIRST, "friend": {"card": "HA", "player": "Eunji"}}
    first["kill"] = [{"card": "JK", "player": "Jihun"}, {"card": "SA", "player": "Yuna"}]
    sid = open_session(phone, "mighty", MIGHTY_SEVEN, [first], lang)
    kills = (
        "#kill [data-mighty-picker] [data-pick='joker']",
        chip("kill_player", "Hyunwoo"),
        "#kill2 [data-mighty-picker] [data-pick='mighty']",
        chip("kill2_player", "Yuna"),
    )
    return mighty_hand(phone, "mighty 7마", sid, kills, friend_rank="K")


def mighty_six_resting(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a hand of six where the dealer rests (dealer_sits_out): the plain hand's taps."""
    first = {**MIGHTY_FIRST, "contract": {"boss": "Jiwoo", "bid": 13, "trump": "H"}}
    rules = {"six_player_rule": "dealer_sits_out"}
    sid = open_session(phone, "mighty", MIGHTY_SIX, [first], lang, rules)
    return mighty_hand(phone, "mighty 6 resting", sid, ())


def dixit_five(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a Dixit turn of five players after one recorded turn: who laid what, the votes."""
    votes = {"Ben": 1, "Cy": 2, "Dee": 1, "Eve": 1}
    first = {"storyteller": "Ann", "positions": DIXIT, "votes": votes}
    sid = open_session(phone, "dixit", DIXIT, [first], lang)
    table = Table(phone, "dixit 5p")
    laid = ["Cy", "Ben", "Dee", "Eve"]  # the storyteller Ben's card is number 2; Ann's fills itself
    for name in laid:
        table.tap(f".dx-names button[data-name='{name}']")
    for voter, card in (("Ann", 2), ("Cy", 2), ("Dee", 1), ("Eve", 5)):
        table.tap(f".vote-row[data-voter='{voter}'] button[data-vote='{card}']")
    table.send("#round-form button[value=record]")
    return table.done(), phone.session(sid)


def dalmuti_six_tax(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a Dalmuti hand of six with the tax, paid as due, after one recorded hand."""
    first = {"tribute": {"paid": True}, "finish_order": DALMUTI}
    sid = open_session(phone, "dalmuti", DALMUTI, [first], lang)
    table = Table(phone, "dalmuti 6p-tax")
    table.tap("label.dal-paid")
    for name in ("Cy", "Ann", "Fay", "Ben", "Dee"):
        table.tap(f".dal-tap button[data-name='{name}']")
    table.send("#round-form button[value=record]")
    return table.done(), phone.session(sid)


def mighty_correction_two(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Correct hand 1's friend when that moves hand 2's dealer: both rounds, in place."""
    hands = []
    dealer = "Minsu"
    for friend in ("Seoyeon", "Jiwoo", "Hyunwoo"):
        hands.append(
            {
                "dealer": dealer,
                "contract": {"boss": "Minsu", "bid": 13, "trump": "H"},
                "friend": {"card": "JK", "player": friend},
                "opposition_points": 3,
            }
        )
        dealer = friend
    sid = open_session(phone, "mighty", MIGHTY, hands, lang)
    table = Table(phone, "mighty correction-2")
    fix = "#main .correction .mighty-names[data-for='fix-{}'] button[data-value='{}']"
    table.tap("#round-1 a[data-correct]")  # opens the correction in the history, in place
    phone.page.locator("#round-1 .correction form").wait_for()
    table.tap("#main .correction .composer-line button[data-goto='friend']")  # the line's friend
    table.tap(fix.format("friend_player", "Eunji"))  # Eunji held the joker: she deals hand 2
    table.send("#main .correction .record-bar button[value=record]", status=422)
    table.count.refusals += 1
    table.tap(fix.format("next-dealer", "Eunji"))
    table.send("#main .correction .record-bar button[value=record]")
    session = phone.session(sid)
    assert session["rounds"][0]["input"]["friend"]["player"] == "Eunji"
    assert session["rounds"][1]["input"]["dealer"] == "Eunji"
    return table.done(), session


def setup_returning(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Start a new session for a table that played before: its chip on the sessions page."""
    players = ["민수", "지우", "서연", "현우", "은지"]
    old = phone.api("POST", "/api/sessions", {"game": "mighty", "players": players})["id"]
    phone.page.goto(f"{phone.base}/language/{lang}?next=/")
    phone.open("/")
    table = Table(phone, "setup returning")
    table.tap(f".same-table a[href*='again={old}']")
    phone.page.wait_for_load_state()
    table.send("form button[type=submit]:not([formaction])")
    session = phone.session(phone.session_id())
    assert session["id"] != old and session["players"] == players
    return table.done(), session


#: every kind the report prints, and the driver of each
KINDS: dict[str, Callable[[Any, str], tuple[Count, dict]]] = {
    "mighty plain": mighty_plain,
    "mighty 6마": mighty_six_kill,
    "mighty 7마": mighty_seven_kill,
    "mighty 6 resting": mighty_six_resting,
    "dixit 5p": dixit_five,
    "dalmuti 6p-tax": dalmuti_six_tax,
    "mighty correction-2": mighty_correction_two,
    "setup returning": setup_returning,
}
