"""Each multiplier of a scored hand as a fact: applied or not, the fact why, the house rule.

A multiplier is listed when the hand has the fact a table would double for (all 20 point cards,
a no-trump contract, the mighty or the joker out of the ruling side's hands, no friend, a
back-run), whether it applied or not, with the reason as a code (``because``, BECAUSE's keys)
and the house rule that decided it (``rule``, an option key; None when no rule decides it).
The applied ones, but the back-run, are the result's ``multipliers`` in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypedDict

from ...errors import N_
from ..cards import POINT_CARDS

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

if TYPE_CHECKING:
    from .score import Score

#: why a multiplier applied, or did not, in words (the data's ``because`` codes)
BECAUSE = {
    "took_all_20": N_("the ruling side took all 20 point cards"),
    "bid_20_took_all_20": N_("a bid of 20 took all 20 point cards"),
    "no_trump_contract": N_("the contract was no-trump"),
    "no_trump_lost": N_("the lost contract was no-trump"),
    "mighty_in_kitty": N_("the mighty was buried in the kitty"),
    "mighty_with_opposition": N_("the opposition held the mighty"),
    "joker_in_kitty": N_("the joker was buried in the kitty"),
    "joker_with_opposition": N_("the opposition held the joker"),
    "declared_no_friend": N_("the boss declared no friend"),
    "no_friend_lost": N_("the lost contract declared no friend"),
    "back_run": N_("the loss is a back-run"),
    "rule_off": N_("this table does not double for it"),
    "run_none": N_("this table gives no bonus for a run"),
    "loss_not_listed": N_("this table does not double a lost contract for it"),
    "only_win": N_("only a win doubles for it"),
    "critic": N_("a critic scored this way takes no multipliers"),
    "buried_only": N_("the opposition held it, and only a card buried in the kitty counts here"),
    "self_friend": N_("the boss is a self friend, and only a declared no friend doubles"),
    "back_run_flag": N_("this table only notes a back-run"),
    "back_run_penalty": N_("this table scores the back-run penalty instead"),
}


class MultiplierFact(TypedDict):
    """One multiplier: its name (scoring.MULTIPLIERS' keys), applied or not, why, by which rule."""

    name: str
    applied: bool
    because: str
    rule: str | None


def _fact(name: str, applied: bool, because: str, rule: str | None) -> MultiplierFact:
    """Return one multiplier's fact."""
    return MultiplierFact(name=name, applied=applied, because=because, rule=rule)


def multiplier_facts(
    rules: MightyRules,
    score: Score,
    *,
    trump: str,
    holders: Mapping[str, str | None],
    friend_form: str,
    self_friend: bool,
) -> list[MultiplierFact]:
    """Return the hand's multipliers a table may expect, in the order they apply, then back-run."""
    kind = _kind(rules, score)
    facts = _run_facts(rules, score, won=kind == "win")
    if trump == "NT":
        facts.append(_listed(rules, kind, "no_trump", "double_no_trump", "no_trump_contract"))
    for card in ("mighty", "joker"):
        fact = _without(rules, kind, card, holders[card])
        if fact is not None:
            facts.append(fact)
    friendless = _no_friend(rules, kind, friend_form, self_friend)
    if friendless is not None:
        facts.append(friendless)
    if score.back_run:
        facts.append(_back_run(rules.back_run))
    return facts


def _kind(rules: MightyRules, score: Score) -> str:
    """Return how the hand counts for its multipliers: a win (a critic under ``critic: win``),
    a loss, or a critic."""
    won = score.outcome == "ruling_win" or (score.outcome == "critic" and rules.critic == "win")
    return "win" if won else ("loss" if score.outcome == "opposition_win" else "critic")


def _run_facts(rules: MightyRules, score: Score, *, won: bool) -> list[MultiplierFact]:
    """Return the run (a won hand taking all 20 point cards) and the declared run (bid 20)."""
    facts: list[MultiplierFact] = []
    if score.taken == POINT_CARDS and won:
        run = rules.run != "none"
        facts.append(_fact("run", run, "took_all_20" if run else "run_none", "run"))
    if score.taken == score.bid == POINT_CARDS:
        on = bool(rules.declared_run_double)
        because = "bid_20_took_all_20" if on else "rule_off"
        facts.append(_fact("declared_run", on, because, "declared_run_double"))
    return facts


def _no_friend(
    rules: MightyRules, kind: str, friend_form: str, self_friend: bool
) -> MultiplierFact | None:
    """Return the no-friend multiplier: declared, or a won hand whose boss called himself."""
    if friend_form == "none":
        return _listed(rules, kind, "no_friend", "double_no_friend", "declared_no_friend")
    if self_friend and kind == "win" and rules.double_no_friend:
        return _fact("no_friend", False, "self_friend", "double_no_friend")
    return None


def _listed(rules: MightyRules, kind: str, name: str, flag: str, fact: str) -> MultiplierFact:
    """Return a no-trump or no-friend multiplier: a win's flag, a loss's ``loss_multipliers``."""
    if kind == "critic":
        return _fact(name, False, "critic", "critic")
    if kind == "loss":
        listed = name in rules.loss_multipliers
        lost = "no_trump_lost" if name == "no_trump" else "no_friend_lost"
        return _fact(name, listed, lost if listed else "loss_not_listed", "loss_multipliers")
    on = bool(rules[flag])
    return _fact(name, on, fact if on else "rule_off", flag)


def _without(rules: MightyRules, kind: str, card: str, holder: str | None) -> MultiplierFact | None:
    """Return the no-mighty or no-joker multiplier when the ruling side did not hold the card."""
    if holder not in ("opposition", "kitty"):
        return None
    name, flag = f"no_{card}", f"double_no_{card}"
    if kind == "critic":
        return _fact(name, False, "critic", "critic")
    if kind == "loss":
        return _fact(name, False, "only_win", None)
    if not rules[flag]:
        return _fact(name, False, "rule_off", flag)
    if holder == "opposition" and rules.no_card_means == "buried_only":
        return _fact(name, False, "buried_only", "no_card_means")
    where = "in_kitty" if holder == "kitty" else "with_opposition"
    return _fact(name, True, f"{card}_{where}", flag)


def _back_run(rule: str) -> MultiplierFact:
    """Return the back-run's doubling: applied under ``back_run: double``, else why not."""
    if rule == "double":
        return _fact("back_run", True, "back_run", "back_run")
    because = "back_run_penalty" if rule == "seed_penalty" else "back_run_flag"
    return _fact("back_run", False, because, "back_run")
