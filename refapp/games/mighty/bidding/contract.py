"""The boss's declaration after the kitty: the final contract and its price.

The auction's winning bid may become a higher contract, or change its trump for a price; a bid
of 20 locks the trump.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import RuleViolation, quote
from ...inputs import mapping, require, whole_number
from ..cards import TRUMP_NAMES, TRUMPS, parse_trump
from ..round_form import need
from ..shapes import Contract
from .auction import MAX_BID, Auction, Bid, check_bid_count

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules, MightyTable


def contract_change_price(bid: int, trump: str, new_trump: str, rules: MightyRules) -> int | None:
    """Return the lowest final count at which the won (bid, trump) may take new_trump.

    None means the trump is locked (a bid of 20); a count above 20 means no contract can pay
    for the change. Raising without a change costs nothing.
    """
    if new_trump == trump:
        return bid
    if bid >= MAX_BID:
        to_no_trump = trump != "NT" and new_trump == "NT"
        return MAX_BID if to_no_trump and rules.allow_no_trump_at_20 else None
    if new_trump == "NT":  # the rule names no cap here: c1 >= c0 + to_no_trump_cost
        return bid + rules.to_no_trump_cost
    cost = rules.from_no_trump_cost if trump == "NT" else rules.suit_change_cost
    # a suit change is capped at 20 so that 19 may still change trump at 20 (as the seed says)
    return max(min(bid + cost, MAX_BID), bid + 1)


def allowed_contract_changes(bid: int, trump: str, rules: MightyRules) -> dict[str, int | None]:
    """Return, for every trump, the lowest final count the boss may declare (None: locked)."""
    return {new: contract_change_price(bid, trump, new, rules) for new in TRUMPS}


def check_contract_change(
    won: Bid, final: Bid, rules: MightyRules, where: str = "contract"
) -> None:
    """Raise ``contract_lowered``, ``trump_locked`` or ``trump_change_too_cheap`` if not allowed."""
    if final.count < won.count:
        raise RuleViolation(
            "contract_lowered",
            "The contract {count} {trump_t} is lower than the winning bid {won_count} "
            "{won_trump_t}; the boss may only raise.",
            f"{where}.bid",
            **final.words(),
            **won.words("won_"),
        )
    price = contract_change_price(won.count, won.trump, final.trump, rules)
    if price is None:
        raise RuleViolation(
            "trump_locked",
            "The auction was won at {won_count} {won_trump_t}, which locks the trump; {count} "
            "{trump_t} is not allowed.",
            f"{where}.trump",
            **won.words("won_"),
            **final.words(),
        )
    if final.count < price:
        raise RuleViolation(
            "trump_change_too_cheap",
            "Changing the trump from {won_count} {won_trump_t} to {trump_t} needs a contract of "
            "at least {price}, not {value}.",
            f"{where}.bid",
            **won.words("won_"),
            trump_t=TRUMP_NAMES[final.trump],
            price=price,
            value=final.count,
        )


def read_contract(
    table: MightyTable, sent: object, floor: int, auction: Auction | None, partial: bool
) -> Contract | None:
    """Return the final contract (boss, bid, trump), checked against floor and the auction won."""
    if partial and sent is None:
        return None
    given = mapping(need(sent, "contract"), "contract")
    boss = table.player(require(given, "boss", "contract.boss"), "contract.boss")
    count = whole_number(require(given, "bid", "contract.bid"), "contract.bid")
    check_bid_count(count, floor, "contract.bid")
    final = Bid(count, parse_trump(require(given, "trump", "contract.trump"), "contract.trump"))
    if auction is not None:
        if boss != auction.winner:
            raise RuleViolation(
                "boss_not_auction_winner",
                "{value} is named boss, but {winner} won the auction with {count} {trump_t}.",
                "contract.boss",
                value=quote(boss),
                winner=auction.winner,
                **auction.top.words(),
            )
        check_contract_change(auction.top, final, table.rules)
    return {"boss": boss, **final.as_dict()}
