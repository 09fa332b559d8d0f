"""What the Great Dalmuti's rule tests share: a table of five, its tax, hands, the case runner."""

from __future__ import annotations

import pytest

from refapp.games.dalmuti import Dalmuti, role_of
from refapp.games.errors import Refusal
from refapp.games.game import Table, leaders

GAME = Dalmuti()
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
FIVE = NAMES[:5]
TAX = {
    "greater_peasant": [5, 6],
    "greater_dalmuti": [12, 12],
    "lesser_peasant": [7],
    "lesser_dalmuti": [11],
}
# five players, full deck: 16 cards each (Eve is the Greater Peasant, Dee the Lesser Peasant)
EVE = [2, 4, 4, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12, "J"]
DEE = [3, 5, 6, 6, 8, 9, 10, 10, 11, 11, 11, 12, 12, 12, 12, 12]
ANN = [1, 2, 3, 3, 5, 5, 6, 7, 7, 8, 9, 10, 11, 12, 12, "J"]


def seat(count: int = 5, **rules) -> tuple[Table, dict]:
    """Return a table of count players under these house rules and its first state."""
    players = NAMES[:count]
    resolved = GAME.resolve_rules(rules)
    GAME.check_players(players, resolved)
    seats, state = GAME.start(players, resolved, {})
    return Table(seats, resolved), state


def refused(code: str, call, *args, **kwargs) -> Refusal:
    """Run call, expect a Refusal with code, and return it."""
    with pytest.raises(Refusal) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


def hand(table: Table, state: dict, body: dict, partial: bool = False):
    """Play one hand (or dry-run it) and return the outcome."""
    return GAME.play(table, state, body, partial=partial)


def order(*names: str) -> list[str]:
    """Return names as a finishing order."""
    return list(names)


# -- worked table cases (golden style, values from the rules file) ---------------------------------

FOUR, P5, SIX, SEVEN, NINE, TEN = (list(NAMES[:count]) for count in (4, 5, 6, 7, 9, 10))
CY_JESTERS = [2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, "J", "J"]


def due(gp: str, gd: str, lp: str | None = None, ld: str | None = None) -> list[dict]:
    """Return the state's tribute_due: each peasant's tribute, then the Dalmuti's return."""
    pairs = [(gp, gd, 2)] + ([(lp, ld, 1)] if lp else [])
    items = []
    for peasant, dalmuti, count in pairs:
        items.append({"from": peasant, "to": dalmuti, "count": count, "which": "best"})
        items.append({"from": dalmuti, "to": peasant, "count": count, "which": "any"})
    return items


def roles(*ranks: str) -> dict[str, str]:
    """Return the state's roles for ranks given Greater Dalmuti first."""
    return {name: role_of(index, len(ranks)) for index, name in enumerate(ranks, 1)}


def below(*finish: str) -> dict[str, int]:
    """Return the default points of a finishing order: one per player below."""
    return {name: len(finish) - index for index, name in enumerate(finish, 1)}


def step(body: dict, **expect) -> dict:
    """Return one hand of a case: its input and what it must give (deltas, result, state, error)."""
    return {"body": body, **expect}


def dry(body: dict, **expect) -> dict:
    """Return a dry-run step: checked (and scored if complete) but not recorded."""
    return step(body, dry_run=True, **expect)


def subset(expected, actual) -> bool:
    """Return True if expected is contained in actual (objects by key, anything else equal)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and subset(value, actual[key]) for key, value in expected.items()
        )
    return expected == actual


def play_table_case(case: dict) -> None:
    """Open a worked case's table, play its hands in order, and check every expectation."""
    rules = GAME.resolve_rules(case.get("rules", {}))
    GAME.check_players(case["players"], rules)
    seats, state = GAME.start(case["players"], rules, case.get("setup", {}))
    assert seats == tuple(case["players"])
    table = Table(seats, rules)
    totals = dict.fromkeys(seats, 0)
    assert subset(case.get("start", {}), GAME.public_state(table, state, totals))
    for number, played in enumerate(case["rounds"], 1):
        partial = played.get("dry_run", False)
        if "error" in played:
            refused(played["error"], hand, table, state, played["body"], partial)
            continue
        outcome = hand(table, state, played["body"], partial)
        result = outcome.result
        assert set(result.get("deltas", seats)) == set(seats), number
        if "deltas" in played:
            assert result["deltas"] == played["deltas"], (number, result)
        assert subset(played.get("result", {}), result), (number, result)
        if not partial:
            state = outcome.state
            totals = {name: totals[name] + result["deltas"][name] for name in seats}
        public = GAME.public_state(table, state, totals)
        assert subset(played.get("state", {}), public), (number, public)
    assert subset(case.get("state", {}), GAME.public_state(table, state, totals))
    assert subset(case.get("totals", {}), totals), totals
    assert GAME.is_over(table, state, totals) is case.get("over", False)
    if "winners" in case:
        assert sorted(leaders(totals)) == sorted(case["winners"])
