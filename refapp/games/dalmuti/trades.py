"""The Great Dalmuti's merchants' swap (a Korean house rule): recorded and explained only."""

from __future__ import annotations

from ..errors import MalformedInput, RuleViolation, quote
from ..game import Account
from .options import option_label
from .ranks import roles_of
from .shapes import Deal


def merchant_trades(deal: Deal, sent: list[list[str]]) -> list[list[str]]:
    """Return the merchants' blind swaps (house rule, recorded only): pairs of merchants."""
    if not sent:
        return []
    if not deal.rules.merchant_trade:
        raise MalformedInput(
            "invalid_value",
            "Merchant trades are not played at this table (the house rule “{rule_t}” is off).",
            "merchant_trades",
            rule_t=option_label("merchant_trade"),
        )
    if deal.revolution is not None:
        raise RuleViolation(
            "tribute_not_allowed",
            "After a revolution no cards change hands, so the merchants do not trade.",
            "merchant_trades",
        )
    roles = roles_of(deal.ranks)
    seen: set[str] = set()
    trades: list[list[str]] = []
    for index, names in enumerate(sent):
        where = f"merchant_trades.{index}"
        for name in names:
            if roles[name] != "merchant" or name in seen:
                raise MalformedInput(
                    "invalid_value",
                    "{value} cannot trade here: each merchant swaps at most one card, and "
                    "only merchants trade.",
                    where,
                    value=quote(name),
                )
            seen.add(name)
        if not names:
            raise MalformedInput(
                "invalid_value", "A trade is between two merchants, not nobody.", where
            )
        if len(names) != 2:
            raise MalformedInput(
                "invalid_value",
                "A trade is between two merchants, not {value}.",
                where,
                value=list(names),
            )
        trades.append(sorted(names, key=deal.ranks.index))
    return trades


def say_trades(account: Account, trades: list[list[str]]) -> None:
    """Explain the merchants' blind swaps, one sentence each."""
    for first, second in trades:
        account.say(
            "Merchants {first} and {second} swapped one card each, blind.",
            first=first,
            second=second,
        )
