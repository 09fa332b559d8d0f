"""Mighty: the misdeal, the auction, the boss's contract and friend, and the score of a hand.

A hand's input names the contract (boss, bid, trump), the friend, the point cards the opposition
took and, when it matters, who held the mighty and the joker; an optional ``dealer`` and
``bidding`` log are checked too. A round may instead be a misdeal or an auction everyone passed.
The state carries the next dealer (the previous hand's friend) and the next auction's minimum
(docs/API.md, "Mighty"; the rules follow the Korean wiki's article on 마이티). Four to seven
may sit: six and seven kill (``kill``) or rest players in turn (``sits_out``), four play with a
smaller deck.

A hand goes through the package from the top: ``hands`` plays a round, ``read_hand`` reads its
body once into a ``Hand`` (``round_form`` splits the body into its parts and keeps a round one
form: a hand, a misdeal or an all-pass), then the sub-packages in the order of a hand:

- ``seats``: who is in it (the deal at four to seven, the dealer, who rests, who is killed);
- ``bidding``: a throw-in, the auction, the boss's contract and friend;
- ``tricks``: the tricks refereed and totalled, who held the mighty and the joker;
- ``scoring``: the score, its multipliers and the facts each sentence is built from;
- ``explain``: the explanation of a hand, and "How we score" for a table's rules;
- ``house_rules``: the options, the typed rules (``MightyRules``, ``MightyTable``), presets.

Beside them: ``cards`` (the deck), ``shapes`` (the stored input, result and state), ``table_view``
(what the table sees before the next hand), ``stats``, ``codes``, ``round_input``, ``plurals``;
``web`` holds the pages. The Game class only dispatches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import N_, MalformedInput
from ..game import Account, Game, Table
from ..options import RuleValue
from ..registry import register
from . import codes as _codes  # noqa: F401  (registers the game's error codes)
from . import rating as mighty_rating
from . import stats as mighty_stats
from .bidding.auction import (
    MAX_BID,
    Auction,
    Bid,
    auction_floor,
    beats,
    check_bid_count,
    lowest_next_bid,
    next_bid,
    run_auction,
)
from .bidding.contract import allowed_contract_changes, check_contract_change, contract_change_price
from .bidding.friend import FRIEND_FORMS, FRIEND_TYPES_LABEL, friend_words
from .bidding.misdeal import misdeal_allowed, misdeal_value
from .cards import (
    DECK,
    HAND_SIZE,
    JOKER,
    POINT_CARDS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TRUMP_NAMES,
    TRUMPS,
    is_point_card,
    joker_call_card,
    mighty_card,
    parse_card,
    parse_trump,
)
from .explain.how_we_score import how_we_score
from .hands import play_round
from .highlights import HIGHLIGHTS
from .house_rules.options import OPTIONS
from .house_rules.presets import PRESETS
from .house_rules.rules import MightyRules, MightyTable
from .house_rules.seats import seat_defaults
from .round_input import ROUND_INPUT
from .seats.deal import PLAIN_SEATS, SEAT_COUNTS
from .shapes import MightyInput, MightyOutcome, MightyResult, MightyState
from .table_view import next_hand, seat_state
from .tricks.holders import HOLDERS
from .tricks.judge import judge_trick
from .tricks.trick import Decision, Play, decide_trick

#: what ``from refapp.games.mighty import X`` offers: the game and the rules' public names
__all__ = [
    "DECK",
    "GAME",
    "HAND_SIZE",
    "HOLDERS",
    "JOKER",
    "MAX_BID",
    "POINT_CARDS",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "TRUMPS",
    "TRUMP_NAMES",
    "Auction",
    "Bid",
    "Decision",
    "Mighty",
    "Play",
    "allowed_contract_changes",
    "beats",
    "check_bid_count",
    "check_contract_change",
    "contract_change_price",
    "decide_trick",
    "is_point_card",
    "joker_call_card",
    "judge_trick",
    "lowest_next_bid",
    "mighty_card",
    "misdeal_allowed",
    "misdeal_value",
    "next_bid",
    "parse_card",
    "parse_trump",
    "run_auction",
]


class Mighty(Game[MightyInput, MightyResult, MightyState]):
    """Mighty for five (four to seven), as the Korean wiki article plays it, with the common
    house rules."""

    slug = "mighty"
    position = 2
    round_input = ROUND_INPUT
    title = "Mighty"
    min_players = min(SEAT_COUNTS)
    max_players = max(SEAT_COUNTS)
    options = OPTIONS
    house_rules_type = MightyRules
    presets = PRESETS
    topics = {
        "seats": N_("Players and the deal"),
        "misdeal": N_("Throw-in (파토)"),
        "auction": N_("Auction"),
        "contract": N_("Contract after the kitty"),
        "friend": N_("Friend (프렌드)"),
        "play": N_("Playing the tricks"),
        "scoring": N_("Scoring"),
    }

    #: a player's Mighty figures: the counters a round adds, the figures from their sums
    tally = staticmethod(mighty_stats.tally)
    figures_from = staticmethod(mighty_stats.figures_from)
    #: the roles of each hand; a boss and their friend are partners
    role_book = mighty_stats.ROLE_BOOK
    record_keys = mighty_stats.RECORD_KEYS
    highlights = HIGHLIGHTS
    marks = staticmethod(mighty_stats.marks)
    #: each played hand is rated, the ruling side against the opposition
    rates_hands = True
    hand_sides = staticmethod(mighty_rating.hand_sides)

    def how_we_score(self, table: Table) -> list[tuple[str, Account]]:
        """Say what this table's house rules mean, under the game's topics."""
        said = how_we_score(self._house_rules(table), table.size)
        return [(self.topics[key], account) for key, account in said]

    def resolve_rules(
        self,
        overrides: object,
        preset: str | None = None,
        *,
        stored: bool = False,
        seats: int | None = None,
    ) -> dict[str, RuleValue]:
        """Return the effective house rules; at least one way to name a friend must remain."""
        rules = super().resolve_rules(overrides, preset, stored=stored, seats=seats)
        if not rules["friend_types"]:
            raise MalformedInput(
                "invalid_rules",
                "The house rule “{rule_t}” must allow at least one of: {known_t}.",
                "rules.friend_types",
                rule_t=FRIEND_TYPES_LABEL,
                known_t=friend_words(FRIEND_FORMS),
            )
        return rules

    def start(
        self, players: Sequence[str], rules: Mapping[str, object], setup: Mapping[str, object]
    ) -> tuple[tuple[str, ...], MightyState]:
        """Seat the players; the first dealer is free and the first auction opens at min_bid."""
        state: MightyState = {
            "next_dealer": None,
            "min_bid": auction_floor(MightyRules.of(rules)),
            "kitty_open": False,
            "rounds": 0,
            "last_outcome": None,
        }
        if len(players) != PLAIN_SEATS:
            state["sits_out"] = None
        return tuple(players), state

    def seat_defaults(self, seats: int | None) -> Mapping[str, RuleValue]:
        """Return the defaults a table of four changes: the lowest bid, the friend cards."""
        return seat_defaults(seats)

    def with_house_rules(self, table: Table) -> MightyTable:
        """Return the table with its rules typed as Mighty's: what every rules function reads."""
        if isinstance(table, MightyTable):
            return table
        return MightyTable(table.players, MightyRules.of(table.rules))

    def _house_rules(self, table: Table) -> MightyRules:
        """Return the table's rules with every missing option at its default."""
        return MightyRules.of(table.rules)

    def replay_round(
        self, table: Table, state: MightyState, raw: object, stored: MightyOutcome
    ) -> MightyOutcome:
        """Play a stored round again from another state: a hand's score depends only on the
        table and its checked input, so a hand checked into its stored input keeps its stored
        result (the state before decides only the checks and the state after)."""
        return self.play(table, state, raw, known=stored)

    def play(
        self,
        table: Table,
        state: MightyState,
        raw: object,
        *,
        partial: bool = False,
        known: MightyOutcome | None = None,
    ) -> MightyOutcome:
        """Check a round (a played hand, a misdeal or an all-pass) and score it.

        With ``partial`` only the parts sent are checked and an unfinished auction is reported.
        ``known`` is the round's stored outcome when it is played again (``replay_round``).
        Raises RuleViolation naming the broken rule.
        """
        return play_round(self.with_house_rules(table), state, raw, partial, known)

    def public_state(
        self, table: Table, state: MightyState, totals: Mapping[str, int]
    ) -> dict[str, object]:
        """Tell the table who deals, the auction's minimum, the special cards by trump and, at
        four, six or seven seats, how the hand is dealt and who rests."""
        rules = self._house_rules(table)
        coming = next_hand(rules, state)
        return {
            "next_dealer": coming.dealer.dealer,
            "dealer_free": coming.dealer.dealer is None,
            "min_bid": coming.floor,
            "kitty_open": coming.kitty_open,
            "mighty_card": {trump: mighty_card(trump, rules) for trump in TRUMPS},
            "joker_call_card": {trump: joker_call_card(trump, rules) for trump in TRUMPS},
            "friend_types": list(rules.friend_types),
            "rounds": state.get("rounds", 0),
            "last_outcome": state.get("last_outcome"),
            **seat_state(rules, table.size, state, coming.dealer.dealer),
        }


#: the game as the registry holds it (its pages type a table with ``GAME.with_house_rules``)
GAME = Mighty()
register(GAME)
