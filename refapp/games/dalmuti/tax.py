"""The Great Dalmuti's tax: who owes tribute to whom this hand, and its explanation.

The cards given are read and checked in ``tribute``; the merchants' swap is in ``trades``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..errors import N_, RuleViolation
from ..game import Account
from .cards import JESTER, rank_name, sort_cards
from .options import option_label
from .ranks import LESSER_PAIR_FROM, holders, role_name
from .rules import house_rules
from .shapes import CardsBy, Deal, Exchange, Facts, TributeFact

#: giving role -> (receiving role, cards given, "best" or "any")
TRIBUTE: dict[str, tuple[str, int, str]] = {
    "greater_peasant": ("greater_dalmuti", 2, "best"),
    "greater_dalmuti": ("greater_peasant", 2, "any"),
    "lesser_peasant": ("lesser_dalmuti", 1, "best"),
    "lesser_dalmuti": ("lesser_peasant", 1, "any"),
}
#: the giving roles of the lesser pair
LESSER_GIVERS = ("lesser_peasant", "lesser_dalmuti")
#: the keys of one exchange of the tax in the API's state (``tribute_due``; docs/API.md)
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


def tax_due(rules: Mapping[str, object], hands_played: int) -> bool:
    """Return True when the tax is paid this hand (unless a revolution cancels it)."""
    typed = house_rules(rules)
    return typed.tax and (hands_played > 0 or typed.tax_first_hand)


def no_tax_reason(rules: Mapping[str, object]) -> str:
    """Say why no tax is paid without a revolution (words marked N_): the house rule or hand 1."""
    if not house_rules(rules).tax:
        return NO_TAX_RULE
    return NO_TAX_FIRST_HAND


def lesser_tax(count: int, rules: Mapping[str, object]) -> bool:
    """Return True when the Lesser pair exchanges cards too: four players or more, and at least
    ``lesser_tax_min_players``."""
    return count >= LESSER_PAIR_FROM and count >= house_rules(rules).lesser_tax_min_players


def givers(count: int, rules: Mapping[str, object]) -> tuple[str, ...]:
    """Return the roles that give cards in the tax: the greater pair, and the lesser pair when
    the table is big enough for it (``lesser_tax``)."""
    roles = tuple(TRIBUTE)
    return roles if lesser_tax(count, rules) else roles[:2]


def tribute_due(
    ranks: Sequence[str], rules: Mapping[str, object], hands_played: int
) -> list[Exchange]:
    """Return the exchanges of the tax: who gives how many cards to whom, best or any."""
    if not tax_due(rules, hands_played):
        return []
    who = holders(ranks)
    timing = house_rules(rules).tax_timing
    due: list[Exchange] = []
    for role in givers(len(ranks), rules):
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


def public_exchanges(due: Iterable[Mapping[str, object]]) -> list[dict[str, object]]:
    """Return the tax's exchanges as the API's state lists them: from, to, count, which only."""
    return [{key: item[key] for key in EXCHANGE_KEYS} for item in due]


def tribute_required(due: Sequence[Exchange]) -> RuleViolation:
    """Return the error for a tax left out, listing every exchange of it (two or four)."""
    values: dict[str, object] = {}
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


def tax_facts(deal: Deal, tribute: CardsBy | None) -> Facts:
    """Return the tax's facts: each tribute given (in the order of the tax) and, when the Lesser
    pair gave nothing for the table's size, the players seated and the least for it."""
    who = holders(deal.ranks)
    given: list[TributeFact] = [
        {"role": role, "from": who[role], "to": who[TRIBUTE[role][0]], "cards": list(cards)}
        for role, cards in (tribute or {}).items()
    ]
    count = len(deal.ranks)
    skipped = deal.due and count >= LESSER_PAIR_FROM and not lesser_tax(count, deal.rules)
    least = deal.rules.lesser_tax_min_players
    return {
        "tribute": given,
        "no_lesser_tax": {"players": count, "least": least} if skipped else None,
    }


def say_tax(account: Account, deal: Deal, facts: Facts, paid: bool = False) -> None:
    """Explain the tax of a hand without a revolution from its facts: each tribute given with
    its cards' titles, the Lesser pair left out, or why no tax is due."""
    given = facts.get("tribute", [])
    for item in given:
        say_tribute(account, item)
    skipped = facts.get("no_lesser_tax")
    if skipped:
        account.say(
            "The {lp_t} and the {ld_t} exchange no cards: {players} players, fewer than the "
            "{least} the house rule “{rule_t}” asks for.",
            lp_t=role_name("lesser_peasant"),
            ld_t=role_name("lesser_dalmuti"),
            rule_t=option_label("lesser_tax_min_players"),
            **skipped,
        )
    unrecorded = paid and deal.due and len(given) < len(givers(len(deal.ranks), deal.rules))
    if unrecorded and given:
        account.say("The rest of the tax was paid as due; those cards were not recorded.")
    elif unrecorded:
        account.say("The tax was paid as due; its cards were not recorded.")
    elif not given and not tax_due(deal.rules, deal.hands_played):
        account.say("No tax this hand ({why_t}).", why_t=no_tax_reason(deal.rules))


def say_tribute(account: Account, item: TributeFact) -> None:
    """Say one tribute given: the giver and their role, each card with its title, the receiver
    ('Tax: Eve (Greater Peasant) gave 2 (Archbishop) and 4 (Baroness) to Ann.')."""
    who = {"giver": item["from"], "role_t": role_name(item["role"]), "receiver": item["to"]}
    cards = sort_cards(item["cards"])
    numbers = [card for card in cards if card != JESTER]
    jesters = len(cards) - len(numbers)
    values: dict[str, object] = dict(who)
    for key, card in zip(("first", "second"), numbers, strict=False):
        values[key], values[f"{key}_t"] = card, rank_name(card)
    if len(numbers) == 2:
        account.say(
            "Tax: {giver} ({role_t}) gave {first} ({first_t}) and {second} ({second_t}) to "
            "{receiver}.",
            **values,
        )
    elif len(numbers) == 1 and jesters:
        account.say(
            "Tax: {giver} ({role_t}) gave {first} ({first_t}) and a jester to {receiver}.",
            **values,
        )
    elif len(numbers) == 1:
        account.say("Tax: {giver} ({role_t}) gave {first} ({first_t}) to {receiver}.", **values)
    elif jesters == 2:
        account.say("Tax: {giver} ({role_t}) gave both jesters to {receiver}.", **who)
    else:
        account.say("Tax: {giver} ({role_t}) gave a jester to {receiver}.", **who)
