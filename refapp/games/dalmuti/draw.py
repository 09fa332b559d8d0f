"""The Great Dalmuti's first hand: the ranks from the seating draw, and its ties.

Each player draws a card; the lowest number is the Greater Dalmuti, a jester the worst draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from ..errors import MalformedInput, RuleViolation, quote
from ..game import Table
from ..inputs import mapping
from .cards import card_value, parse_card
from .options import option_label
from .rules import house_rules
from .shapes import Card, DalmutiState

#: one player's cards in the seating draw, first draw first
Draws = tuple[Card, ...]


def first_state(
    players: Sequence[str], rules: Mapping[str, object], setup: Mapping[str, object]
) -> DalmutiState:
    """Return the state before the first hand: the ranks as seated, or from ``initial_draw``."""
    draw = setup.get("initial_draw") if setup else None
    ties = house_rules(rules).draw_ties
    ranks = list(players) if draw is None else ranks_from_draw(players, draw, ties)
    return {"ranks": ranks, "hands_played": 0}


def ranks_from_draw(players: Sequence[str], raw: object, ties: str = "among_tied") -> list[str]:
    """Return the first ranks from the initial draw: lowest card first, a jester the worst.

    A draw is a card, or a list of cards, first draw first. Under ``draw_ties`` "among_tied"
    tied players draw again only to order themselves, so they keep their place above everyone
    who drew worse and below everyone who drew better ({"Ann": [3, 9], "Ben": [3, 7], "Cy": 5}
    ranks Ben, Ann, Cy); under "redraw" the last card of each list places its player among
    everyone ({"Ann": 3, "Ben": [3, 7], "Cy": 5} ranks Ann, Cy, Ben). A tie left unbroken is
    ``draw_tie``; a list where none was needed is accepted.
    """
    draws = draws_entered(players, raw)
    if ties == "redraw":
        return ranks_by_last_draw(players, draws)
    keys = {name: tuple(card_value(card) for card in draws[name]) for name in players}
    ranks = sorted(players, key=lambda name: keys[name])
    for better, worse in pairwise(ranks):
        if keys[worse][: len(keys[better])] == keys[better]:
            first, second = sorted((better, worse), key=list(players).index)
            raise draw_tie(first, second, draws[better])
    return ranks


def ranks_by_last_draw(players: Sequence[str], draws: Mapping[str, Draws]) -> list[str]:
    """Return the ranks by each player's last card (``redraw``): two equal last cards tie."""
    ranks = sorted(players, key=lambda name: card_value(draws[name][-1]))
    for better, worse in pairwise(ranks):
        if draws[better][-1] == draws[worse][-1]:
            first, second = sorted((better, worse), key=list(players).index)
            raise RuleViolation(
                "draw_tie",
                "{first} and {second} both hold {card} as their last draw; under the house "
                "rule “{rule_t}” a rank someone already drew is drawn again, so add the next "
                "card one of them drew to their list.",
                f"initial_draw.{second}",
                first=first,
                second=second,
                card=quote(draws[better][-1]),
                rule_t=option_label("draw_ties"),
            )
    return ranks


def draws_entered(players: Sequence[str], raw: object) -> dict[str, Draws]:
    """Return every seated player's draws, first draw first; each player once, none missing."""
    given = mapping(raw, "initial_draw")
    table = Table(tuple(players))
    draws: dict[str, Draws] = {}
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
    return draws


def draw_cards(value: object, where: str) -> Draws:
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
