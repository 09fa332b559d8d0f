"""The score of a played hand: the outcome, m and what each player gets (docs/API.md, Mighty).

n, the ruling side's point cards, decides a win, a critic (n = bid) or a loss; m is the base
times the multipliers, in their order (a win's; a loss's only under ``loss_multipliers``); the
boss, friend and opposition share it. ``back_run_when`` decides the back-run flag.
Trusted input: score a hand only after it was checked. Every function takes plain values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ...errors import N_
from ..bidding.auction import MAX_BID, auction_floor
from ..cards import POINT_CARDS

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

#: each multiplier, in the order they apply: its name on a round's summary, and its step in an
#: explanation ("Base 5 = 15 - 10; ×2 run = 10.")
MULTIPLIERS = {
    "run": (N_("run (런)"), N_("×2 run")),
    "declared_run": (N_("declared run"), N_("×2 declared run")),
    "no_trump": (N_("no-trump (노기루다)"), N_("×2 no-trump")),
    "no_mighty": (N_("no mighty (노마이티)"), N_("×2 no mighty")),
    "no_joker": (N_("no joker (노조커)"), N_("×2 no joker")),
    "no_friend": (N_("no friend (노프렌드)"), N_("×2 declared no friend")),
    "back_run": (N_("back-run (백런)"), N_("×2 back-run")),
}
#: each outcome of a played hand, as a round's summary names it
OUTCOME_NAMES = {
    "ruling_win": N_("Ruling side won (여당 승)"),
    "critic": N_("Critic (크리틱)"),
    "opposition_win": N_("Opposition won (야당 승)"),
}
#: each multiplier's name, as a round's summary shows it
MULTIPLIER_NAMES = {name: words for name, (words, _step) in MULTIPLIERS.items()}
#: how m grows from the base, step by step, in an explanation
STEPS = {name: step for name, (_words, step) in MULTIPLIERS.items()}
#: the most point cards the ruling side may take in a back-run, by the ``back_run_when`` rules
#: that count them (the default counts the opposition's against the bid instead)
BACK_RUN_MOST = {"ruling_under_10": 9, "ruling_10_or_less": 10}
#: the multipliers ``loss_multipliers`` may list, in the order they apply
LOSS_MULTIPLIERS = ("no_trump", "no_friend")
#: the back-run's seed penalty, as multiples of the bid: the boss pays 10 times it, the friend
#: the bid once (instead of their shares; the opposition still wins m each)
BACK_RUN_BOSS_TIMES = 10
BACK_RUN_FRIEND_TIMES = 1
#: what a win's base counts from: half the point cards (a win by the bid or the cards taken)
WIN_LESS = POINT_CARDS // 2
#: what every multiplier but a fixed run does to m: doubles it (the steps' words say "×2")
DOUBLE = 2
#: m after a run under the ``run: fixed_20`` house rule, whatever the base
FIXED_RUN_M = 20
#: the run's step under the ``run: fixed_20`` house rule (the words name FIXED_RUN_M)
RUN_FIXED = N_("run: m = 20")


class Step(NamedTuple):
    """One multiplier on the way from a hand's base to m: it doubles m, or sets it (a fixed run)."""

    name: str
    kind: str  # "times" or "becomes"
    value: int


def multiplier_step(name: str, rules: MightyRules) -> Step:
    """Return what a multiplier does to m: a fixed run sets FIXED_RUN_M, any other doubles it."""
    if name == "run" and rules.run == "fixed_20":
        return Step(name, "becomes", FIXED_RUN_M)
    return Step(name, "times", DOUBLE)


def multiplier_steps(multipliers: Sequence[str], rules: MightyRules) -> list[Step]:
    """Return a scored hand's multipliers (its result's ``multipliers``) as steps, in order."""
    return [multiplier_step(name, rules) for name in multipliers]


def apply_step(m: int, step: Step) -> int:
    """Return m after a step: doubled, or set."""
    return step.value if step.kind == "becomes" else m * step.value


@dataclass(frozen=True)
class Score:
    """A scored hand: its outcome, how m came about, the back-run and each player's delta."""

    outcome: str  # ruling_win, critic or opposition_win
    bid: int
    against: int  # the opposition's point cards
    taken: int  # n: the ruling side's point cards
    base: int
    m: int
    multipliers: list[str]  # the doublings applied, in the rules' order (a win's or a loss's)
    formula: str | None  # the base's arithmetic ("15 - 10"); None for a critic's fixed m
    steps: list[str]  # the steps from the base to m, words marked for translation
    back_run: bool
    seed_penalty: bool  # the back-run's seed penalty replaced the boss's and friend's deltas
    deltas: dict[str, int]
    #: the ``back_run_when`` rule that decided ``back_run`` (for the explanation's sentence)
    back_run_when: str = "opposition_reaches_bid"


def score_hand(
    rules: MightyRules,
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
    back_run = is_back_run(rules.back_run_when, bid, taken)
    outcome = hand_outcome(taken, bid)
    formula: str | None = None
    applied: list[str] = []
    steps: list[str] = []
    if outcome == "ruling_win" or (outcome == "critic" and rules.critic == "win"):
        base, formula = win_base(rules.win_formula, bid, taken, auction_floor(rules))
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
        base, formula = loss_base(rules.lose_formula, bid, taken)
        m, applied, steps = loss_m(
            rules, base, back_run, no_trump=trump == "NT", no_friend=no_friend
        )
    deltas = share(players, boss, friend, (-m if outcome == "opposition_win" else m))
    penalty = back_run and rules.back_run == "seed_penalty"
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
        back_run_when=rules.back_run_when,
    )


