"""A hand checked step by step: the deal read, the input kept, the tax and trades told, and the
result of a dry run sent before the finishing order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Account, Table
from .options import house_rules
from .ranks import hands_dealt, ranks_in
from .revolution import revolt, revolution_declared, say_revolution
from .shapes import CardsBy, DalmutiInput, DalmutiResult, Deal, Facts
from .tax import givers, say_tax, tax_due, tax_facts
from .trades import say_trades


def deal_read(table: Table, state: Mapping[str, Any], raw: Mapping[str, Any]) -> Deal:
    """Return the hand's deal: the ranks, the hands dealt, a revolution, whether tax is due."""
    rules = house_rules(table.rules)
    ranks = ranks_in(table, state)
    hands_played = int(state.get("hands_played", 0))
    hands = hands_dealt(table, rules, ranks, raw.get("hands"))
    revolution = revolution_declared(table, rules, ranks, hands, raw.get("revolution"))
    during = revolt(ranks, revolution)
    due = revolution is None and tax_due(rules, hands_played)
    return Deal(table, rules, ranks, during, hands, revolution, hands_played, due)


def hand_entered(
    deal: Deal, tribute: CardsBy | None, paid: bool, trades: list[list[str]]
) -> DalmutiInput:
    """Return the hand's input as kept: the revolution, the tribute (paid), hands and trades."""
    entered: DalmutiInput = {"revolution": deal.revolution, "tribute": tribute}
    if paid:
        entered["tribute"] = {**(tribute or {}), "paid": True}
    if deal.hands:
        entered["hands"] = deal.hands
    if trades:
        entered["merchant_trades"] = trades
    return entered


def told(
    deal: Deal, tribute: CardsBy | None, paid: bool, trades: list[list[str]]
) -> tuple[Account, Facts]:
    """Tell the revolution or the tax, then the merchants' trades; return them and the facts."""
    account = Account()
    facts = tax_facts(deal, tribute)
    if deal.revolution is not None:
        say_revolution(account, deal.ranks, deal.during, deal.revolution)
    else:
        say_tax(account, deal, facts, paid)
    say_trades(account, trades)
    return account, facts


def progress(deal: Deal, account: Account, facts: Facts) -> DalmutiResult:
    """Return a dry run's result before the finishing order: the ranks, the tax and its facts."""
    return {
        "complete": False,
        **account.result(),
        "ranks_before": deal.ranks,
        "ranks_during": deal.during,
        "revolution": deal.revolution["kind"] if deal.revolution else None,
        "tax": deal.due,
        "facts": facts,
    }


def tax_unpaid(deal: Deal, tribute: CardsBy | None, paid: bool) -> bool:
    """Return True when the tax is due, not marked paid, and some giving role sent no tribute."""
    return deal.due and not paid and len(tribute or {}) < len(givers(len(deal.ranks), deal.rules))
