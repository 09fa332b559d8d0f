"""A played hand's parts read in the order of play: the contract, the kills, the friend, the
points and holders, the tricks; then the cards they name are checked against the rules.

Each step stores what it reads in the hand's ``entered`` input; the order of the steps is the
order of the refusals a hand with several faults meets (the first fault is the one reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Table
from .auction import Auction
from .contract import read_contract
from .deal import Deal
from .friend import read_friend
from .friend_card import check_friend_card_allowed, check_friend_card_held
from .holders import HOLDER_KEYS, check_holders, read_holder, read_points
from .kill import Kill, read_kills, stored_kill
from .shapes import Contract, MightyInput
from .trick_totals import Refereed, Settled, play_tricks

#: the parts a played hand needs before it can be scored
SCORED_PARTS = ("contract", "friend", "opposition_points")


def take_contract(
    table: Table,
    floor: int,
    raw: Mapping[str, Any],
    entered: MightyInput,
    auction: Auction | None,
    partial: bool,
) -> Contract | None:
    """Read the final contract against the auction's floor and the bid won (None: not sent)."""
    contract = read_contract(table, raw, floor, auction, partial)
    if contract is not None:
        entered["contract"] = contract
    return contract


def take_kills(
    table: Table,
    deal: Deal,
    raw: Mapping[str, Any],
    entered: MightyInput,
    contract: Contract | None,
    partial: bool,
) -> list[Kill] | None:
    """Read who the boss killed, in the order named (None: a dry run that sent none)."""
    boss = contract["boss"] if contract else None
    kills = read_kills(table, deal, raw, boss, partial)
    if kills:
        entered["kill"] = stored_kill(kills)
    return kills


def take_friend_and_points(
    players: Table, raw: Mapping[str, Any], entered: MightyInput, partial: bool
) -> None:
    """Read the friend (told by the tricks when they are sent) and the opposition's points."""
    with_tricks = raw.get("tricks") is not None
    friend = read_friend(players, raw, partial, derive=with_tricks)
    if friend is not None:
        entered["friend"] = friend
    points = read_points(raw, partial or with_tricks)
    if points is not None:
        entered["opposition_points"] = points


def take_holders(raw: Mapping[str, Any], entered: MightyInput) -> None:
    """Read who held the mighty and the joker, where they are named."""
    for key in HOLDER_KEYS:
        if raw.get(key) is not None:
            entered[key] = read_holder(raw[key], key)


def take_tricks(
    players: Table,
    raw: Mapping[str, Any],
    entered: MightyInput,
    partial: bool,
    absent: frozenset[str],
) -> Refereed | None:
    """Referee the hand's tricks when they are sent (None: the hand came without them)."""
    if raw.get("tricks") is None:
        return None
    return play_tricks(players, raw, entered, partial, absent)


def check_cards_named(
    table: Table,
    players: Table,
    entered: MightyInput,
    contract: Contract | None,
    absent: frozenset[str],
) -> None:
    """Check the friend card against the rules and the boss's hand, then the holders named."""
    trump = contract["trump"] if contract else None
    check_friend_card_allowed(table.rules, entered.get("friend"), trump, absent)
    check_friend_card_held(
        table.rules, entered.get("friend"), contract["boss"] if contract else None
    )
    check_holders(players, entered)


def settled(refereed: Refereed | None) -> Settled | None:
    """Return the tricks and their totals once all of them are in (None: unfinished or none)."""
    if refereed is None or refereed[1] is None:
        return None
    return refereed[0], refereed[1]


def still_waiting(
    entered: MightyInput,
    refereed: Refereed | None,
    deal: Deal,
    kills: list[Kill] | None,
) -> bool:
    """Return True while the hand cannot be scored: tricks unfinished, kills or parts unsent."""
    if refereed is not None and settled(refereed) is None:
        return True
    if deal.kills and kills is None:
        return True
    return not all(key in entered for key in SCORED_PARTS)
