"""The Great Dalmuti's ranks: roles, the first-hand draw, the deal's hand sizes and revolutions.

The ranks are the players in rank order, Greater Dalmuti first; the seats follow them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from ..errors import N_, MalformedInput, RuleViolation, quote
from ..game import Account, Table
from ..inputs import mapping, require, sequence
from .cards import (
    JESTER,
    JESTER_COPIES,
    card_value,
    check_supply,
    deck_size,
    parse_card,
    sort_cards,
    titles,
)
from .options import house_rules, option_label
from .shapes import Card, CardsBy, Revolution

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

REVOLUTION_KINDS = ("plain", "greater")
#: what holds too many copies of a card, in check_supply's message
HANDS_ENTERED = N_("The hands entered")


# -- roles -----------------------------------------------------------------------------------------


def role_name(role: str, language: str = "en") -> str:
    """Return a role's title in a language (en, de, ko, hu), e.g. 'Greater Peasant'."""
    return ROLE_NAMES.get(language, ROLE_NAMES["en"])[role]


def role_of(position: int, count: int) -> str:
    """Return the role at a rank position (1-based) among count players.

    With three players there is no lesser pair: the middle player is a merchant.
    """
    if position == 1:
        return "greater_dalmuti"
    if position == count:
        return "greater_peasant"
    if count >= 4 and position == 2:
        return "lesser_dalmuti"
    if count >= 4 and position == count - 1:
        return "lesser_peasant"
    return "merchant"


def roles_of(ranks: Sequence[str]) -> dict[str, str]:
    """Return every player's role, by the rank order (Greater Dalmuti first)."""
    return {name: role_of(index, len(ranks)) for index, name in enumerate(ranks, 1)}


def holders(ranks: Sequence[str]) -> dict[str, str]:
    """Return role -> player for the single roles (everything but the merchants)."""
    return {role: name for name, role in roles_of(ranks).items() if role != "merchant"}


def ranks_in(table: Table, state: Mapping[str, Any]) -> list[str]:
    """Return the current ranks from the state (the seats before the first hand)."""
    return list(state.get("ranks") or table.players)


# -- the first hand's draw -------------------------------------------------------------------------


def ranks_from_draw(players: Sequence[str], raw: Any) -> list[str]:
    """Return the first ranks from the initial draw: lowest card first, a jester the worst.

    A draw is a card, or a list of cards, first draw first: tied players draw again only to
    order themselves, so they keep their place above everyone who drew worse and below
    everyone who drew better ({"Ann": [3, 9], "Ben": [3, 7], "Cy": 5} ranks Ben, Ann, Cy).
    A tie left unbroken is ``draw_tie``.
    """
    given = mapping(raw, "initial_draw")
    table = Table(tuple(players))
    draws: dict[str, tuple[int | str, ...]] = {}
    for key, value in given.items():
        name = table.player(key, f"initial_draw.{key}")
        where = f"initial_draw.{name}"
        if name in draws:
            raise MalformedInput(
                "invalid_value",
                "{value} has two draws in the seating draw.",
                where,
                value=quote(name),
            )
        draws[name] = draw_cards(value, where)
    for name in players:
        if name not in draws:
            path = f"initial_draw.{name}"
            raise MalformedInput("missing_field", "The field {path} is required.", path, path=path)
    keys = {name: tuple(card_value(card) for card in draws[name]) for name in players}
    ranks = sorted(players, key=lambda name: keys[name])
    for better, worse in pairwise(ranks):
        if keys[worse][: len(keys[better])] == keys[better]:
            first, second = sorted((better, worse), key=list(players).index)
            raise draw_tie(first, second, draws[better])
    return ranks


def draw_cards(value: Any, where: str) -> tuple[int | str, ...]:
    """Return one player's draws, first draw first: a card, or a list of one card or more."""
    if not isinstance(value, list):
        return (parse_card(value, where),)
    if not value:
        raise MalformedInput(
            "invalid_value",
            "{where} must be a card or a list of the cards drawn, first draw first, not an "
            "empty list.",
            where,
            where=where,
        )
    return tuple(parse_card(card, f"{where}.{index}") for index, card in enumerate(value))


