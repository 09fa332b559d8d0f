"""A Dalmuti hand as sent, parsed once: the request body becomes a `HandEntry`.

Parsing reads the shape only (objects and lists, seated names, cards, a revolution's kind); what
the rules say of the values (hand sizes, who may declare what, the tax) is checked afterwards on
the parsed entry (``hand``, ``tribute``, ``trades``, ``scoring``), never on the body.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import MalformedInput, quote
from ..game import Table
from ..inputs import mapping, require, sequence
from .cards import parse_card, parse_cards, sort_cards
from .revolution import REVOLUTION_KINDS
from .shapes import CardsBy, HandEntry, Revolution, TributeSent
from .tax import LESSER_GIVERS, givers


def parse_hand(table: Table, raw: object) -> HandEntry:
    """Return the hand's body parsed, or raise the refusal of the first part out of shape."""
    body = mapping(raw, "round")
    tribute = body.get("tribute")
    return HandEntry(
        hands=hands_sent(table, body.get("hands")),
        revolution=revolution_sent(table, body.get("revolution")),
        tribute=tribute_sent(table, tribute),
        paid=paid_sent(tribute),
        merchant_trades=trades_sent(table, body.get("merchant_trades")),
        finish_order=order_sent(table, body.get("finish_order")),
    )


def hands_sent(table: Table, raw: object) -> CardsBy:
    """Return the hands as dealt that were sent, by seated player, each sorted best first."""
    if raw is None:
        return {}
    hands: CardsBy = {}
    for key, value in mapping(raw, "hands").items():
        name = table.player(key, f"hands.{key}")
        where = f"hands.{name}"
        if name in hands:
            raise MalformedInput(
                "invalid_value", "{value} has two hands.", where, value=quote(name)
            )
        hands[name] = sort_cards(parse_card(card, where) for card in sequence(value, where))
    return hands


def revolution_sent(table: Table, raw: object) -> Revolution | None:
    """Return the revolution sent, if any: a seated player and ``plain`` or ``greater``."""
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
    return {"player": player, "kind": kind.strip().lower()}


def tribute_sent(table: Table, raw: object) -> TributeSent | None:
    """Return the tribute sent by giving role (None: no tribute at all, or an empty one).

    A role's cards are read; a role left out or sent as null is None. A key that is no giving
    role at this table (nor one of the Lesser pair, refused by the rules) is ``invalid_value``.
    """
    if raw is None or (isinstance(raw, Mapping) and not raw):
        return None
    given = {key: value for key, value in mapping(raw, "tribute").items() if key != "paid"}
    paid_sent(raw)
    roles = givers(table.size, table.rules)
    for key in given:
        if key not in roles and key not in LESSER_GIVERS:
            raise MalformedInput(
                "invalid_value",
                "{value} is not a giving role in the tax; the roles are {roles}.",
                f"tribute.{key}",
                value=quote(key),
                roles=", ".join(roles),
            )
    return {
        role: None if value is None else parse_cards(value, f"tribute.{role}")
        for role, value in given.items()
    }


def paid_sent(raw: object) -> bool:
    """Return True when the tribute says the tax was paid as due (``"paid": true``)."""
    if not isinstance(raw, Mapping) or raw.get("paid") is None:
        return False
    paid = raw["paid"]
    if not isinstance(paid, bool):
        raise MalformedInput(
            "invalid_value",
            "Whether the tax was paid as due is true or false, not {value}.",
            "tribute.paid",
            value=quote(paid),
        )
    return paid


def trades_sent(table: Table, raw: object) -> list[list[str]]:
    """Return the merchants' swaps sent: each a list of seated names (pairs checked later)."""
    if raw is None or raw == []:
        return []
    trades: list[list[str]] = []
    for index, pair in enumerate(sequence(raw, "merchant_trades")):
        where = f"merchant_trades.{index}"
        trades.append([table.player(name, where) for name in sequence(pair, where)])
    return trades


def order_sent(table: Table, raw: object) -> list[str] | None:
    """Return the finishing order sent as seated names (None: not sent, as a dry run may)."""
    if raw is None:
        return None
    return [table.player(value, "finish_order") for value in sequence(raw, "finish_order")]
