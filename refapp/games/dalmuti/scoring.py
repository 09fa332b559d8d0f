"""The Great Dalmuti's score: finishing order, points per hand, rising bonus, hands left.

The finishing order of a hand is the next hand's ranks. The score's facts (who finished below
whom, the roles reached, the peasants' rise) are worked out here; ``explain`` says them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import RuleViolation, quote
from ..game import Account, Table, signed
from ..inputs import missing as missing_field
from .explain import say_place, say_rising
from .ranks import LESSER_PAIR_FROM, hands_played_in, middle_of_three, role_of, roles_of
from .rules import house_rules
from .shapes import DalmutiResult, Deal, Facts, RisingFact

#: ``role_chips``: the chip each finishing role earns (a Korean club custom)
ROLE_CHIPS = {
    "greater_dalmuti": 4,
    "lesser_dalmuti": 3,
    "merchant": 2,
    "lesser_peasant": 1,
    "greater_peasant": 0,
}
#: with three players the middle seat is Lesser Dalmuti and Lesser Peasant at once: its chip
MIDDLE_OF_THREE_CHIP = 3


def finish_order(table: Table, order: list[str] | None) -> list[str]:
    """Return the finishing order: every seated player exactly once, first out first."""
    if order is None:
        raise missing_field("finish_order")
    for index, name in enumerate(order):
        if name in order[:index]:
            raise RuleViolation(
                "finish_order_invalid",
                "{value} is listed twice in the finishing order; name every player once.",
                "finish_order",
                value=quote(name),
            )
    missing = [name for name in table.players if name not in order]
    if missing:
        raise RuleViolation(
            "finish_order_invalid",
            "The finishing order leaves out {missing}; name every player once.",
            "finish_order",
            missing=missing,
        )
    return order


def points(position: int, count: int, scoring: str = "players_below") -> int:
    """Return the points for finishing at a position (1-based): one per player below (+1), or
    the chip of the role reached (``role_chips``)."""
    if scoring == "role_chips":
        return chip(position, count)
    below = count - position
    return below + 1 if scoring == "players_below_plus_one" else below


def chip(position: int, count: int) -> int:
    """Return the ``role_chips`` chip of a finishing position: 4, 3, 2 per merchant, 1, 0."""
    if middle_of_three(position, count):
        return MIDDLE_OF_THREE_CHIP
    return ROLE_CHIPS[role_of(position, count)]


def rising(during: Sequence[str], finish: Sequence[str]) -> list[RisingFact]:
    """Return each pair's rise: the hand's Greater (Lesser) Dalmuti, its peasant, the peasant's
    place during the hand and where they finished, and the places risen (never below 0)."""
    count = len(during)
    pairs = [(during[0], during[-1], count)]
    if count >= LESSER_PAIR_FROM:
        pairs.append((during[1], during[-2], count - 1))
    facts: list[RisingFact] = []
    for top, low, was in pairs:
        place = finish.index(low) + 1
        facts.append(
            {
                "dalmuti": top,
                "peasant": low,
                "place_before": was,
                "place_after": place,
                "risen": max(0, was - place),
            }
        )
    return facts


def score_facts(during: Sequence[str], finish: Sequence[str], rules: Mapping[str, object]) -> Facts:
    """Return the facts a hand's points rest on: how many finished below each player, the role
    each one reached, and (with ``rising_bonus``) each peasant's rise."""
    count = len(finish)
    facts: Facts = {
        "finished_below": {name: count - index for index, name in enumerate(finish, 1)},
        "finishing_roles": roles_of(finish),
    }
    if house_rules(rules).rising_bonus:
        facts["rising"] = rising(during, finish)
    return facts


def score_hand(
    during: Sequence[str],
    finish: Sequence[str],
    rules: Mapping[str, object],
    account: Account | None = None,
    facts: Facts | None = None,
) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """Return (points by finish, rising bonus, sentences) for a hand's finishing order.

    The sentences are said into account (a new one if not given) from the score's facts (added
    to ``facts`` if given) and returned in English.
    """
    typed = house_rules(rules)
    account = Account() if account is None else account
    start = len(account.lines)
    found = score_facts(during, finish, rules)
    if facts is not None:
        facts.update(found)
    count = len(finish)
    base: dict[str, int] = {}
    for position, name in enumerate(finish, 1):
        base[name] = points(position, count, typed.scoring)
        say_place(account, typed.scoring, name, position, count, base[name])
    bonus = dict.fromkeys(finish, 0)
    roles = roles_of(during)
    for item in found.get("rising", []):
        bonus[item["dalmuti"]] += item["risen"]
        say_rising(account, item, roles)
    return base, bonus, account.lines[start:]


def hand_result(deal: Deal, finish: Sequence[str], account: Account, facts: Facts) -> DalmutiResult:
    """Score a checked hand and explain every point (after the preface already said)."""
    revolution = deal.revolution
    base, bonus, _lines = score_hand(deal.during, finish, deal.rules, account, facts)
    deltas = {name: base[name] + bonus[name] for name in deal.table.players}
    account.say(
        "This hand: {deltas}.",
        deltas=", ".join(f"{p} {signed(d)}" for p, d in deltas.items()),
    )
    result: DalmutiResult = {
        "deltas": deltas,
        **account.result(),
        "ranks_before": list(deal.ranks),
        "ranks_during": deal.during,
        "ranks_after": list(finish),
        "revolution": revolution["kind"] if revolution else None,
        "revolution_by": revolution["player"] if revolution else None,
        "tax": deal.due,
        "points": base,
        "facts": facts,
    }
    if deal.rules.rising_bonus:
        result["rising_bonus"] = bonus
    return result


def hands_count(rules: Mapping[str, object], hands_played: int) -> dict[str, int | None]:
    """Return the hands played, the hands_to_play agreed (None: open) and how many are left."""
    total = house_rules(rules).hands_to_play
    return {
        "hands_played": hands_played,
        "hands_total": total,
        "hands_left": None if total is None else max(0, total - hands_played),
    }


def session_over(rules: Mapping[str, object], state: Mapping[str, object]) -> bool:
    """Return True once hands_to_play hands are played (never, without a count)."""
    total = house_rules(rules).hands_to_play
    return total is not None and hands_played_in(state) >= total
