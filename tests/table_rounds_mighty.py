"""The kinds of round the table report adds for Mighty: drivers and their targets.

Each driver enters one round by taps (tests/table_drive.py's Table) and checks the stored round;
TARGETS holds each kind's most taps, scrolls and model seconds. tests/table_rounds.py merges them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .table_drive import MIGHTY, MIGHTY_FIRST, RECORD, Table, chip, open_session

#: the hand recorded before each kind (dealt by Minsu; Eunji, its friend, deals the next one)
FIRST = MIGHTY_FIRST
#: the auction of the contract change: Eunji deals and opens at 13♠, Minsu bids 14♠, and every
#: other player passes; Minsu declares 16♥ after the kitty (a change of suit costs 2)
AUCTION = [
    {"player": "Eunji", "bid": 13, "trump": "S"},
    {"player": "Minsu", "bid": 14, "trump": "S"},
    {"player": "Jiwoo", "pass": True},
    {"player": "Seoyeon", "pass": True},
    {"player": "Hyunwoo", "pass": True},
    {"player": "Eunji", "pass": True},
]
#: 16♥, friend ♦A held by Jiwoo, the opposition took 3: n = 17 > 16, m = 6
RAISED = {"Minsu": 12, "Jiwoo": 6, "Seoyeon": -6, "Hyunwoo": -6, "Eunji": -6}


def contract_change(phone: Any, lang: str = "en") -> tuple[Any, dict]:
    """Log the auction (two bids, then everyone else passes in one tap), raise the contract to
    16♥ after the kitty, name the friend and the points, record."""
    sid = open_session(phone, "mighty", MIGHTY, [FIRST], lang)
    table = Table(phone, "mighty contract-change")
    table.tap(".composer-more [data-goto='auction']")
    for button in ("bid_S_13", "bid_S_14", "pass_rest"):
        table.send(f"#auction button[name=action][value={button}]")
    phone.page.locator("#contract.composer-current").wait_for()
    for selector in (
        chip("contract_bid", "16"),
        "#contract label.mighty-chip[data-short='♥']",
        "#friend [data-mighty-picker] [data-suit='D']",
        "#friend [data-mighty-picker] [data-rank='A']",
        chip("friend_player", "Jiwoo"),
        "[data-mighty-points] button[data-points='3']",
    ):
        table.tap(selector)
    table.send(RECORD)
    session = phone.session(sid)
    stored = session["rounds"][1]
    assert stored["input"]["bidding"] == AUCTION
    assert stored["input"]["contract"] == {"boss": "Minsu", "bid": 16, "trump": "H"}
    assert stored["result"]["winning_bid"] == {"player": "Minsu", "bid": 14, "trump": "S"}
    assert stored["result"]["deltas"] == RAISED
    return table.done(), session


def misdeal_shown(phone: Any, lang: str = "en") -> tuple[Any, dict]:
    """Throw the hand in as the table saw it: the throw-in chip, its declarer, "shown"."""
    sid = open_session(phone, "mighty", MIGHTY, [FIRST], lang)
    table = Table(phone, "mighty misdeal")
    table.tap(".composer-more [data-goto='misdeal']")
    table.tap(chip("misdeal_player", "Hyunwoo"))
    table.send("#round-form button[name=action][value=misdeal_shown]")
    session = phone.session(sid)
    stored = session["rounds"][1]
    assert stored["input"] == {"dealer": "Eunji", "misdeal": {"player": "Hyunwoo", "shown": True}}
    assert set(stored["result"]["deltas"].values()) == {0}
    assert session["state"]["next_dealer"] == "Hyunwoo"
    return table.done(), session


#: kind -> driver (phone, lang) -> (Count, session)
KINDS: dict[str, Callable[[Any, str], tuple[Any, dict]]] = {
    "mighty contract-change": contract_change,
    "mighty misdeal": misdeal_shown,
}
#: kind -> (most taps, most scrolls, most model seconds)
TARGETS: dict[str, tuple[int, int, float]] = {
    "mighty contract-change": (12, 0, 15.0),
    "mighty misdeal": (4, 0, 6.0),
}
