"""The Great Dalmuti's tribute as given: read, and checked against the deck and the hands.

Under ``tax_timing`` "simultaneous" a Dalmuti gives from the hand as dealt; under "sequential"
they may pass on cards the tribute brought them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ..errors import N_, RuleViolation
from .cards import JESTER, cards_text, check_supply, sort_cards
from .options import option_label
from .ranks import LESSER_PAIR_FROM, holders, role_name
from .rules import DalmutiRules, house_rules
from .shapes import Card, CardsBy, Deal, TributeSent
from .tax import (
    ANSWERS,
    LESSER_GIVERS,
    TRIBUTE,
    givers,
    no_tax_reason,
    tribute_due,
    tribute_required,
)

#: what holds too many copies of a card, in check_supply's message
TRIBUTE_CARDS = N_("The tribute's cards")
HANDS_AND_TRIBUTE = N_("The hands entered and the tribute's cards")
CARDS_GIVEN = N_("The cards given")


def tribute_given(
    deal: Deal, sent: TributeSent | None, paid: bool, partial: bool
) -> CardsBy | None:
    """Return the tax as given (by giving role), checked; ``paid`` leaves roles unrequired."""
    if sent is None:
        if deal.due and not partial:
            raise tribute_required(tribute_due(deal.ranks, deal.rules, deal.hands_played))
        return None
    if not deal.due:
        raise no_tax_this_hand(deal)
    roles = givers(len(deal.ranks), deal.rules)
    check_giving_roles(sent, roles, len(deal.ranks), deal.rules)
    tribute = tribute_by_role(sent, roles, deal.rules, partial or paid)
    check_tribute(deal, tribute)
    return tribute


def no_tax_this_hand(deal: Deal) -> RuleViolation:
    """Return ``tribute_not_allowed`` for a tribute in a hand that pays no tax, saying why."""
    if deal.revolution is not None:
        return RuleViolation(
            "tribute_not_allowed",
            "No tax is paid this hand ({player} declared a revolution), so no tribute.",
            "tribute",
            player=deal.revolution["player"],
        )
    return RuleViolation(
        "tribute_not_allowed",
        "No tax is paid this hand ({why_t}), so no tribute.",
        "tribute",
        why_t=no_tax_reason(deal.rules),
    )


def check_giving_roles(
    sent: TributeSent, roles: Sequence[str], count: int, rules: DalmutiRules
) -> None:
    """Refuse a tribute from a Lesser role that gives nothing at this table."""
    for key, cards in sent.items():
        if key in LESSER_GIVERS and key not in roles and cards:
            raise lesser_not_allowed(key, count, rules.lesser_tax_min_players)


def tribute_by_role(
    sent: TributeSent, roles: Sequence[str], rules: DalmutiRules, partial: bool
) -> CardsBy:
    """Return each giving role's cards checked; a missing one is refused unless ``partial``."""
    tribute: CardsBy = {}
    for role in roles:
        cards = sent.get(role)
        if cards is None:
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
            role, cards, rules.removed_ranks, jester_back=may_give_jester(rules, role)
        )
    return tribute


def lesser_not_allowed(role: str, count: int, least: int) -> RuleViolation:
    """Return ``tribute_not_allowed`` for a lesser tribute at a table too small for one."""
    where = f"tribute.{role}"
    if count < LESSER_PAIR_FROM:
        return RuleViolation(
            "tribute_not_allowed",
            "With {count} players there is no {lp_t} or {ld_t}, so no tribute from the {role_t}.",
            where,
            count=count,
            lp_t=role_name("lesser_peasant"),
            ld_t=role_name("lesser_dalmuti"),
            role_t=role_name(role),
        )
    return RuleViolation(
        "tribute_not_allowed",
        "With {count} players only the {gp_t} and the {gd_t} exchange cards (the house rule "
        "“{rule_t}” asks for {least} players for the Lesser pair), so no tribute from the "
        "{role_t}.",
        where,
        count=count,
        least=least,
        gp_t=role_name("greater_peasant"),
        gd_t=role_name("greater_dalmuti"),
        rule_t=option_label("lesser_tax_min_players"),
        role_t=role_name(role),
    )


def may_give_jester(rules: Mapping[str, object], role: str) -> bool:
    """Return True when this giving role may give a jester: a Dalmuti under the house rule."""
    return role in ANSWERS and house_rules(rules).dalmuti_may_return_jester


def tribute_cards(
    role: str, cards: list[Card], removed: Iterable[int], *, jester_back: bool = False
) -> list[Card]:
    """Return one role's tribute: as many cards as the role gives, in the deck, best first.

    Jesters never change hands, unless ``jester_back`` (``dalmuti_may_return_jester``, for
    a Dalmuti's return gift only).
    """
    where = f"tribute.{role}"
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
