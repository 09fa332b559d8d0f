"""The Great Dalmuti's ranks: the roles, the ranks between hands and the deal's hand sizes.

The ranks are the players in rank order, Greater Dalmuti first; the seats follow them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from ..errors import N_, RuleViolation
from ..game import Table
from .cards import check_supply, deck_size, titles
from .rules import house_rules
from .shapes import Card, CardsBy

ROLES = ("greater_dalmuti", "lesser_dalmuti", "merchant", "lesser_peasant", "greater_peasant")

#: the roles' titles (en / de / ko / hu): the Amigo rules, the Korean seed, the Hungarian seed.
#: The English ones are marked: messages and explanations carry them as ``_t`` values (their
#: catalog entries should follow the seeds); pages take the titles from ROLE_NAMES directly.
ROLE_TABLE = (
    ("greater_dalmuti", N_("Greater Dalmuti"), "Großer Dalmuti", "달무티", "Nagy Dalmuti"),
    ("lesser_dalmuti", N_("Lesser Dalmuti"), "Kleiner Dalmuti", "총리대신", "Kis Dalmuti"),
    ("merchant", N_("Merchant"), "Kaufmann", "상인", "Kereskedő"),
    ("lesser_peasant", N_("Lesser Peasant"), "Kleiner Diener", "소작농", "Kis Paraszt"),
    ("greater_peasant", N_("Greater Peasant"), "Großer Diener", "농노", "Nagy Paraszt"),
)
ROLE_NAMES: dict[str, dict[str, str]] = titles(ROLE_TABLE)
#: the fewest players with a Lesser Dalmuti and a Lesser Peasant
LESSER_PAIR_FROM = 4

#: what holds too many copies of a card, in check_supply's message
HANDS_ENTERED = N_("The hands entered")


# -- roles -----------------------------------------------------------------------------------------


def role_name(role: str, language: str = "en") -> str:
    """Return a role's title in a language (en, de, ko, hu), e.g. 'Greater Peasant'."""
    return ROLE_NAMES.get(language, ROLE_NAMES["en"])[role]


def role_of(position: int, count: int) -> str:
    """Return the role at a rank position (1-based) among count players.

    With three players there are no merchants: the middle player is the Lesser Dalmuti (and,
    for scoring, the Lesser Peasant too: ``middle_of_three``), with no lesser pair to trade.
    """
    if position == 1:
        return "greater_dalmuti"
    if position == count:
        return "greater_peasant"
    if position == 2:
        return "lesser_dalmuti"
    if count >= LESSER_PAIR_FROM and position == count - 1:
        return "lesser_peasant"
    return "merchant"


def middle_of_three(position: int, count: int) -> bool:
    """Return True for the middle seat of three players, Lesser Dalmuti and Lesser Peasant at
    once (``role_of`` names it the Lesser Dalmuti; there is no lesser pair to exchange cards)."""
    return count == 3 and position == 2


def roles_of(ranks: Sequence[str]) -> dict[str, str]:
    """Return every player's role, by the rank order (Greater Dalmuti first)."""
    return {name: role_of(index, len(ranks)) for index, name in enumerate(ranks, 1)}


def holders(ranks: Sequence[str]) -> dict[str, str]:
    """Return role -> player for the single roles (everything but the merchants)."""
    return {role: name for name, role in roles_of(ranks).items() if role != "merchant"}


def ranks_in(table: Table, state: Mapping[str, object]) -> list[str]:
    """Return the current ranks from a state, or the public state shown from it (the seats
    before the first hand)."""
    ranks = state.get("ranks")
    return [str(name) for name in ranks] if isinstance(ranks, list) and ranks else [*table.players]


def hands_played_in(state: Mapping[str, object]) -> int:
    """Return the hands played before a state, or the public state shown from it."""
    played = state.get("hands_played", 0)
    return int(played) if isinstance(played, (int, float, str)) else 0


# -- the deal --------------------------------------------------------------------------------------


def hand_sizes(ranks: Sequence[str], rules: Mapping[str, object]) -> dict[str, int]:
    """Return each player's hand size: the deck dealt one by one, the odd cards by extra_cards_to.

    The Greater Peasant deals clockwise from the Greater Dalmuti, so by default the first D mod N
    ranks hold one card more; the Korean custom gives them from the Greater Peasant upwards.
    """
    base, extra = divmod(deck_size(rules), len(ranks))
    order = list(ranks)
    if house_rules(rules).extra_cards_to == "greater_peasant_first":
        order.reverse()
    sizes = {name: base + (1 if index < extra else 0) for index, name in enumerate(order)}
    return {name: sizes[name] for name in ranks}


def hands_dealt(rules: Mapping[str, object], ranks: list[str], sent: CardsBy) -> CardsBy:
    """Return the hands as dealt that were sent, each the size the deal gave, in rank order."""
    sizes = hand_sizes(ranks, rules)
    for name, cards in sent.items():
        if len(cards) != sizes[name]:
            raise RuleViolation(
                "wrong_hand_size",
                "{player} was dealt {want} cards as {role_t}, but {count} were entered.",
                f"hands.{name}",
                player=name,
                want=sizes[name],
                role_t=role_name(roles_of(ranks)[name]),
                count=len(cards),
            )
    known: Counter[Card] = Counter()
    for cards in sent.values():
        known.update(cards)
    check_supply(known, house_rules(rules).removed_ranks, "hands", HANDS_ENTERED)
    return {name: sent[name] for name in ranks if name in sent}
