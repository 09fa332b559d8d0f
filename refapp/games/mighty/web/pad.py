"""The auction pad: the bidding log in the form's hidden field (JSON), and its buttons, each one a
change to the bidding log, worked out from the log.

A bid carries its count and trump (``bid_H_14``; ``bid_H`` takes the count from the count field),
``pass`` adds the bidder's pass, ``pass_rest`` the passes of everyone left after the highest bid
(the auction ends when every other player has passed after it, as the "Auction" point of
the Mighty rules in docs/rules says), and ``unbid`` takes the last entry back.
"""

from __future__ import annotations

import json
import re

from ...errors import Refusal
from .. import TRUMPS
from ..bidding.auction import run_auction
from ..house_rules.rules import MightyTable

#: the pad's buttons: dry runs that change the bidding log
PAD_ACTIONS = ("pass", "pass_rest", "unbid", *(f"bid_{trump}" for trump in TRUMPS))
#: a bid on the pad's grid, its count in the button: ``bid_H_14``
BID_AT = re.compile(rf"bid_(?P<trump>{'|'.join(TRUMPS)})_(?P<count>[0-9]{{1,2}})")
WHOLE = re.compile(r"\s*[0-9]{1,9}\s*")


def number(text: object) -> int | str | None:
    """Return a typed whole number as an int, blank as None, anything else as typed (refused)."""
    typed = "" if text is None else str(text)
    if not typed.strip():
        return None
    return int(typed) if WHOLE.fullmatch(typed) else typed.strip()


def read_log(text: object) -> object:
    """Return the bidding log in the hidden field ([] when empty, the text if unreadable)."""
    typed = str(text or "").strip()
    if not typed:
        return []
    try:
        log: object = json.loads(typed)
    except (ValueError, RecursionError):  # nested too deep is unreadable too
        return typed
    return log


def log_text(log: object) -> str | None:
    """Write a stored bidding log into the hidden field (None: an empty log leaves it blank)."""
    return json.dumps(log, ensure_ascii=False) if log else None


def is_pad_action(action: str) -> bool:
    """Return True when the button is one of the auction pad's (a bid, a pass, a take-back)."""
    return action in PAD_ACTIONS or BID_AT.fullmatch(action) is not None


def pad_log(action: str, log: object, bidder: str | None, count: object) -> object:
    """Return the log with the pad's entry added (bidder, and the count field for ``bid_S``),
    or with the last entry taken back; ``pass_rest`` is left to ``passes_to_end``."""
    if not isinstance(log, list):
        return [] if action == "unbid" else log  # a broken log: the rules say why
    if action == "unbid":
        return log[:-1]
    if action == "pass":
        return [*log, {"player": bidder, "pass": True}]
    grid = BID_AT.fullmatch(action)
    if grid:  # a button of the grid: its count and trump
        return [*log, {"player": bidder, "bid": int(grid["count"]), "trump": grid["trump"]}]
    trump = action.removeprefix("bid_")
    return [*log, {"player": bidder, "bid": number(count), "trump": trump}]


def passes_to_end(table: MightyTable, log: object, floor: int, dealer: str | None) -> object:
    """Return the log with a pass by each player whose turn comes before the auction ends, as
    long as someone has bid; the log unchanged when it cannot be read or nobody has bid."""
    if not isinstance(log, list):
        return log
    entries: list[object] = list(log)
    for _turn in range(2 * len(table.players)):  # every player passes at most once a round
        try:
            auction = run_auction(table, entries, min_bid=floor, dealer=dealer)
        except Refusal:
            return log
        turn = auction.next_bidder
        if auction.finished or auction.highest is None or turn is None or turn == auction.leader:
            return entries
        entries.append({"player": turn, "pass": True})
    return entries
