"""Each kind of round a table enters, driven by taps in Chromium at 390x844, and counted.

Every kind is entered on the page a table has after recording the round before it (the banner
shown): ``open_session`` (tests/table_drive.py) records that round through the page by taps it
does not count. Each driver returns (Count, session) and checks the round it stored. The browser
tests hold every kind to its ``TARGETS`` (taps, scrolls, model seconds; nothing typed) and
``python -m tests.table_report`` prints them.

``KINDS`` and ``TARGETS`` hold this module's kinds and those of tests/table_rounds_mighty.py and
tests/table_rounds_cards.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import table_rounds_cards, table_rounds_mighty
from .table_drive import (
    DALMUTI,
    DIXIT,
    MIGHTY,
    MIGHTY_FIRST,
    MIGHTY_SEVEN,
    MIGHTY_SIX,
    ON_SCREEN,
    RECORD,
    SECONDS,
    Count,
    Table,
    chip,
    mighty_taps,
    open_session,
)

#: what the browser tests use from here besides KINDS and TARGETS
__all__ = [
    "DALMUTI",
    "DIXIT",
    "MIGHTY",
    "MIGHTY_FIRST",
    "MIGHTY_SEVEN",
    "MIGHTY_SIX",
    "ON_SCREEN",
    "RECORD",
    "SECONDS",
    "Count",
    "Table",
    "chip",
    "open_session",
]

#: the measured Mighty hand: Seoyeon 15 ♠, the friend ♦A (or ♦K) held by Minsu, 7 points
MEASURED = {
    "contract": {"boss": "Seoyeon", "bid": 15, "trump": "S"},
    "friend": {"card": "DA", "player": "Minsu"},
    "opposition_points": 7,
}


def mighty_hand(phone: Any, name: str, sid: int, played: dict) -> tuple[Count, dict]:
    """Enter a Mighty hand by its taps, record it, and check what was stored."""
    table = Table(phone, name)
    for selector in mighty_taps(played):
        table.tap(selector)
    table.send(RECORD)
    session = phone.session(sid)
    assert len(session["rounds"]) == 2
    stored, result = session["rounds"][1]["input"], session["rounds"][1]["result"]
    for key in ("contract", "friend", "opposition_points", "kill"):
        assert stored.get(key) == played.get(key), (key, stored)
    assert sum(result["deltas"].values()) == 0
    return table.done(), session


def mighty_plain(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter an ordinary Mighty hand after one recorded: contract, friend card, points."""
    sid = open_session(phone, "mighty", MIGHTY, [MIGHTY_FIRST], lang)
    return mighty_hand(phone, "mighty plain", sid, MEASURED)


def mighty_six_kill(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a 6마 hand after one recorded: the plain hand's taps, and the kill (the joker named,
    its holder by name) in two more."""
    first = {**MIGHTY_FIRST, "kill": {"card": "JK", "player": "Jihun"}}
    first["friend"] = {"card": "SA", "player": "Eunji"}
    sid = open_session(phone, "mighty", MIGHTY_SIX, [first], lang)
    played = {**MEASURED, "kill": {"card": "JK", "player": "Hyunwoo"}}
    count, session = mighty_hand(phone, "mighty 6p-kill", sid, played)
    result = session["rounds"][1]["result"]
    assert result["killed"] == ["Hyunwoo"] and result["deltas"]["Hyunwoo"] == 0
    return count, session


def mighty_seven_kill(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a 7마 hand after one recorded: the plain hand's taps and two kills, two taps each
    (the joker named, and the mighty by its own chip; their holders by name)."""
    first = {**MIGHTY_FIRST, "friend": {"card": "HA", "player": "Eunji"}}
    first["kill"] = [{"card": "JK", "player": "Jihun"}, {"card": "SA", "player": "Yuna"}]
    sid = open_session(phone, "mighty", MIGHTY_SEVEN, [first], lang)
    kills = [{"card": "JK", "player": "Hyunwoo"}, {"card": "DA", "player": "Yuna"}]
    played = {**MEASURED, "kill": kills, "friend": {"card": "DK", "player": "Minsu"}}
    count, session = mighty_hand(phone, "mighty 7마", sid, played)
    assert session["rounds"][1]["result"]["killed"] == ["Hyunwoo", "Yuna"]
    return count, session


