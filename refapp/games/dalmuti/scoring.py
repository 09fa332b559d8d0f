"""The Great Dalmuti's score: finishing order, points per hand, rising bonus, hands left.

The finishing order of a hand is the next hand's ranks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import N_, RuleViolation, quote
from ..game import Account, Table, signed
from ..inputs import sequence
from .options import house_rules
from .ranks import role_name, roles_of
from .shapes import DalmutiResult, Deal

SCORING_NOTE = {
    "players_below": N_("one for each player who finished below"),
    "players_below_plus_one": N_("one for each player who finished below, plus one"),
}
#: the finishing places as words (ten players at most); a template also gets the bare number
ORDINALS = (
    N_("1st"),
    N_("2nd"),
    N_("3rd"),
    N_("4th"),
    N_("5th"),
    N_("6th"),
    N_("7th"),
    N_("8th"),
    N_("9th"),
    N_("10th"),
)


def finish_order(table: Table, raw: Any) -> list[str]:
    """Return the finishing order: every seated player exactly once, first out first."""
    order = [table.player(value, "finish_order") for value in sequence(raw, "finish_order")]
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
            missing=", ".join(missing),
        )
    return order


def ordinal(number: int) -> str:
    """Write 1st, 2nd, 3rd, 4th, ... 11th (up to 10th a word marked for translation)."""
    if 1 <= number <= len(ORDINALS):
        return ORDINALS[number - 1]
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    if 10 <= number % 100 <= 20:
        suffix = "th"
    return f"{number}{suffix}"


def points(position: int, count: int, scoring: str = "players_below") -> int:
    """Return the points for finishing at a position (1-based): one per player below (+1)."""
    below = count - position
    return below + 1 if scoring == "players_below_plus_one" else below


def rising_bonuses(during: Sequence[str], finish: Sequence[str]) -> list[tuple[str, str, int]]:
    """Return (Dalmuti, peasant, positions risen) for the greater and the lesser pair."""
    count = len(during)
    pairs = [(during[0], during[-1], count)]
    if count >= 4:
        pairs.append((during[1], during[-2], count - 1))
    return [(top, low, max(0, was - (finish.index(low) + 1))) for top, low, was in pairs]


def score_hand(
    during: Sequence[str],
    finish: Sequence[str],
    rules: Mapping[str, Any],
    account: Account | None = None,
) -> tuple[dict[str, int], dict[str, int], list[str]]:
    """Return (points by finish, rising bonus, sentences) for a hand's finishing order.

    The sentences are said into account (a new one if not given) and returned in English.
    """
    rules = house_rules(rules)
    account = Account() if account is None else account
    start = len(account.lines)
    count = len(finish)
    note = SCORING_NOTE[rules["scoring"]]
    base: dict[str, int] = {}
    for position, name in enumerate(finish, 1):
        base[name] = points(position, count, rules["scoring"])
        say_place(account, name, position, count, base[name], note)
    bonus = dict.fromkeys(finish, 0)
    if rules["rising_bonus"]:
        roles = roles_of(during)
        for top, low, risen in rising_bonuses(during, finish):
            if not risen:
                continue  # a peasant who did not rise earns their Dalmuti nothing to explain
            bonus[top] += risen
            place = finish.index(low) + 1
            values = {
                "peasant": low,
                "peasant_role_t": role_name(roles[low]),
                "place_t": ordinal(place),
                "place": place,
                "risen": risen,
                "bonus": signed(risen),
                "dalmuti": top,
                "dalmuti_role_t": role_name(roles[top]),
            }
            if risen == 1:
                account.say(
                    "Rising bonus: {peasant} ({peasant_role_t}) finished {place_t}, {risen} place "
                    "up: {bonus} to {dalmuti} ({dalmuti_role_t}).",
                    **values,
                )
            else:
                account.say(
                    "Rising bonus: {peasant} ({peasant_role_t}) finished {place_t}, {risen} places "
                    "up: {bonus} to {dalmuti} ({dalmuti_role_t}).",
                    **values,
                )
    return base, bonus, account.lines[start:]


def say_place(account: Account, name: str, position: int, count: int, won: int, note: str) -> None:
    """Explain one finishing place: 'Cy went out 1st of 5: 4 points (one for each ...).'."""
    values = {
        "name": name,
        "place_t": ordinal(position),
        "place": position,
        "count": count,
        "points": won,
        "note_t": note,
    }
    if position < count and won == 1:
        account.say("{name} went out {place_t} of {count}: {points} point ({note_t}).", **values)
    elif position < count:
        account.say("{name} went out {place_t} of {count}: {points} points ({note_t}).", **values)
    elif won == 1:
        account.say(
            "{name} finished last, {place_t} of {count}: {points} point ({note_t}).", **values
        )
    else:
        account.say(
            "{name} finished last, {place_t} of {count}: {points} points ({note_t}).", **values
        )


def hand_result(deal: Deal, finish: Sequence[str], account: Account) -> DalmutiResult:
    """Score a checked hand and explain every point (after the preface already said)."""
    revolution = deal.revolution
    base, bonus, _lines = score_hand(deal.during, finish, deal.rules, account)
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
    }
    if deal.rules.rising_bonus:
        result["rising_bonus"] = bonus
    return result


def hands_count(rules: Mapping[str, Any], hands_played: int) -> dict[str, int | None]:
    """Return the hands played, the hands_to_play agreed (None: open) and how many are left."""
    total = house_rules(rules).hands_to_play
    return {
        "hands_played": hands_played,
        "hands_total": total,
        "hands_left": None if total is None else max(0, total - hands_played),
    }


def session_over(rules: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """Return True once hands_to_play hands are played (never, without a count)."""
    total = house_rules(rules).hands_to_play
    return total is not None and int(state.get("hands_played", 0)) >= total
