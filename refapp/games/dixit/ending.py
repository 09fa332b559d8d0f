"""When a Dixit game ends: the target score, the rounds of storytellers to play, the deck
(``explain.say_end`` says a fixed end reached)."""

from __future__ import annotations

from collections.abc import Mapping

from .deck import DECK_ENDS, deck_ended, turns_from_pile
from .rules import DixitRules
from .shapes import DixitState


def last_turn(rules: Mapping[str, object], players: int) -> int | None:
    """Return the turn that completes the rounds of storytellers to play (None: no such end).

    The storyteller passes to the left every turn, so N full rounds are N turns per player.
    """
    rounds = DixitRules.of(rules).end_after_rounds
    return None if rounds is None else rounds * players


def end_reasons(
    rules: Mapping[str, object], state: DixitState, totals: Mapping[str, int], players: int
) -> list[str]:
    """Return why the game is over after this state (every end reached; empty: it goes on)."""
    house = DixitRules.of(rules)
    reasons = []
    target = house.target_score
    if target is not None and any(total >= target for total in totals.values()):
        reasons.append("target_score")
    last = last_turn(house, players)
    if last is not None and state.get("turns", 0) >= last:
        reasons.append("end_after_rounds")
    if deck_ended(house, state):
        reasons.append("deck_exhausted")
    return reasons


def ends_on_totals(rules: Mapping[str, object]) -> bool:
    """Return True when reaching a total can end the game (a target score is played to)."""
    return DixitRules.of(rules).target_score is not None


def turns_left(rules: Mapping[str, object], state: DixitState, players: int) -> int | None:
    """Return the turns left before the rounds to play or the draw pile ends the game.

    None when neither can end it; 0 once one has. Reaching the target score may end it sooner.
    """
    house = DixitRules.of(rules)
    if deck_ended(house, state):
        return 0
    left = []
    last = last_turn(house, players)
    if last is not None:
        left.append(max(0, last - state.get("turns", 0)))
    if house.deck_exhausted in DECK_ENDS:
        left.append(turns_from_pile(state["draw_pile"], players, house.deck_exhausted))
    return min(left) if left else None
