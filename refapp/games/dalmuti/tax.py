"""The Great Dalmuti's tax: who owes tribute, and the checks of the cards given (hands or not).

Under ``tax_timing`` "simultaneous" a Dalmuti gives from the hand as dealt; under "sequential"
they may pass on cards the tribute brought them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import N_, MalformedInput, RuleViolation, quote
from ..game import Account
from ..inputs import mapping, sequence
from .cards import JESTER, cards_text, check_supply, parse_cards, sort_cards
from .options import house_rules, option_label
from .ranks import holders, role_name, roles_of
from .shapes import Card, CardsBy, Deal, Exchange

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
#: what holds too many copies of a card, in check_supply's message
TRIBUTE_CARDS = N_("The tribute's cards")
HANDS_AND_TRIBUTE = N_("The hands entered and the tribute's cards")
CARDS_GIVEN = N_("The cards given")


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


# -- the tribute given -----------------------------------------------------------------------------


def tribute_paid(raw: Any) -> bool:
    """Return True when the tribute says the tax was paid as due (``"paid": true``)."""
    if not isinstance(raw, Mapping) or raw.get("paid") is None:
        return False
    if not isinstance(raw["paid"], bool):
        raise MalformedInput(
            "invalid_value",
            "Whether the tax was paid as due is true or false, not {value}.",
            "tribute.paid",
            value=quote(raw["paid"]),
        )
    return raw["paid"]


def tribute_given(deal: Deal, raw: Any, partial: bool) -> CardsBy | None:
    """Return the tax as given (by giving role), checked; ``paid`` leaves roles unrequired."""
    rules, ranks, revolution, due = deal.rules, deal.ranks, deal.revolution, deal.due
    if raw is None or (isinstance(raw, Mapping) and not raw):
        if due and not partial:
            raise tribute_required(tribute_due(ranks, rules, deal.hands_played))
        return None
    given = {key: value for key, value in mapping(raw, "tribute").items() if key != "paid"}
    partial = partial or tribute_paid(raw)
    if not due and revolution is not None:
        raise RuleViolation(
            "tribute_not_allowed",
            "No tax is paid this hand ({player} declared a revolution), so no tribute.",
            "tribute",
            player=revolution["player"],
        )
    if not due:
        raise RuleViolation(
            "tribute_not_allowed",
            "No tax is paid this hand ({why_t}), so no tribute.",
            "tribute",
            why_t=no_tax_reason(rules),
        )
    roles = givers(len(ranks))
    for key in given:
        if key not in roles:
            where = f"tribute.{key}"
            raise MalformedInput(
                "invalid_value",
                "{value} is not a giving role in the tax; the roles are {roles}.",
                where,
                value=quote(key),
                roles=", ".join(roles),
            )
    tribute: CardsBy = {}
    for role in roles:
        if given.get(role) is None:
            if partial:
                continue
            where = f"tribute.{role}"
            raise RuleViolation(
                "tribute_required",
                "The tribute of the {role_t} is missing.",
                where,
                role_t=role_name(role),
            )
        tribute[role] = tribute_cards(
            role, given[role], rules.removed_ranks, jester_back=may_give_jester(rules, role)
        )
    check_tribute(deal, tribute)
    return tribute


def may_give_jester(rules: Mapping[str, Any], role: str) -> bool:
    """Return True when this giving role may give a jester: a Dalmuti under the house rule."""
    return role in ANSWERS and house_rules(rules).dalmuti_may_return_jester


def tribute_cards(
    role: str, value: Any, removed: Iterable[int], *, jester_back: bool = False
) -> list[Card]:
    """Return one role's tribute: real cards, as many as the role gives, in the deck.

    Jesters never change hands, unless ``jester_back`` (``dalmuti_may_return_jester``, for
    a Dalmuti's return gift only).
    """
    where = f"tribute.{role}"
    cards = parse_cards(value, where)
    if JESTER in cards and not jester_back:
        raise RuleViolation(
            "jester_in_tribute",
            "Jesters never change hands in the tax, but the {role_t} gave {value}.",
            where,
            role_t=role_name(role),
            value=cards_text(cards),
        )
    want = TRIBUTE[role][1]
    if not cards:
        raise RuleViolation(
            "wrong_tribute_count",
            "Cards the {role_t} gives: exactly {want}, not {count} (none given).",
            where,
            role_t=role_name(role),
            want=want,
            count=0,
        )
    if len(cards) != want:
        raise RuleViolation(
            "wrong_tribute_count",
            "Cards the {role_t} gives: exactly {want}, not {count} (given: {value}).",
            where,
            role_t=role_name(role),
            want=want,
            count=len(cards),
            value=cards_text(cards),
        )
    check_supply(Counter(cards), removed, where, CARDS_GIVEN)
    return sort_cards(cards)


def check_tribute(deal: Deal, tribute: CardsBy) -> None:
    """Check the tribute's cards exist, were held, and that the peasants gave their best."""
    ranks, hands = deal.ranks, deal.hands
    timing, removed = deal.rules.tax_timing, deal.rules.removed_ranks
    bound = dealt_lower_bound(tribute, {}, ranks, timing)
    check_supply(bound, removed, "tribute", TRIBUTE_CARDS)
    who = holders(ranks)
    for role, cards in tribute.items():
        giver = who[role]
        if giver not in hands:
            continue
        held = Counter(hands[giver])
        if timing == "sequential" and role in ANSWERS:
            held.update(tribute.get(ANSWERS[role], []))
        check_held(role, giver, cards, held)
        if TRIBUTE[role][2] == "best":
            check_best(role, giver, cards, hands[giver])
    bound = dealt_lower_bound(tribute, hands, ranks, timing)
    check_supply(bound, removed, "tribute", HANDS_AND_TRIBUTE)


def dealt_lower_bound(
    tribute: Mapping[str, list[Card]],
    hands: Mapping[str, list[Card]],
    ranks: Sequence[str],
    timing: str,
) -> Counter[Card]:
    """Return the cards known to have been dealt, counting each physical card once.

    An entered hand counts whole; a giver without one held at least what they gave, except
    that under sequential timing a Dalmuti may pass on cards the tribute brought them.
    """
    known: Counter[Card] = Counter()
    for hand in hands.values():
        known.update(hand)
    who = holders(ranks)
    for role, cards in tribute.items():
        if who[role] in hands:
            continue
        own = Counter(cards)
        if timing == "sequential" and role in ANSWERS:
            own -= Counter(tribute.get(ANSWERS[role], []))
        known.update(own)
    return known


def check_held(role: str, giver: str, cards: list[Card], held: Counter[Card]) -> None:
    """Raise ``card_not_in_hand`` unless every card given was in the giver's hand."""
    missing = Counter(cards) - held
    if missing:
        where = f"tribute.{role}"
        raise RuleViolation(
            "card_not_in_hand",
            "{giver} gave cards their hand ({hand}) does not hold: {missing}.",
            where,
            giver=giver,
            missing=cards_text(sort_cards(missing.elements())),
            hand=cards_text(sort_cards(held.elements())),
        )


def check_best(role: str, giver: str, cards: list[Card], hand: list[Card]) -> None:
    """Raise ``tribute_not_best`` unless a peasant gave their best non-jester cards."""
    best = sort_cards(card for card in hand if card != JESTER)[: len(cards)]
    if sort_cards(cards) != best:
        where = f"tribute.{role}"
        raise RuleViolation(
            "tribute_not_best",
            "{giver} must give the best of their hand, {best}, not {value}.",
            where,
            giver=giver,
            best=cards_text(best),
            value=cards_text(cards),
        )


# -- the merchants' trade (house rule) -------------------------------------------------------------


def merchant_trades(deal: Deal, raw: Any) -> list[list[str]]:
    """Return the merchants' blind swaps (house rule, recorded only): pairs of merchants."""
    table, ranks = deal.table, deal.ranks
    if raw is None or raw == []:
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
    roles = roles_of(ranks)
    seen: set[str] = set()
    trades: list[list[str]] = []
    for index, pair in enumerate(sequence(raw, "merchant_trades")):
        where = f"merchant_trades.{index}"
        names = [table.player(name, where) for name in sequence(pair, where)]
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
                value=", ".join(names),
            )
        trades.append(sorted(names, key=ranks.index))
    return trades


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


def say_trades(account: Account, trades: list[list[str]]) -> None:
    """Explain the merchants' blind swaps, one sentence each."""
    for first, second in trades:
        account.say(
            "Merchants {first} and {second} swapped one card each, blind.",
            first=first,
            second=second,
        )