def draw_tie(first: str, second: str, cards: Sequence[int | str]) -> RuleViolation:
    """Return ``draw_tie`` for two players whose draws do not tell them apart."""
    if len(cards) == 1:
        return RuleViolation(
            "draw_tie",
            "{first} and {second} both drew {card}; tied players draw again, so enter "
            "their new draws.",
            f"initial_draw.{second}",
            first=first,
            second=second,
            card=quote(cards[0]),
        )
    return RuleViolation(
        "draw_tie",
        "{first} and {second} are still tied after drawing {cards}; tied players draw "
        "again until the tie is broken, so add their next draws to their lists.",
        f"initial_draw.{second}",
        first=first,
        second=second,
        cards=", ".join(quote(card) for card in cards),
    )


# -- the deal --------------------------------------------------------------------------------------


def hand_sizes(ranks: Sequence[str], rules: Mapping[str, Any]) -> dict[str, int]:
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


def hands_dealt(table: Table, rules: Mapping[str, Any], ranks: list[str], raw: Any) -> CardsBy:
    """Return the hands as dealt that were entered, each the size the deal gave."""
    if raw is None:
        return {}
    given = mapping(raw, "hands")
    sizes = hand_sizes(ranks, rules)
    hands: CardsBy = {}
    for key, value in given.items():
        name = table.player(key, f"hands.{key}")
        where = f"hands.{name}"
        if name in hands:
            raise MalformedInput(
                "invalid_value", "{value} has two hands.", where, value=quote(name)
            )
        cards = sort_cards(parse_card(card, where) for card in sequence(value, where))
        if len(cards) != sizes[name]:
            raise RuleViolation(
                "wrong_hand_size",
                "{player} was dealt {want} cards as {role_t}, but {count} were entered.",
                where,
                player=name,
                want=sizes[name],
                role_t=role_name(roles_of(ranks)[name]),
                count=len(cards),
            )
        hands[name] = cards
    known: Counter[Card] = Counter()
    for cards in hands.values():
        known.update(cards)
    check_supply(known, house_rules(rules).removed_ranks, "hands", HANDS_ENTERED)
    return {name: hands[name] for name in ranks if name in hands}


# -- revolutions -----------------------------------------------------------------------------------


def revolution_kinds(
    ranks: Sequence[str], player: str, rules: Mapping[str, Any]
) -> tuple[str, ...]:
    """Return the revolutions a player dealt both jesters may declare.

    The Greater Peasant (with ``greater_revolution``) and, under ``lesser_peasant_revolution``,
    the Lesser Peasant may reverse the ranks; with ``gp_may_choose_plain`` they may also keep the
    ranks and only cancel the tax. Everyone else may only declare a plain revolution.
    """
    typed = house_rules(rules)
    role = roles_of(ranks)[player]
    greater = (role == "greater_peasant" and typed.greater_revolution) or (
        role == "lesser_peasant" and typed.lesser_peasant_revolution
    )
    if not greater:
        return ("plain",)
    return REVOLUTION_KINDS if typed.gp_may_choose_plain else ("greater",)


def greater_revolution_by(ranks: Sequence[str], rules: Mapping[str, Any]) -> list[str]:
    """Return who may reverse the ranks with both jesters, best rank first (peasants at most)."""
    return [name for name in ranks if "greater" in revolution_kinds(ranks, name, rules)]


def revolt(ranks: Sequence[str], revolution: Revolution | None) -> list[str]:
    """Return the ranks during the hand: a greater revolution reverses them, a plain one not.

    The Greater Peasant's reverses every rank (new = N + 1 - old); the Lesser Peasant's reverses
    ranks 1..N-1 (new = N - old) and leaves the Greater Peasant last.
    """
    ranks = list(ranks)
    if not revolution or revolution["kind"] != "greater":
        return ranks
    if revolution["player"] == ranks[-1]:
        return ranks[::-1]
    return ranks[-2::-1] + ranks[-1:]


