"""Mighty: the misdeal, the auction, the boss's contract and friend, and the score of a hand.

A hand's input names the contract (boss, bid, trump), the friend, the point cards the opposition
took and, when it matters, who held the mighty and the joker; an optional ``dealer`` and
``bidding`` log are checked too. A round may instead be a misdeal or an auction everyone passed.
The state carries the next dealer (the previous hand's friend) and the next auction's minimum
(docs/API.md, "Mighty"; the rules follow the Korean wiki's article on 마이티).

The rules live in one module per phase of a hand: ``cards``, ``misdeal``, ``auction``,
``contract``, ``friend``, ``holders``, ``dealer``, ``scoring``, ``facts`` and ``explain``;
``options`` are the house rules, ``how_we_score`` says them; tricks are ``tricks``,
``trick_checks``, ``trick_totals`` and ``trick_judge``. The Game class only dispatches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..errors import N_, MalformedInput
from ..game import Account, Game, Outcome, Table
from ..inputs import mapping
from ..registry import register
from . import codes as _codes  # noqa: F401  (registers the game's error codes)
from . import stats as mighty_stats
from .auction import (
    MAX_BID,
    Auction,
    Bid,
    auction_floor,
    beats,
    check_bid_count,
    lowest_next_bid,
    next_bid,
    next_floor,
    run_auction,
    unfinished_auction,
)
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
from .contract import (
    allowed_contract_changes,
    check_contract_change,
    contract_change_price,
    read_contract,
)
from .dealer import check_dealer, dealer_after_all_pass, dealer_after_hand
from .explain import explain_hand, say_all_pass, say_misdeal, say_progress
from .friend import FRIEND_FORMS, FRIEND_TYPES_LABEL, friend_player, friend_words, read_friend
from .friend_card import check_friend_card_held
from .holders import HOLDER_KEYS, HOLDERS, check_holders, read_holder, read_points
from .how_we_score import how_we_score
from .misdeal import declare_misdeal, misdeal_allowed, misdeal_value
from .options import OPTIONS, PRESETS
from .round_input import ROUND_INPUT
from .rounds import (
    HAND_PARTS,
    all_pass_flag,
    check_alone,
    check_everyone_passed,
    next_state,
    zero_result,
)
from .rules import MightyRules
from .scoring import score_hand
from .shapes import MightyInput, MightyResult, MightyState, TricksResult
from .table_view import next_hand
from .trick_judge import judge_trick
from .trick_totals import Refereed, Settled, play_tricks, tricks_result
from .tricks import Decision, Play, decide_trick

#: what ``from refapp.games.mighty import X`` offers: the game and the rules' public names
__all__ = [
    "DECK",
    "HAND_SIZE",
    "HOLDERS",
    "JOKER",
    "MAX_BID",
    "PLAYERS",
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

PLAYERS = 5


class Mighty(Game):
    """Mighty for five, as the Korean wiki article plays it, with the common house rules."""

    slug = "mighty"
    position = 2
    round_input = ROUND_INPUT
    title = "Mighty"
    min_players = PLAYERS
    max_players = PLAYERS
    options = OPTIONS
    house_rules_type = MightyRules
    presets = PRESETS
    topics = {
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

    def how_we_score(self, table: Table) -> list[tuple[str, Account]]:
        """Say what this table's house rules mean, under the game's topics."""
        return [(self.topics[key], said) for key, said in how_we_score(table.rules)]

    def resolve_rules(
        self, overrides: Any, preset: str | None = None, *, stored: bool = False
    ) -> dict[str, Any]:
        """Return the effective house rules; at least one way to name a friend must remain."""
        rules = super().resolve_rules(overrides, preset, stored=stored)
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
        self, players: Sequence[str], rules: Mapping[str, Any], setup: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], MightyState]:
        """Seat the players; the first dealer is free and the first auction opens at min_bid."""
        state: MightyState = {
            "next_dealer": None,
            "min_bid": auction_floor(self.house_rules(rules)),
            "kitty_open": False,
            "rounds": 0,
            "last_outcome": None,
        }
        return tuple(players), state

    def _house_rules(self, table: Table) -> MightyRules:
        """Return the table's rules with every missing option at its default."""
        return MightyRules.of(table.rules)

    def replay_round(
        self, table: Table, state: Mapping[str, Any], raw: Any, stored: Outcome
    ) -> Outcome:
        """Play a stored round again from another state: a hand's score depends only on the
        table and its checked input, so a hand checked into its stored input keeps its stored
        result (the state before decides only the checks and the state after)."""
        return self.play(table, state, raw, known=stored)

    def play(
        self,
        table: Table,
        state: Mapping[str, Any],
        raw: Any,
        *,
        partial: bool = False,
        known: Outcome | None = None,
    ) -> Outcome:
        """Check a round (a played hand, a misdeal or an all-pass) and score it.

        With ``partial`` only the parts sent are checked and an unfinished auction is reported.
        ``known`` is the round's stored outcome when it is played again (``replay_round``).
        Raises RuleViolation naming the broken rule.
        """
        table = self.with_house_rules(table)
        raw = mapping(raw, "round")
        entered: MightyInput = {}
        dealer = check_dealer(table, state, raw)
        if dealer is not None:
            entered["dealer"] = dealer
        if raw.get("misdeal") is not None:
            check_alone(raw, "misdeal", ("bidding", "all_pass", *HAND_PARTS))
            return self._misdeal(table, state, raw, entered)
        all_pass = all_pass_flag(raw)
        auction = None
        if raw.get("bidding") is not None:
            floor = auction_floor(table.rules, state)
            auction = run_auction(table, raw["bidding"], min_bid=floor, dealer=dealer)
            entered["bidding"] = list(auction.entries)
        if all_pass or (auction is not None and auction.all_passed):
            return self._everyone_passed(table, state, raw, entered, auction, all_pass)
        if (
            auction is not None
            and not auction.finished
            and (not partial or raw.get("contract") is not None)
        ):
            raise unfinished_auction(auction)
        return self._hand(table, state, raw, entered, auction, partial, known)

    def _misdeal(
        self, table: Table, state: Mapping[str, Any], raw: Mapping[str, Any], entered: MightyInput
    ) -> Outcome:
        """Score a thrown-in hand: nobody scores, and its declarer deals next."""
        player, hand, value = declare_misdeal(table, raw["misdeal"])
        entered["misdeal"] = {"player": player, "hand": hand}
        account = Account()
        say_misdeal(account, player, value, table.rules)
        result = zero_result(table, "misdeal", account)
        result.update({"declarer": player, "hand_value": value})
        return Outcome(entered, result, next_state(table, state, "misdeal", player))

    def _everyone_passed(
        self,
        table: Table,
        state: Mapping[str, Any],
        raw: Mapping[str, Any],
        entered: MightyInput,
        auction: Auction | None,
        all_pass: bool,
    ) -> Outcome:
        """Score an auction nobody bid in: a zero round, the same dealer deals again."""
        check_everyone_passed(raw, auction, all_pass)
        entered["all_pass"] = True
        starter = auction.starter if auction is not None else None
        dealer = dealer_after_all_pass(entered.get("dealer"), state, starter)
        reopen = table.rules["all_pass"] == "open_kitty" and not state.get("kitty_open")
        account = Account()
        say_all_pass(account, next_floor(table.rules, reopen=True), dealer, reopen)
        result = zero_result(table, "all_pass", account)
        result["kitty_open"] = reopen
        return Outcome(entered, result, next_state(table, state, "all_pass", dealer, reopen))

    def _hand(
        self,
        table: Table,
        state: Mapping[str, Any],
        raw: Mapping[str, Any],
        entered: MightyInput,
        auction: Auction | None,
        partial: bool,
        known: Outcome | None = None,
    ) -> Outcome:
        """Check a played hand's contract, friend, points and holders, then score it (a hand
        checked into its ``known`` input keeps its known result)."""
        floor = auction_floor(table.rules, state)
        contract = read_contract(table, raw, floor, auction, partial)
        if contract is not None:
            entered["contract"] = contract
        with_tricks = raw.get("tricks") is not None
        friend = read_friend(table, raw, partial, derive=with_tricks)
        if friend is not None:
            entered["friend"] = friend
        points = read_points(raw, partial or with_tricks)
        if points is not None:
            entered["opposition_points"] = points
        for key in HOLDER_KEYS:
            if raw.get(key) is not None:
                entered[key] = read_holder(raw[key], key)
        refereed = play_tricks(table, raw, entered, partial) if with_tricks else None
        contract = entered.get("contract")
        boss = contract["boss"] if contract else None
        check_friend_card_held(table.rules, entered.get("friend"), boss)
        check_holders(table, entered)
        settled = None if refereed is None or refereed[1] is None else (refereed[0], refereed[1])
        if not all(key in entered for key in ("contract", "friend", "opposition_points")) or (
            refereed is not None and settled is None
        ):
            return Outcome(entered, _progress(table, entered, auction, refereed), dict(state))
        if known is not None and entered == known.input:
            result = cast(MightyResult, known.result)
        else:
            result = self.score(table, entered, settled)
            if auction is not None:
                result["winning_bid"] = {"player": auction.leader, **auction.top.as_dict()}
        dealer = dealer_after_hand(table, state, entered, result)
        return Outcome(entered, result, next_state(table, state, "hand", dealer))

    def score(
        self, table: Table, entered: Mapping[str, Any], refereed: Settled | None = None
    ) -> MightyResult:
        """Score a checked hand and explain every point (trusted input: call after checking).

        With ``refereed`` (a hand's ten tricks and what they show, ``trick_totals.play_tricks``)
        the result lists the tricks too.
        """
        contract = entered["contract"]
        boss = contract["boss"]
        friend = friend_player(entered["friend"], boss)
        score = score_hand(
            self._house_rules(table),
            table.players,
            boss=boss,
            friend=friend,
            bid=contract["bid"],
            trump=contract["trump"],
            against=entered["opposition_points"],
            mighty_holder=entered.get("mighty_holder"),
            joker_holder=entered.get("joker_holder"),
            no_friend="none" in entered["friend"],
        )
        account, facts = explain_hand(table.rules, entered, score, table.players, refereed)
        extra: TricksResult = tricks_result(*refereed) if refereed is not None else {}
        return {
            "deltas": score.deltas,
            **account.result(),
            "outcome": score.outcome,
            "ruling_points": score.taken,
            "back_run": score.back_run,
            "base": score.base,
            "multipliers": score.multipliers,
            "m": score.m,
            "boss": boss,
            "friend": friend,
            "contract": dict(contract),
            "self_friend": friend is None and "none" not in entered["friend"],
            "facts": facts,
            **extra,
        }

    def public_state(
        self, table: Table, state: Mapping[str, Any], totals: Mapping[str, int]
    ) -> dict[str, Any]:
        """Tell the table who deals, the auction's minimum and the special cards by trump."""
        rules = self._house_rules(table)
        coming = next_hand(rules, state)
        return {
            "next_dealer": coming.dealer.dealer,
            "dealer_free": coming.dealer.dealer is None,
            "min_bid": coming.floor,
            "kitty_open": coming.kitty_open,
            "mighty_card": {trump: mighty_card(trump, rules) for trump in TRUMPS},
            "joker_call_card": {trump: joker_call_card(trump, rules) for trump in TRUMPS},
            "friend_types": list(rules["friend_types"]),
            "rounds": state.get("rounds", 0),
            "last_outcome": state.get("last_outcome"),
        }


def _progress(
    table: Table, entered: Mapping[str, Any], auction: Auction | None, refereed: Refereed | None
) -> MightyResult:
    """Return a dry run's result for the parts sent: what was checked and what comes next."""
    result: MightyResult = {"complete": False}
    if refereed is not None:
        result.update(tricks_result(*refereed))
    if auction is not None:
        result.update(auction.summary())
        if auction.finished:
            won = auction.top
            result["winning_bid"] = {"player": auction.leader, **won.as_dict()}
            result["contract_changes"] = allowed_contract_changes(won.count, won.trump, table.rules)
    account = Account()
    say_progress(account, entered, auction, refereed[0] if refereed is not None else None)
    result.update({"deltas": dict.fromkeys(table.players, 0), **account.result()})
    return result


register(Mighty())
