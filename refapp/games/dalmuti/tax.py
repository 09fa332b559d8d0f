"""The Great Dalmuti's tax: who owes tribute to whom this hand, and its explanation.

The cards given are read and checked in ``tribute``; the merchants' swap is in ``trades``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import N_, RuleViolation
from ..game import Account
from .cards import cards_text
from .options import house_rules
from .ranks import holders, role_name
from .shapes import CardsBy, Deal, Exchange

#: giving role -> (receiving role, cards given, "best" or "any")
TRIBUTE: dict[str, tuple[str, int, str]] = {
    "greater_peasant": ("greater_dalmuti", 2, "best"),
    "greater_dalmuti": ("greater_peasant", 2, "any"),
    "lesser_peasant": ("lesser_dalmuti", 1, "best"),
    "lesser_dalmuti": ("lesser_peasant", 1, "any"),
}
#: the keys of one exchange of the tax in the API's state (``tribute_due``), as API.md lists them
EXCHANGE_KEYS = ("from", "to", "count", "which")
#: a Dalmuti's return gift -> the peasant tribute it answers (sequential timing: may pass it on)
ANSWERS = {"greater_dalmuti": "greater_peasant", "lesser_dalmuti": "lesser_peasant"}
#: short names of the giving roles for the tribute_required message's values
EXCHANGE_NAMES = {
    "greater_peasant": "gp",
    "greater_dalmuti": "gd",
    "lesser_peasant": "lp",
    "lesser_dalmuti": "ld",
}
#: why no tax is paid (besides a revolution), in a sentence: each names its rule by its label
NO_TAX_RULE = N_("the house rule “Tax (tribute)” is off")
NO_TAX_FIRST_HAND = N_("the first hand, and the house rule “Tax in the first hand” is off")


# -- what is due -----------------------------------------------------------------------------------


def tax_due(rules: Mapping[str, Any], hands_played: int) -> bool:
    """Return True when the tax is paid this hand (unless a revolution cancels it)."""
    typed = house_rules(rules)
    return typed.tax and (hands_played > 0 or typed.tax_first_hand)


def no_tax_reason(rules: Mapping[str, Any]) -> str:
    """Say why no tax is paid without a revolution (words marked N_): the house rule or hand 1."""
    if not house_rules(rules).tax:
        return NO_TAX_RULE
    return NO_TAX_FIRST_HAND


def givers(count: int) -> tuple[str, ...]:
    """Return the roles that give cards in the tax; three players have only the greater pair."""
    roles = tuple(TRIBUTE)
    return roles if count >= 4 else roles[:2]


def tribute_due(
    ranks: Sequence[str], rules: Mapping[str, Any], hands_played: int
) -> list[Exchange]:
    """Return the exchanges of the tax: who gives how many cards to whom, best or any."""
    if not tax_due(rules, hands_played):
        return []
    who = holders(ranks)
    timing = house_rules(rules).tax_timing
    due: list[Exchange] = []
    for role in givers(len(ranks)):
        receiver, count, which = TRIBUTE[role]
        due.append(
            {
                "role": role,
                "from": who[role],
                "to": who[receiver],
                "count": count,
                "which": which,
                "after_receiving": which == "any" and timing == "sequential",
            }
        )
    return due


def public_exchanges(due: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the tax's exchanges as the API's state lists them: from, to, count, which only."""
    return [{key: item[key] for key in EXCHANGE_KEYS} for item in due]


def tribute_required(due: Sequence[Mapping[str, Any]]) -> RuleViolation:
    """Return the error for a tax left out, listing every exchange of it (two or four)."""
    values: dict[str, Any] = {}
    for item in due:
        short = EXCHANGE_NAMES[item["role"]]
        values[short] = item["from"]
        values[f"{short}_count"] = item["count"]
    if len(due) > 2:
        return RuleViolation(
            "tribute_required",
            "The tax is due this hand: enter the tribute ({gp} → {gd}: the best {gp_count}; "
            "{gd} → {gp}: any {gd_count}; {lp} → {ld}: the best {lp_count}; {ld} → {lp}: any "
            "{ld_count}).",
            "tribute",
            **values,
        )
    return RuleViolation(
        "tribute_required",
        "The tax is due this hand: enter the tribute ({gp} → {gd}: the best {gp_count}; "
        "{gd} → {gp}: any {gd_count}).",
        "tribute",
        **values,
    )


# -- explaining the tax ----------------------------------------------------------------------------


def say_tax(account: Account, deal: Deal, tribute: CardsBy | None, paid: bool = False) -> None:
    """Explain the tax of a hand without a revolution: each tribute given, or why none is due."""
    who = holders(deal.ranks)
    for role, cards in (tribute or {}).items():
        account.say(
            "Tax: {giver} ({role_t}) gave {cards} to {receiver}.",
            giver=who[role],
            role_t=role_name(role),
            cards=cards_text(cards),
            receiver=who[TRIBUTE[role][0]],
        )
    unrecorded = paid and deal.due and len(tribute or {}) < len(givers(len(deal.ranks)))
    if unrecorded and tribute:
        account.say("The rest of the tax was paid as due; those cards were not recorded.")
    elif unrecorded:
        account.say("The tax was paid as due; its cards were not recorded.")
    elif not tribute and not tax_due(deal.rules, deal.hands_played):
        account.say("No tax this hand ({why_t}).", why_t=no_tax_reason(deal.rules))
