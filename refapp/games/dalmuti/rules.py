"""The Great Dalmuti's house rules typed: what every phase module reads through ``house_rules``."""

from __future__ import annotations

from collections.abc import Mapping

from ..options import HouseRules
from .options import OPTIONS


class DalmutiRules(HouseRules):
    """The house rules in force at a Dalmuti table, defaults filled once."""

    options = OPTIONS
    allow_any_count: bool
    removed_ranks: list[int]
    extra_cards_to: str
    draw_ties: str
    greater_revolution: bool
    gp_may_choose_plain: bool
    lesser_peasant_revolution: bool
    tax: bool
    tax_first_hand: bool
    tax_timing: str
    lesser_tax_min_players: int
    dalmuti_may_return_jester: bool
    merchant_trade: bool
    scoring: str
    rising_bonus: bool
    hands_to_play: int | None


def house_rules(rules: Mapping[str, object]) -> DalmutiRules:
    """Return the table's house rules typed, defaults filled in (the engine reads only this)."""
    return DalmutiRules.of(rules)
