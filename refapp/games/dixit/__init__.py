"""Dixit: the storyteller, the laid-out positions, the votes and the score of a turn.

A turn's input names the storyteller, the owner of the card at each position (1-based on the
table, 0-based in the list) and each voter's position. The state carries the last storyteller and
the deck bookkeeping (draw pile and discards), so the next turn can be checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import N_
from ..game import Account, Game, Outcome, Table
from ..options import RuleValue
from ..registry import register
from . import codes as _codes  # noqa: F401  (registers the game's error codes)
from . import how_we_score as dixit_how_we_score
from . import stats as dixit_stats
from .deck import first_state
from .ending import end_reasons, ends_on_totals
from .highlights import HIGHLIGHTS
from .options import OPTIONS, check_ending
from .parse import parse_turn
from .presets import PRESETS
from .round_input import ROUND_INPUT, path_words
from .rules import DixitRules
from .shapes import DixitInput, DixitResult, DixitState
from .table_view import public_view
from .turn import play_turn


class Dixit(Game[DixitInput, DixitResult, DixitState]):
    """Dixit with the 2021 base rules, the three-player rules and the Odyssey options."""

    slug = "dixit"
    position = 3
    round_input = ROUND_INPUT
    title = N_("Dixit")
    min_players = 3
    max_players = 8
    #: measured 13,941 bytes: a turn of 12 players (20-letter accented names) with two votes each
    round_bytes = 16 * 1024
    topics = {
        "table": N_("Players and cards"),
        "voting": N_("Voting and vote bonus"),
        "end": N_("End of the game"),
    }
    options = OPTIONS
    house_rules_type = DixitRules
    presets = PRESETS

    #: a player's Dixit figures: the counters a round adds, the figures from their sums
    tally = staticmethod(dixit_stats.tally)
    figures_from = staticmethod(dixit_stats.figures_from)
    role_book = dixit_stats.ROLE_BOOK
    record_keys = dixit_stats.RECORD_KEYS
    highlights = HIGHLIGHTS
    marks = staticmethod(dixit_stats.marks)

    def player_range(self, rules: Mapping[str, object]) -> tuple[int, int]:
        """Return 3..8 players, or 3..12 with the Odyssey two-votes rule or a large table."""
        house = DixitRules.of(rules)
        return (3, 12) if house.two_votes_large_game or house.large_table else (3, 8)

    def resolve_rules(
        self,
        overrides: object,
        preset: str | None = None,
        *,
        stored: bool = False,
        seats: int | None = None,
    ) -> dict[str, RuleValue]:
        """Return the effective house rules; without a target score the rounds to play end it.

        A session stored before this check (no target, no rounds: it never ended) still imports.
        """
        rules = super().resolve_rules(overrides, preset, seats=seats)
        if not stored:
            check_ending(rules)
        return rules

    def how_we_score(self, table: Table) -> list[tuple[str, Account]]:
        """Return what this table's house rules mean, topic by topic."""
        return dixit_how_we_score.sentences(self.with_house_rules(table), self.topics)

    def start(
        self, players: Sequence[str], rules: Mapping[str, object], setup: Mapping[str, object]
    ) -> tuple[tuple[str, ...], DixitState]:
        """Deal the hands: the draw pile holds what is left of the 84 (or 168) cards."""
        return tuple(players), first_state(rules, len(players))

    def play(
        self, table: Table, state: DixitState, raw: object, *, partial: bool = False
    ) -> Outcome[DixitInput, DixitResult, DixitState]:
        """Check a turn and score it; raises RuleViolation naming the broken rule."""
        table = self.with_house_rules(table)
        return play_turn(table, state, parse_turn(table, raw), partial)

    def public_state(
        self, table: Table, state: DixitState, totals: Mapping[str, int]
    ) -> dict[str, object]:
        """Tell the table the next storyteller, the target and the deck's counts."""
        return public_view(self.with_house_rules(table), state, totals)

    def describe_path(self, path: str) -> str:
        """Name a turn's input path in words: "Dee's vote", "card 3's owner"."""
        return path_words(path) or super().describe_path(path)

    def is_over(self, table: Table, state: DixitState, totals: Mapping[str, int]) -> bool:
        """The game ends after a turn that reaches the target, the last round or the deck's end."""
        return bool(end_reasons(table.rules, state, totals, table.size))

    def end_reads_totals(self, table: Table) -> bool:
        """The game's end reads the totals when the table plays to a target score."""
        return ends_on_totals(table.rules)


#: the one Dixit the registry holds (its web package takes its slug from it)
GAME = register(Dixit())
