"""The Great Dalmuti: ranks, the deal, revolutions, the tax, legal plays and the score of a hand.

A round is one hand: an optional revolution, the tax (tribute) when due, optionally the hands as
dealt (for the checks that need them) and the finishing order, which is the next hand's ranks.
The state carries the ranks (Greater Dalmuti first) and the number of hands played; the seats
follow the ranks, so the session's own player list is only the table's roster.

The rules live in one module per part of a hand (cards, ranks, draw, revolution, tax, tribute,
trades, play, scoring) and the house rules in ``options``; this package's Game class only
dispatches to them, and re-exports their names so that ``from refapp.games.dalmuti import X``
keeps working.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import N_
from ..game import Account, Game, Outcome, Table
from ..registry import register
from . import codes as _codes  # noqa: F401  (registers the game's error codes)
from . import stats as dalmuti_stats
from .cards import JESTER as JESTER
from .cards import JESTER_COPIES as JESTER_COPIES
from .cards import JESTER_RANK as JESTER_RANK
from .cards import LANGUAGES as LANGUAGES
from .cards import RANK_NAMES as RANK_NAMES
from .cards import RANK_TABLE as RANK_TABLE
from .cards import RANKS as RANKS
from .cards import card_value as card_value
from .cards import cards_text as cards_text
from .cards import check_deck
from .cards import check_supply as check_supply
from .cards import deck as deck
from .cards import deck_size as deck_size
from .cards import over_supply as over_supply
from .cards import parse_card as parse_card
from .cards import parse_cards as parse_cards
from .cards import rank_name as rank_name
from .cards import sort_cards as sort_cards
from .draw import first_state
from .draw import ranks_from_draw as ranks_from_draw
from .explain import ORDINALS as ORDINALS
from .explain import ordinal as ordinal
from .explain import say_place as say_place
from .hand import play_hand
from .highlights import HIGHLIGHTS
from .how_we_score import how_we_score
from .options import OPTIONS as OPTIONS
from .parse import parse_hand
from .play import THESE_CARDS as THESE_CARDS
from .play import check_play as check_play
from .play import judge_play as judge_play
from .play import play_rank as play_rank
from .presets import PRESETS
from .ranks import HANDS_ENTERED as HANDS_ENTERED
from .ranks import ROLE_NAMES as ROLE_NAMES
from .ranks import ROLE_TABLE as ROLE_TABLE
from .ranks import ROLES as ROLES
from .ranks import hand_sizes as hand_sizes
from .ranks import hands_dealt as hands_dealt
from .ranks import holders as holders
from .ranks import ranks_in as ranks_in
from .ranks import role_name as role_name
from .ranks import role_of as role_of
from .ranks import roles_of as roles_of
from .revolution import REVOLUTION_KINDS as REVOLUTION_KINDS
from .revolution import greater_revolution_by as greater_revolution_by
from .revolution import revolt as revolt
from .revolution import revolution_declared as revolution_declared
from .revolution import revolution_kinds as revolution_kinds
from .revolution import say_revolution as say_revolution
from .round_input import INPUT_PLACES, ROUND_INPUT
from .rules import DalmutiRules
from .rules import house_rules as house_rules
from .scoring import ROLE_CHIPS as ROLE_CHIPS
from .scoring import chip as chip
from .scoring import finish_order as finish_order
from .scoring import hand_result as hand_result
from .scoring import hands_count as hands_count
from .scoring import points as points
from .scoring import score_hand as score_hand
from .scoring import session_over as session_over
from .shapes import DalmutiInput, DalmutiResult, DalmutiState
from .table_view import public_view
from .tax import ANSWERS as ANSWERS
from .tax import EXCHANGE_KEYS as EXCHANGE_KEYS
from .tax import EXCHANGE_NAMES as EXCHANGE_NAMES
from .tax import NO_TAX_FIRST_HAND as NO_TAX_FIRST_HAND
from .tax import NO_TAX_RULE as NO_TAX_RULE
from .tax import TRIBUTE as TRIBUTE
from .tax import givers as givers
from .tax import lesser_tax as lesser_tax
from .tax import no_tax_reason as no_tax_reason
from .tax import public_exchanges as public_exchanges
from .tax import say_tax as say_tax
from .tax import tax_due as tax_due
from .tax import tax_facts as tax_facts
from .tax import tribute_due as tribute_due
from .tax import tribute_required as tribute_required
from .trades import merchant_trades as merchant_trades
from .trades import say_trades as say_trades
from .tribute import CARDS_GIVEN as CARDS_GIVEN
from .tribute import HANDS_AND_TRIBUTE as HANDS_AND_TRIBUTE
from .tribute import TRIBUTE_CARDS as TRIBUTE_CARDS
from .tribute import check_best as check_best
from .tribute import check_held as check_held
from .tribute import check_tribute as check_tribute
from .tribute import dealt_lower_bound as dealt_lower_bound
from .tribute import tribute_cards as tribute_cards
from .tribute import tribute_given as tribute_given


class Dalmuti(Game[DalmutiInput, DalmutiResult, DalmutiState]):
    """The Great Dalmuti with the official (Hungarian) rules and the Korean house rules."""

    slug = "dalmuti"
    position = 1
    round_input = ROUND_INPUT
    input_places = INPUT_PLACES
    title = N_("The Great Dalmuti")
    min_players = 4
    max_players = 8
    setup_keys = ("initial_draw",)
    #: measured 15,622 bytes: a hand of 8 players (20-letter accented names) with every hand as
    #: dealt, the tax and two merchants' swaps
    round_bytes = 16 * 1024
    options = OPTIONS
    house_rules_type = DalmutiRules
    presets = PRESETS
    topics = {
        "deal": N_("Players and the deal"),
        "revolution": N_("Revolution"),
        "tax": N_("Tax"),
        "points": N_("Points and length"),
    }

    #: a player's Dalmuti figures: the counters a round adds, the figures from their sums
    tally = staticmethod(dalmuti_stats.tally)
    figures_from = staticmethod(dalmuti_stats.figures_from)
    record_keys = dalmuti_stats.RECORD_KEYS
    highlights = HIGHLIGHTS
    #: the ranks held; the longest run of hands as Greater Dalmuti is a record
    role_book = dalmuti_stats.ROLE_BOOK

    def player_range(self, rules: Mapping[str, object]) -> tuple[int, int]:
        """Return 4..8 players, or 3..10 with allow_any_count."""
        return (3, 10) if house_rules(rules).allow_any_count else (4, 8)

    def check_players(self, players: Sequence[str], rules: Mapping[str, object]) -> None:
        """Check the table size, and that the deck left by removed_ranks deals everyone enough."""
        super().check_players(players, rules)
        check_deck(len(players), rules)

    def start(
        self, players: Sequence[str], rules: Mapping[str, object], setup: Mapping[str, object]
    ) -> tuple[tuple[str, ...], DalmutiState]:
        """Return the seats as entered and the first ranks: as entered, or from initial_draw."""
        return tuple(players), first_state(players, rules, setup)

    def play(
        self, table: Table, state: DalmutiState, raw: object, *, partial: bool = False
    ) -> Outcome[DalmutiInput, DalmutiResult, DalmutiState]:
        """Check a hand and score it; raises RuleViolation naming the broken rule."""
        return play_hand(table, state, parse_hand(table, raw), partial)

    def public_state(
        self, table: Table, state: DalmutiState, totals: Mapping[str, int]
    ) -> dict[str, object]:
        """Tell the table the ranks, the dealer, the hand sizes and the tax of the next hand."""
        return public_view(table, state)

    def how_we_score(self, table: Table) -> list[tuple[str, Account]]:
        """Return what this table's house rules mean, topic by topic (the "How we score" page)."""
        return [(self.topics[key], account) for key, account in how_we_score(table)]

    def is_over(self, table: Table, state: DalmutiState, totals: Mapping[str, int]) -> bool:
        """The session ends after hands_to_play hands (never, without a count)."""
        return session_over(table.rules, state)


#: the one Dalmuti the registry holds (its web package takes its slug from it)
GAME = register(Dalmuti())
