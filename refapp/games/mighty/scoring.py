"""The score of a played hand (spec section 6): the outcome, m and what each player gets.

n, the ruling side's point cards, decides a win, a critic (n = bid) or a loss; m is the base
times the ruling side's multipliers, in their order; the boss, friend and opposition share it.
Trusted input: score a hand only after it was checked. Every function takes plain values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import N_
from .auction import MAX_BID
from .cards import POINT_CARDS

#: how m grows from the base, step by step, in an explanation ("Base 5 = 15 - 10; x2 run = 10.")
STEPS = {
    "run": N_("x2 run"),
    "declared_run": N_("x2 declared run"),
    "no_trump": N_("x2 no-trump"),
    "no_mighty": N_("x2 no mighty"),
    "no_joker": N_("x2 no joker"),
    "no_friend": N_("x2 declared no friend"),
    "back_run": N_("x2 back-run"),
}
#: the run's step under the ``run: fixed_20`` house rule
RUN_FIXED = N_("run: m = 20")


@dataclass(frozen=True)
class Score:
    """A scored hand: its outcome, how m came about, the back-run and each player's delta."""

    outcome: str  # ruling_win, critic or opposition_win
    bid: int
    against: int  # the opposition's point cards
    taken: int  # n: the ruling side's point cards
    base: int
    m: int
    multipliers: list[str]  # the ruling side's doublings, in their order
    formula: str | None  # the base's arithmetic ("15 - 10"); None for a critic's fixed m
    steps: list[str]  # the steps from the base to m, words marked for translation
    back_run: bool
    seed_penalty: bool  # the back-run's seed penalty replaced the boss's and friend's deltas
    deltas: dict[str, int]


def score_hand(
    rules: Mapping[str, Any],
    players: Sequence[str],
    *,
    boss: str,
    friend: str | None,
    bid: int,
    trump: str,
    against: int,
    mighty_holder: str | None,
    joker_holder: str | None,
    no_friend: bool,
) -> Score:
    """Score a hand from its contract, real friend, the opposition's points and the holders."""
    taken = POINT_CARDS - against
    back_run = against >= bid
    outcome = hand_outcome(taken, bid)
    formula: str | None = None
    applied: list[str] = []
    steps: list[str] = []
    if outcome == "ruling_win" or (outcome == "critic" and rules["critic"] == "win"):
        base, formula = win_base(rules["win_formula"], bid, taken)
        m, applied, steps = win_multipliers(
            rules,
            base,
            bid=bid,
            trump=trump,
            taken=taken,
            no_mighty=played_without(rules, mighty_holder),
            no_joker=played_without(rules, joker_holder),
            no_friend=no_friend,
        )
    elif outcome == "critic":
        base = m = critic_m(rules)
    else:
        base, formula = loss_base(rules["lose_formula"], bid, taken)
        m, steps = loss_m(rules, base, back_run)
    deltas = share(players, boss, friend, (-m if outcome == "opposition_win" else m))
    penalty = back_run and rules["back_run"] == "seed_penalty"
    if penalty:
        deltas.update(back_run_penalty(boss, friend, bid))
    return Score(
        outcome=outcome,
        bid=bid,
        against=against,
        taken=taken,
        base=base,
        m=m,
        multipliers=applied,
        formula=formula,
        steps=steps,
        back_run=back_run,
        seed_penalty=penalty,
        deltas=deltas,
    )


def hand_outcome(taken: int, bid: int) -> str:
    """Return ruling_win (n > bid, or a declared run of 20), critic (n = bid) or opposition_win."""
    if taken > bid or taken == bid == MAX_BID:
        return "ruling_win"
    if taken == bid:
        return "critic"
    return "opposition_win"


def win_base(formula: str, bid: int, taken: int) -> tuple[int, str]:
    """Return a win's base by the ``win_formula`` option, and its arithmetic ("15 - 10")."""
    if formula == "taken_minus_10":
        return taken - 10, f"{taken} - 10"
    if formula == "pagat":
        return 2 * (bid - 13) + (taken - bid), f"2 x ({bid} - 13) + ({taken} - {bid})"
    return bid - 10, f"{bid} - 10"


def win_multipliers(
    rules: Mapping[str, Any],
    base: int,
    *,
    bid: int,
    trump: str,
    taken: int,
    no_mighty: bool,
    no_joker: bool,
    no_friend: bool,
) -> tuple[int, list[str], list[str]]:
    """Return (m, multipliers applied, steps to m) for a win: the run, then each x2 in order.

    The steps are words marked for translation ("x2 run"), in the order they apply.
    """
    m, applied, steps = base, [], []
    if taken == POINT_CARDS and rules["run"] != "none":
        applied.append("run")
        if rules["run"] == "fixed_20":
            m = 20
            steps.append(RUN_FIXED)
        else:
            m *= 2
            steps.append(STEPS["run"])
    doubles = (
        ("declared_run", bid == MAX_BID and taken == POINT_CARDS
         and rules["declared_run_double"]),
        ("no_trump", trump == "NT" and rules["double_no_trump"]),
        ("no_mighty", rules["double_no_mighty"] and no_mighty),
        ("no_joker", rules["double_no_joker"] and no_joker),
        ("no_friend", no_friend and rules["double_no_friend"]),
    )  # fmt: skip
    for name, applies in doubles:
        if applies:
            applied.append(name)
            m *= 2
            steps.append(STEPS[name])
    return m, applied, steps


def played_without(rules: Mapping[str, Any], holder: str | None) -> bool:
    """Return True if the ruling side played without the card held by holder."""
    if rules["no_card_means"] == "buried_only":
        return holder == "kitty"
    return holder in ("opposition", "kitty")


def critic_m(rules: Mapping[str, Any]) -> int:
    """Return m for a critic not scored as a win: 1 (the ruling side's privilege) or 0 (a draw)."""
    return 1 if rules["critic"] == "ruling_plus_one" else 0


def loss_base(formula: str, bid: int, taken: int) -> tuple[int, str]:
    """Return a lost contract's base by the ``lose_formula`` option, and its arithmetic."""
    if formula == "shortfall":
        return bid - taken, f"{bid} - {taken}"
    return 2 * (bid - taken), f"2 x ({bid} - {taken})"


def loss_m(rules: Mapping[str, Any], base: int, back_run: bool) -> tuple[int, list[str]]:
    """Return m for a loss and its steps: a back-run under ``double`` doubles the base."""
    # the x2 is not one of the ruling side's multipliers, so none is listed as applied
    if back_run and rules["back_run"] == "double":
        return 2 * base, [STEPS["back_run"]]
    return base, []


def share(players: Sequence[str], boss: str, friend: str | None, ms: int) -> dict[str, int]:
    """Split m: boss 2m and friend m against 3 x m, or boss 4m alone against 4 x m."""
    deltas = {player: -ms for player in players}
    if friend is None:
        deltas[boss] = 4 * ms
    else:
        deltas[boss] = 2 * ms
        deltas[friend] = ms
    return deltas


def back_run_penalty(boss: str, friend: str | None, bid: int) -> dict[str, int]:
    """Return the seed's back-run penalty: boss -10 x bid, friend -bid (not zero-sum)."""
    penalty = {boss: -10 * bid}
    if friend is not None:
        penalty[friend] = -bid
    return penalty