def revolution_declared(
    table: Table, rules: Mapping[str, Any], ranks: list[str], hands: CardsBy, raw: Any
) -> Revolution | None:
    """Return the revolution declared, if any: who and which kind, checked."""
    if raw is None:
        return None
    given = mapping(raw, "revolution")
    player = table.player(require(given, "player", "revolution.player"), "revolution.player")
    kind = require(given, "kind", "revolution.kind")
    if not isinstance(kind, str) or kind.strip().lower() not in REVOLUTION_KINDS:
        raise MalformedInput(
            "invalid_value",
            "A revolution is 'plain' or 'greater', not {value}.",
            "revolution.kind",
            value=quote(kind),
        )
    kind = kind.strip().lower()
    allowed = revolution_kinds(ranks, player, rules)
    if kind not in allowed:
        raise _kind_refused(ranks, player, kind, rules)
    _check_jesters(player, hands)
    return {"player": player, "kind": kind}


def _kind_refused(
    ranks: list[str], player: str, kind: str, rules: Mapping[str, Any]
) -> RuleViolation:
    """Return the error for a revolution kind the declarer may not choose."""
    roles = roles_of(ranks)
    who = {"who": player, "role_t": role_name(roles[player])}
    if kind == "plain":
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) holds both jesters, and under these house rules that is a "
            "greater revolution, not a plain one (the house rule “{rule_t}” is off).",
            "revolution.kind",
            rule_t=option_label("gp_may_choose_plain"),
            **who,
        )
    entitled = greater_revolution_by(ranks, rules)
    if not entitled:
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
            "nobody under these house rules.",
            "revolution.kind",
            **who,
        )
    if len(entitled) == 1:
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
            "{first} ({first_role_t}).",
            "revolution.kind",
            **who,
            first=entitled[0],
            first_role_t=role_name(roles[entitled[0]]),
        )
    first, second = entitled[0], entitled[-1]  # the two peasants at most
    return RuleViolation(
        "revolution_kind_not_allowed",
        "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
        "{first} ({first_role_t}) or {second} ({second_role_t}).",
        "revolution.kind",
        **who,
        first=first,
        first_role_t=role_name(roles[first]),
        second=second,
        second_role_t=role_name(roles[second]),
    )


def _check_jesters(player: str, hands: CardsBy) -> None:
    """Refuse a revolution when the hands entered show the declarer lacks both jesters."""
    if player in hands and hands[player].count(JESTER) < JESTER_COPIES:
        raise RuleViolation(
            "revolution_without_jesters",
            "{player} declared a revolution but was dealt only {count} of the two jesters; "
            "it takes both.",
            "revolution.player",
            player=player,
            count=hands[player].count(JESTER),
        )
    for name, hand in hands.items():
        if name != player and JESTER in hand:
            raise RuleViolation(
                "revolution_without_jesters",
                "{other} was dealt a jester, so {player} cannot hold both to declare a revolution.",
                "revolution.player",
                other=name,
                player=player,
            )


def say_revolution(
    account: Account, ranks: Sequence[str], during: list[str], revolution: Revolution
) -> None:
    """Explain a revolution declared: who, which kind, and the ranks it leaves for the hand."""
    who = revolution["player"]
    role = role_name(roles_of(ranks)[who])
    if revolution["kind"] == "greater":
        account.say(
            "{who} ({role_t}) declared a greater revolution with both jesters: the ranks "
            "for this hand are {ranks}, and no tax is paid.",
            who=who,
            role_t=role,
            ranks=", ".join(during),
        )
    else:
        account.say(
            "{who} ({role_t}) declared a revolution with both jesters: no tax is paid, "
            "the ranks stay.",
            who=who,
            role_t=role,
        )