def mighty_six_resting(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a hand of six where the dealer rests (dealer_sits_out): the plain hand's taps."""
    first = {**MIGHTY_FIRST, "contract": {"boss": "Jiwoo", "bid": 13, "trump": "H"}}
    rules = {"six_player_rule": "dealer_sits_out"}
    sid = open_session(phone, "mighty", MIGHTY_SIX, [first], lang, rules)
    count, session = mighty_hand(phone, "mighty 6 resting", sid, MEASURED)
    result = session["rounds"][1]["result"]
    assert result["resting"] == ["Eunji"] and result["deltas"]["Eunji"] == 0
    return count, session


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
    table.send(RECORD)
    session = phone.session(sid)
    entered = session["rounds"][1]["input"]
    assert entered["storyteller"] == "Ben"
    assert entered["positions"] == ["Cy", "Ben", "Dee", "Eve", "Ann"]
    assert entered["votes"] == {"Ann": 2, "Cy": 2, "Dee": 1, "Eve": 5}
    return table.done(), session


def dalmuti_six_tax(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Enter a Dalmuti hand of six with the tax, paid as due, after one recorded hand."""
    first = {"tribute": {"paid": True}, "finish_order": DALMUTI}
    sid = open_session(phone, "dalmuti", DALMUTI, [first], lang)
    table = Table(phone, "dalmuti 6p-tax")
    table.tap("label.dal-paid")
    for name in ("Cy", "Ann", "Fay", "Ben", "Dee"):
        table.tap(f".dal-tap button[data-name='{name}']")
    table.send(RECORD)
    session = phone.session(sid)
    entered = session["rounds"][1]["input"]
    assert entered["tribute"] == {"paid": True}
    assert entered["finish_order"] == ["Cy", "Ann", "Fay", "Ben", "Dee", "Eve"]
    return table.done(), session


def mighty_correction_two(phone: Any, lang: str = "en") -> tuple[Count, dict]:
    """Correct hand 1's friend when that moves hand 2's dealer: both rounds, in place (the
    next round's only legal dealer is filled in at once, so the save is not refused)."""
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
    table.send("#main .correction .record-bar button[value=record]")
    session = phone.session(sid)
    assert session["rounds"][0]["input"]["friend"]["player"] == "Eunji"
    assert session["rounds"][1]["input"]["dealer"] == "Eunji"
    assert session["rounds"][2]["input"]["dealer"] == "Jiwoo"
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


Driver = Callable[[Any, str], tuple[Count, dict]]
#: the kinds this module drives
OWN_KINDS: dict[str, Driver] = {
    "mighty plain": mighty_plain,
    "mighty 6p-kill": mighty_six_kill,
    "mighty 7마": mighty_seven_kill,
    "mighty 6 resting": mighty_six_resting,
    "dixit 5p": dixit_five,
    "dalmuti 6p-tax": dalmuti_six_tax,
    "mighty correction-2": mighty_correction_two,
    "setup returning": setup_returning,
}
#: each kind's most taps, scrolls (searches off screen) and model seconds; nothing is typed
OWN_TARGETS: dict[str, tuple[int, int, float]] = {
    "mighty plain": (8, 0, 10.0),
    # the plain hand and its kill, 2 taps more (the card named, its holder)
    "mighty 6p-kill": (10, 0, 12.0),
    "mighty 7마": (12, 0, 14.4),
    "mighty 6 resting": (8, 0, 9.6),
    "dixit 5p": (9, 0, 11.0),
    "dalmuti 6p-tax": (8, 0, 10.0),
    # round 1 is found in the history (a search); the next round's only dealer fills itself in
    "mighty correction-2": (4, 1, 6.8),
    "setup returning": (2, 0, 2.4),
}


#: every kind the report prints, and the driver of each
KINDS: dict[str, Driver] = {**OWN_KINDS, **table_rounds_mighty.KINDS, **table_rounds_cards.KINDS}
#: each kind's most taps, scrolls and model seconds
TARGETS: dict[str, tuple[int, int, float]] = {
    **OWN_TARGETS,
    **table_rounds_mighty.TARGETS,
    **table_rounds_cards.TARGETS,
}
