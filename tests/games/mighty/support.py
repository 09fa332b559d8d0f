"""What the Mighty rule tests share: a table of five, a hand's input, rounds played."""

from __future__ import annotations

import pytest

from refapp.games.errors import Refusal
from refapp.games.game import Table
from refapp.games.mighty import Mighty
from refapp.games.mighty.house_rules.rules import MightyRules

PLAYERS = ("Ann", "Ben", "Cy", "Dee", "Eve")


GAME = Mighty()


def table(**overrides) -> Table:
    """Return a five-player table with the given house rules."""
    return GAME.with_house_rules(Table(PLAYERS, GAME.resolve_rules(overrides)))


def typed_rules(overrides: dict) -> MightyRules:
    """Return the house rules these overrides resolve to, typed as the rules functions read them."""
    return MightyRules(GAME.resolve_rules(overrides))


def fresh(tab: Table) -> dict:
    """Return the state before the first hand."""
    return GAME.start(tab.players, tab.rules, {})[1]


def play(raw, tab: Table | None = None, state: dict | None = None, partial: bool = False):
    """Play one round on a fresh (or given) table and state."""
    tab = tab or table()
    return GAME.play(tab, fresh(tab) if state is None else state, raw, partial=partial)


def violation(raw, tab: Table | None = None, state: dict | None = None, partial=False):
    """Return the Refusal a round raises."""
    with pytest.raises(Refusal) as caught:
        play(raw, tab, state, partial)
    return caught.value


def hand(bid=15, trump="H", points=3, boss="Ann", friend=None, **extra) -> dict:
    """Return a played hand's input with a friend card HA held by Ben unless told."""
    raw = {
        "contract": {"boss": boss, "bid": bid, "trump": trump},
        "friend": friend if friend is not None else {"card": "HA", "player": "Ben"},
        "opposition_points": points,
    }
    raw.update(extra)
    return raw


def passes(*players: str) -> list[dict]:
    return [{"player": p, "pass": True} for p in players]


def deltas(*values: int) -> dict[str, int]:
    return dict(zip(PLAYERS, values, strict=True))


WON = [{"player": "Ann", "bid": 15, "trump": "H"}, *passes("Ben", "Cy", "Dee", "Eve")]


LOW = ["SA", "JK", "H10", "C2", "D3", "D4", "H5", "C6", "S7", "D8"]
