"""A hand checked step by step on its parsed entry: the deal read, the tax and trades checked and
told, the input kept, the score, and the result of a dry run sent before the finishing order."""

from __future__ import annotations

from ..game import Account, Outcome, Table
from .ranks import hands_dealt, hands_played_in, ranks_in
from .revolution import revolt, revolution_declared, say_revolution
from .rules import house_rules
from .scoring import finish_order, hand_result
from .shapes import CardsBy, DalmutiInput, DalmutiResult, DalmutiState, Deal, Facts, HandEntry
from .tax import givers, say_tax, tax_due, tax_facts
from .trades import merchant_trades, say_trades
from .tribute import tribute_given

#: a hand's outcome: the input as kept, its result, and the state after it
HandOutcome = Outcome[DalmutiInput, DalmutiResult, DalmutiState]


def play_hand(table: Table, state: DalmutiState, entry: HandEntry, partial: bool) -> HandOutcome:
    """Check a parsed hand against the rules and score it (``partial``: a dry run)."""
    deal = deal_read(table, state, entry)
    tribute = tribute_given(deal, entry.tribute, entry.paid, partial)
    paid = deal.due and entry.paid
    trades = merchant_trades(deal, entry.merchant_trades)
    entered = hand_entered(deal, tribute, paid, trades)
    account, facts = told(deal, tribute, paid, trades)
    unchanged: DalmutiState = {**state}  # a copy: a hand not yet over leaves the state as is
    if partial and entry.finish_order is None:
        entered["finish_order"] = None
        return Outcome(entered, progress(deal, account, facts), unchanged)
    finish = finish_order(table, entry.finish_order)
    entered["finish_order"] = finish
    scored = hand_result(deal, finish, account, facts)
    if tax_unpaid(deal, tribute, paid):
        scored["complete"] = False
        return Outcome(entered, scored, unchanged)
    after: DalmutiState = {**state, "ranks": finish, "hands_played": deal.hands_played + 1}
    return Outcome(entered, scored, after)


def deal_read(table: Table, state: DalmutiState, entry: HandEntry) -> Deal:
    """Return the hand's deal: the ranks, the hands dealt, a revolution, whether tax is due."""
    rules = house_rules(table.rules)
    ranks = ranks_in(table, state)
    hands_played = hands_played_in(state)
    hands = hands_dealt(rules, ranks, entry.hands)
    revolution = revolution_declared(rules, ranks, hands, entry.revolution)
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
