"""The kill (6마, 7마): after the auction the boss names a card and its holder is out of the hand.

A named card in the kitty or in the boss's own hand is a miss: the boss names another. The input
is ``{"card", "player", "misses"}``, a list of two at seven seats. The project's account of
it is the heading "Four, six and seven seats" of the Mighty rules in docs/rules.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import MalformedInput, Refusal, RuleViolation, quote
from ...inputs import mapping, require, sequence
from ..cards import Face, parse_card
from ..house_rules.rules import MightyTable
from ..shapes import Kill
from .deal import TableDeal


def read_kills(
    table: MightyTable, deal: TableDeal, given: object, boss: str | None, partial: bool
) -> list[Kill] | None:
    """Return the hand's kills in the order named (None: a dry run that sent none).

    ``table`` is the auction's players; refuses a kill where the table kills nobody, a missing
    one, a card twice, a player killed twice or the boss (``invalid_kill``).
    """
    if deal.kills == 0:
        if given is not None:
            raise RuleViolation(
                "invalid_kill",
                "Nobody is killed at this table (a table of {seats}, under its house rules), so "
                "a hand has no kill.",
                "kill",
                seats=deal.seats,
            )
        return []
    if given is None:
        if partial:
            return None
        raise MalformedInput(
            "missing_field",
            "The boss kills {count} this hand: name the card and the player holding it (and "
            "any misses).",
            "kill",
            count=deal.kills,
        )
    items, paths = _items(deal, given)
    kills: list[Kill] = []
    named: list[str] = []
    for item, path in zip(items, paths, strict=True):
        kill = _kill(table, mapping(item, path), path, boss, named)
        if any(kill["player"] == done["player"] for done in kills):
            raise RuleViolation(
                "invalid_kill",
                "{player} is already killed: a player is killed once.",
                f"{path}.player",
                player=kill["player"],
            )
        kills.append(kill)
    return kills


def stored_kill(kills: list[Kill]) -> Kill | list[Kill]:
    """Return the kills as the input writes them: one object, or a list of two."""
    return kills[0] if len(kills) == 1 else kills


def _items(deal: TableDeal, given: object) -> tuple[list[object], list[str]]:
    """Return the kills as entered with their paths: one object, or a list of two."""
    if deal.kills == 1 and isinstance(given, Mapping):
        return [given], ["kill"]
    pair = isinstance(given, list) and len(given) == 2
    if deal.kills == 2 and isinstance(given, list) and pair and _objects(given):
        return list(given), ["kill.1", "kill.2"]
    if deal.kills == 1:
        raise RuleViolation(
            "invalid_kill",
            "The boss kills one player at a table of six: name one card and the player holding it.",
            "kill",
        )
    raise RuleViolation(
        "invalid_kill",
        "The boss kills two players at a table of seven: name two cards, each with the player "
        "holding it.",
        "kill",
    )


def _objects(items: list[object]) -> bool:
    """Return True when every item is a JSON object."""
    return all(isinstance(item, Mapping) for item in items)


def _kill(
    table: MightyTable, given: Mapping[str, object], path: str, boss: str | None, named: list[str]
) -> Kill:
    """Return one kill checked; ``named`` gathers every card named so far (misses included)."""
    misses = [
        _card(text, f"{path}.misses.{index}", named)
        for index, text in enumerate(sequence(given.get("misses") or [], f"{path}.misses"), 1)
    ]
    card = _card(require(given, "card", f"{path}.card"), f"{path}.card", named)
    player = table.player(require(given, "player", f"{path}.player"), f"{path}.player")
    if player == boss:
        raise RuleViolation(
            "invalid_kill",
            "{player} is the boss and cannot be killed: a card in the boss's own hand is a miss.",
            f"{path}.player",
            player=player,
        )
    kill: Kill = {"card": card, "player": player}
    if misses:
        kill["misses"] = misses
    return kill


def _card(text: object, where: str, named: list[str]) -> str:
    """Return a named card, refusing a non-card or one named before (``invalid_kill``)."""
    try:
        card = parse_card(text, where)
    except Refusal:
        raise RuleViolation(
            "invalid_kill",
            "{value} is not a card: name a card as players write it (♠A, ♥10, the joker).",
            where,
            value=quote(text),
        ) from None
    if card in named:
        raise RuleViolation(
            "invalid_kill",
            "{card} was already named in this hand: each card is named once.",
            where,
            card=Face(card),
        )
    named.append(card)
    return card
