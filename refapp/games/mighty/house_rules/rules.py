"""Mighty's house rules typed (each option's value read as an attribute, defaults filled once),
and a table that carries them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...game import Table
from ...options import HouseRules
from .options import OPTIONS


class MightyRules(HouseRules):
    """The house rules in force at a Mighty table, defaults filled once."""

    options = OPTIONS
    min_bid: int
    alt_mighty: str
    alt_joker_call: str
    misdeal: str
    misdeal_at_most: float | None
    no_trump_beats_same_number: bool
    pass_is_final: bool
    all_pass: str
    bid20_ends_auction: bool
    to_no_trump_cost: int
    suit_change_cost: int
    from_no_trump_cost: int
    allow_no_trump_at_20: bool
    friend_types: list[str]
    friend_card_in_own_hand: str
    trick1_trump: str
    win_formula: str
    critic: str
    lose_formula: str
    run: str
    declared_run_double: bool
    double_no_trump: bool
    double_no_mighty: bool
    double_no_joker: bool
    double_no_friend: bool
    no_card_means: str
    loss_multipliers: list[str]
    back_run_when: str
    back_run: str
    next_dealer: str
    six_player_rule: str
    seven_player_rule: str
    friend_forbidden: list[str]


@dataclass(frozen=True)
class MightyTable(Table):
    """A Mighty table: the seated players and its house rules typed (``Mighty.play`` builds
    it, so every rules function reads ``table.rules`` as ``MightyRules``)."""

    rules: MightyRules = field(default_factory=MightyRules)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, MightyRules):  # a table built from stored rules
            object.__setattr__(self, "rules", MightyRules(self.rules))