def hand_outcome(taken: int, bid: int) -> str:
    """Return ruling_win (n > bid, or a declared run of 20), critic (n = bid) or opposition_win."""
    if taken > bid or taken == bid == MAX_BID:
        return "ruling_win"
    if taken == bid:
        return "critic"
    return "opposition_win"


def is_back_run(when: str, bid: int, taken: int) -> bool:
    """Return True for a back-run by the ``back_run_when`` option (n = the ruling side's cards).

    ``opposition_reaches_bid``: the opposition took at least the bid (20 - n >= B);
    ``ruling_under_10``: n <= 9; ``ruling_10_or_less``: n <= 10.
    """
    if when in BACK_RUN_MOST:
        return taken <= BACK_RUN_MOST[when]
    return POINT_CARDS - taken >= bid


def win_base(formula: str, bid: int, taken: int, min_bid: int) -> tuple[int, str]:
    """Return a win's base by the ``win_formula`` option, and its arithmetic ("15 - 10").

    pagat's formula counts the bid from the table's lowest bid (``auction_floor``):
    2(B - min_bid) + (n - B).
    """
    if formula == "taken_minus_10":
        return taken - WIN_LESS, f"{taken} - {WIN_LESS}"
    if formula == "pagat":
        base = 2 * (bid - min_bid) + (taken - bid)
        return base, f"2 × ({bid} - {min_bid}) + ({taken} - {bid})"
    return bid - WIN_LESS, f"{bid} - {WIN_LESS}"


def win_multipliers(
    rules: MightyRules,
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
    if taken == POINT_CARDS and rules.run != "none":
        applied.append("run")
        run = multiplier_step("run", rules)
        m = apply_step(m, run)
        steps.append(RUN_FIXED if run.kind == "becomes" else STEPS["run"])
    doubles = (
        ("declared_run", bid == MAX_BID and taken == POINT_CARDS
         and rules.declared_run_double),
        ("no_trump", trump == "NT" and rules.double_no_trump),
        ("no_mighty", rules.double_no_mighty and no_mighty),
        ("no_joker", rules.double_no_joker and no_joker),
        ("no_friend", no_friend and rules.double_no_friend),
    )  # fmt: skip
    for name, applies in doubles:
        if applies:
            applied.append(name)
            m = apply_step(m, multiplier_step(name, rules))
            steps.append(STEPS[name])
    return m, applied, steps


def played_without(rules: MightyRules, holder: str | None) -> bool:
    """Return True if the ruling side played without the card held by holder."""
    if rules.no_card_means == "buried_only":
        return holder == "kitty"
    return holder in ("opposition", "kitty")


def critic_m(rules: MightyRules) -> int:
    """Return m for a critic not scored as a win: 1 (the ruling side's privilege) or 0 (a draw)."""
    return 1 if rules.critic == "ruling_plus_one" else 0


def loss_base(formula: str, bid: int, taken: int) -> tuple[int, str]:
    """Return a lost contract's base by the ``lose_formula`` option, and its arithmetic."""
    if formula == "shortfall":
        return bid - taken, f"{bid} - {taken}"
    return 2 * (bid - taken), f"2 × ({bid} - {taken})"


def loss_m(
    rules: MightyRules,
    base: int,
    back_run: bool,
    *,
    no_trump: bool = False,
    no_friend: bool = False,
) -> tuple[int, list[str], list[str]]:
    """Return (m, multipliers applied, steps to m) for a loss.

    ``loss_multipliers`` doubles a failed no-trump and a failed declared no-friend contract
    (each x2, in the rules' order; listed as applied); then a back-run under ``double``
    doubles m once more (not one of the multipliers, so not listed).
    """
    m, applied, steps = base, [], []
    chosen = rules.loss_multipliers
    for name, applies in (("no_trump", no_trump), ("no_friend", no_friend)):
        if applies and name in chosen:
            applied.append(name)
            m = apply_step(m, multiplier_step(name, rules))
            steps.append(STEPS[name])
    if back_run and rules.back_run == "double":
        m *= 2
        steps.append(STEPS["back_run"])
    return m, applied, steps


def share(players: Sequence[str], boss: str, friend: str | None, ms: int) -> dict[str, int]:
    """Split m among the hand's players: each opponent -m, the friend +m, the boss the balance.

    Five in the hand: boss 2m and friend m against 3 x m, or boss 4m alone against 4 x m; four
    (a table of four): boss m and friend m against 2 x m, or boss 3m alone.
    """
    deltas = {player: -ms for player in players}
    if friend is not None:
        deltas[friend] = ms
    deltas[boss] = 0
    deltas[boss] = -sum(deltas.values())
    return deltas


def back_run_penalty(boss: str, friend: str | None, bid: int) -> dict[str, int]:
    """Return the seed's back-run penalty: boss -10 x bid, friend -bid (not zero-sum)."""
    penalty = {boss: -BACK_RUN_BOSS_TIMES * bid}
    if friend is not None:
        penalty[friend] = -BACK_RUN_FRIEND_TIMES * bid
    return penalty
