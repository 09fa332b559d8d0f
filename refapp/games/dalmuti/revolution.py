"""The Great Dalmuti's revolutions: who may declare which, the ranks they leave, their words.

A player dealt both jesters may declare one before the tax; a greater revolution reverses ranks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import RuleViolation
from ..game import Account
from .cards import JESTER, JESTER_COPIES
from .options import option_label
from .ranks import role_name, roles_of
from .rules import house_rules
from .shapes import CardsBy, Revolution

REVOLUTION_KINDS = ("plain", "greater")


def revolution_kinds(
    ranks: Sequence[str], player: str, rules: Mapping[str, object]
) -> tuple[str, ...]:
    """Return the revolutions a player dealt both jesters may declare.

    The Greater Peasant (with ``greater_revolution``) and, under ``lesser_peasant_revolution``,
    the Lesser Peasant may reverse the ranks; with ``gp_may_choose_plain`` they may also keep the
    ranks and only cancel the tax. Everyone else may only declare a plain revolution.
    """
    typed = house_rules(rules)
    role = roles_of(ranks)[player]
    greater = (role == "greater_peasant" and typed.greater_revolution) or (
        role == "lesser_peasant" and typed.lesser_peasant_revolution
    )
    if not greater:
        return ("plain",)
    return REVOLUTION_KINDS if typed.gp_may_choose_plain else ("greater",)


def greater_revolution_by(ranks: Sequence[str], rules: Mapping[str, object]) -> list[str]:
    """Return who may reverse the ranks with both jesters, best rank first (peasants at most)."""
    return [name for name in ranks if "greater" in revolution_kinds(ranks, name, rules)]


def revolt(ranks: Sequence[str], revolution: Revolution | None) -> list[str]:
    """Return the ranks during the hand: a greater revolution reverses them, a plain one not.

    The Greater Peasant's reverses every rank (new = N + 1 - old); the Lesser Peasant's reverses
    ranks 1..N-1 (new = N - old) and leaves the Greater Peasant last.
    """
    ranks = list(ranks)
    if not revolution or revolution["kind"] != "greater":
        return ranks
    if revolution["player"] == ranks[-1]:
        return ranks[::-1]
    return ranks[-2::-1] + ranks[-1:]


def revolution_declared(
    rules: Mapping[str, object], ranks: list[str], hands: CardsBy, revolution: Revolution | None
) -> Revolution | None:
    """Return the revolution sent, if any, once its declarer may declare that kind."""
    if revolution is None:
        return None
    player, kind = revolution["player"], revolution["kind"]
    if kind not in revolution_kinds(ranks, player, rules):
        raise _kind_refused(ranks, player, kind, rules)
    _check_jesters(player, hands)
    return revolution


def _kind_refused(
    ranks: list[str], player: str, kind: str, rules: Mapping[str, object]
) -> RuleViolation:
    """Return the error for a revolution kind the declarer may not choose."""
    roles = roles_of(ranks)
    who = {"who": player, "role_t": role_name(roles[player])}
    if kind == "plain":
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) holds both jesters, and under these house rules that is a "
            "greater revolution, not a plain one (the house rule “{rule_t}” is off).",
            "revolution.kind",
            rule_t=option_label("gp_may_choose_plain"),
            **who,
        )
    entitled = greater_revolution_by(ranks, rules)
    if not entitled:
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
            "nobody under these house rules.",
            "revolution.kind",
            **who,
        )
    if len(entitled) == 1:
        return RuleViolation(
            "revolution_kind_not_allowed",
            "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
            "{first} ({first_role_t}).",
            "revolution.kind",
            **who,
            first=entitled[0],
            first_role_t=role_name(roles[entitled[0]]),
        )
    first, second = entitled[0], entitled[-1]  # the two peasants at most
    return RuleViolation(
        "revolution_kind_not_allowed",
        "{who} ({role_t}) may declare only a plain revolution; a greater one is for "
        "{first} ({first_role_t}) or {second} ({second_role_t}).",
        "revolution.kind",
        **who,
        first=first,
        first_role_t=role_name(roles[first]),
        second=second,
        second_role_t=role_name(roles[second]),
    )


def _check_jesters(player: str, hands: CardsBy) -> None:
    """Refuse a revolution when the hands entered show the declarer lacks both jesters."""
    if player in hands and JESTER not in hands[player]:
        raise RuleViolation(
            "revolution_without_jesters",
            "{player} declared a revolution but was dealt neither jester; it takes both.",
            "revolution.player",
            player=player,
        )
    if player in hands and hands[player].count(JESTER) < JESTER_COPIES:
        raise RuleViolation(
            "revolution_without_jesters",
            "{player} declared a revolution but was dealt only one of the two jesters; "
            "it takes both.",
            "revolution.player",
            player=player,
        )
    for name, hand in hands.items():
        if name != player and JESTER in hand:
            raise RuleViolation(
                "revolution_without_jesters",
                "{other} was dealt a jester, so {player} cannot hold both to declare a revolution.",
                "revolution.player",
                other=name,
                player=player,
            )


def say_revolution(
    account: Account, ranks: Sequence[str], during: list[str], revolution: Revolution
) -> None:
    """Explain a revolution declared: who, which kind, and the ranks it leaves for the hand."""
    who = revolution["player"]
    role = role_name(roles_of(ranks)[who])
    if revolution["kind"] == "greater":
        account.say(
            "{who} ({role_t}) declared a greater revolution with both jesters: the ranks "
            "for this hand are {ranks}, and no tax is paid.",
            who=who,
            role_t=role,
            ranks=", ".join(during),
        )
    else:
        account.say(
            "{who} ({role_t}) declared a revolution with both jesters: no tax is paid, "
            "the ranks stay.",
            who=who,
            role_t=role,
        )
