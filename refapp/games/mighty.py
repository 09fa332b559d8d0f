"""Mighty: the misdeal, the auction, the boss's contract and friend, and the score of a hand.

A hand's input names the contract (boss, bid, trump), the friend, the point cards the opposition
took and, when it matters, who held the mighty and the joker; an optional ``dealer`` and
``bidding`` log are checked too. A round may instead be a misdeal or an auction everyone passed.
The state carries the next dealer (the previous hand's friend) and the next auction's minimum.
Rule text: ``rules/mighty.md`` (from the Korean wiki article, seed 001).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import (
    N_,
    Account,
    Game,
    Outcome,
    RuleOption,
    RuleViolation,
    Table,
    mapping,
    quote,
    require,
    sequence,
    signed,
    whole_number,
)

PLAYERS = 5
HAND_SIZE = 10
POINT_CARDS = 20
MAX_BID = 20
SUITS = ("S", "H", "D", "C")
TRUMPS = (*SUITS, "NT")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
POINT_RANKS = ("A", "K", "Q", "J", "10")
JOKER = "JK"
DECK = (*(suit + rank for suit in SUITS for rank in RANKS), JOKER)
TRUMP_NAMES = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
    "NT": N_("no-trump"),
}
HOLDERS = ("boss", "friend", "opposition", "kitty")
#: why a hand's dealer deals it, by how the previous round ended
DEALER_REASONS = {
    "misdeal": N_("the player who declared the misdeal deals"),
    "all_pass": N_("everyone passed, so the same dealer deals again"),
    "hand": N_("the previous hand's friend, or its boss, deals"),
}
FRIEND_FORMS = ("card", "none", "first_trick")
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
#: the parts of a played hand (a misdeal or an all-pass round carries none of them)
HAND_PARTS = ("contract", "friend", "opposition_points", "mighty_holder", "joker_holder")

_SUIT_ALIASES = {
    "S": "S", "♠": "S", "♤": "S",
    "H": "H", "♥": "H", "♡": "H",
    "D": "D", "♦": "D", "♢": "D",
    "C": "C", "♣": "C", "♧": "C",
}  # fmt: skip
_RANK_ALIASES = {"T": "10"}
_JOKER_ALIASES = ("JK", "JOKER")


# -- cards ------------------------------------------------------------------------------------


def parse_card(text: Any, where: str = "card") -> str:
    """Return a card in canonical notation ("H10", "SA", "JK"), or raise ``invalid_card``.

    Input is case-insensitive; suit symbols and "T" for ten are accepted for phone keyboards.
    """
    if isinstance(text, str):
        card = text.strip().upper().replace(" ", "")
        if card in _JOKER_ALIASES:
            return JOKER
        suit, rank = _SUIT_ALIASES.get(card[:1]), _RANK_ALIASES.get(card[1:], card[1:])
        if suit and rank in RANKS:
            return suit + rank
    raise RuleViolation(
        "invalid_card",
        "{value} is not a card; write a suit S H D C and a rank A K Q J 10 9 .. 2 (e.g. 'H10'), "
        "or 'JK' for the joker.",
        where,
        value=quote(text),
    )


def parse_trump(text: Any, where: str = "trump") -> str:
    """Return a trump in canonical notation (S, H, D, C or NT), or raise ``invalid_value``."""
    if isinstance(text, str):
        trump = text.strip().upper()
        if trump == "NT":
            return trump
        if trump in _SUIT_ALIASES:
            return _SUIT_ALIASES[trump]
    raise RuleViolation(
        "invalid_value",
        "{where} must be a trump: S, H, D, C or NT (no-trump), not {value}.",
        where,
        where=where,
        value=quote(text),
    )


def is_point_card(card: str) -> bool:
    """Return True for the A K Q J 10 of a suit: the 20 cards the hand is played for."""
    return card != JOKER and card[1:] in POINT_RANKS


def mighty_card(trump: str, rules: Mapping[str, Any]) -> str:
    """Return the mighty under this trump: SA, or ``alt_mighty`` (DA) when spades are trump."""
    return rules.get("alt_mighty", "DA") if trump == "S" else "SA"


def joker_call_card(trump: str, rules: Mapping[str, Any]) -> str:
    """Return the joker-call card: C3, or ``alt_joker_call`` (S3) when clubs are trump."""
    return rules.get("alt_joker_call", "S3") if trump == "C" else "C3"


def misdeal_value(cards: Sequence[str], method: str) -> float:
    """Return a dealt hand's misdeal value under the ``misdeal`` option's counting.

    ``point_cards``: point cards 1, SA 0, joker -1. The ``half_ten`` counts: A K Q J 1 (SA 0),
    tens 0.5, joker -1. Counted in halves so that the comparisons stay exact.
    """
    halves = 0
    for card in cards:
        if card == JOKER:
            halves -= 2
        elif card == "SA" or not is_point_card(card):
            continue
        elif card[1:] == "10" and method != "point_cards":
            halves += 1
        else:
            halves += 2
    return halves // 2 if halves % 2 == 0 else halves / 2


def misdeal_allowed(value: float, method: str) -> bool:
    """Return True when a hand of this value may be thrown in under the ``misdeal`` option."""
    if method == "point_cards":
        return value <= 0
    if method == "half_ten":
        return value < 1
    if method == "half_ten_strict":
        return value < 0.5
    return False


MISDEAL_LIMITS = {
    "point_cards": N_("0 or less (point cards 1, SA 0, joker -1)"),
    "half_ten": N_("less than 1 (A K Q J 1, SA 0, tens 0.5, joker -1)"),
    "half_ten_strict": N_("less than 0.5 (A K Q J 1, SA 0, tens 0.5, joker -1)"),
}


# -- the auction ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bid:
    """A bid or contract: how many point cards the ruling side promises, and the trump."""

    count: int
    trump: str

    def __str__(self) -> str:
        return f"{self.count} {TRUMP_NAMES[self.trump]}"

    def as_dict(self) -> dict[str, Any]:
        """Return the bid as the API writes it."""
        return {"bid": self.count, "trump": self.trump}

    def words(self, prefix: str = "") -> dict[str, Any]:
        """Return the bid as a message's values: ``{prefix}count`` and the trump's name.

        The trump's name goes in ``{prefix}trump_t``, so that it is translated with the message
        ("15 hearts" is "{count} {trump_t}").
        """
        return {f"{prefix}count": self.count, f"{prefix}trump_t": TRUMP_NAMES[self.trump]}


def beats(bid: Bid, other: Bid, rules: Mapping[str, Any]) -> bool:
    """Return True if bid outranks other: a higher count, or NT over a suit at the same count."""
    if bid.count != other.count:
        return bid.count > other.count
    no_trump_wins = rules.get("no_trump_beats_same_number", True)
    return no_trump_wins and bid.trump == "NT" and other.trump != "NT"


def lowest_next_bid(
    highest: Bid | None, rules: Mapping[str, Any], min_bid: int | None = None
) -> tuple[int, tuple[str, ...]] | None:
    """Return the lowest legal next bid count and the trumps allowed at it; None if none is."""
    if highest is None:
        return (rules.get("min_bid", 13) if min_bid is None else min_bid), TRUMPS
    if highest.trump != "NT" and rules.get("no_trump_beats_same_number", True):
        return highest.count, ("NT",)
    if highest.count >= MAX_BID:
        return None
    return highest.count + 1, TRUMPS


@dataclass(frozen=True)
class Auction:
    """The auction so far: the checked log, the highest bid, who passed and whose turn it is."""

    entries: tuple[dict[str, Any], ...]
    min_bid: int
    starter: str | None
    highest: Bid | None
    leader: str | None
    passed: tuple[str, ...]
    finished: bool
    next_bidder: str | None
    lowest_next: tuple[int, tuple[str, ...]] | None

    @property
    def all_passed(self) -> bool:
        """Return True when the auction ended with nobody bidding."""
        return self.finished and self.highest is None

    @property
    def winner(self) -> str | None:
        """Return the boss once the auction is over, else None."""
        return self.leader if self.finished else None

    def summary(self) -> dict[str, Any]:
        """Return the auction's standing for a result: turn, lowest next bid, highest, passes."""
        floor = self.lowest_next if not self.finished else None
        return {
            "auction_finished": self.finished,
            "next_bidder": self.next_bidder,
            "min_next_bid": floor[0] if floor else None,
            "min_next_bid_trumps": list(floor[1]) if floor else [],
            "highest_bid": (
                {"player": self.leader, **self.highest.as_dict()} if self.highest else None
            ),
            "passed": list(self.passed),
        }


def run_auction(
    table: Table,
    entries: Any,
    *,
    min_bid: int | None = None,
    dealer: str | None = None,
    where: str = "bidding",
) -> Auction:
    """Check a bidding log, finished or not, and return where the auction stands.

    Bidding starts with the dealer (else the first entry's player) and goes clockwise, skipping
    players who passed when a pass is final. Call it again with a longer log to go on.
    Raises ``bid_after_pass``, ``out_of_turn``, ``bid_too_low``, ``bid_too_high``,
    ``bid_not_higher``, ``missing_field``, ``invalid_value`` and ``unknown_player``.
    """
    rules = table.rules
    floor = rules.get("min_bid", 13) if min_bid is None else min_bid
    final_pass = rules.get("pass_is_final", True)
    log = sequence(entries, where)
    checked: list[dict[str, Any]] = []
    passed: list[str] = []
    highest: Bid | None = None
    leader: str | None = None
    passes_since_bid = 0
    finished = False
    turn = dealer
    for index, raw in enumerate(log, 1):
        path = f"{where}.{index}"
        entry = mapping(raw, path)
        player = table.player(require(entry, "player", f"{path}.player"), f"{path}.player")
        if final_pass and player in passed:
            raise RuleViolation(
                "bid_after_pass",
                "{player} already passed and may not bid again in this auction (entry {index}).",
                f"{path}.player",
                player=player,
                index=index,
            )
        if finished:
            raise RuleViolation(
                "out_of_turn",
                "The auction was already over before entry {index} ({player}).",
                f"{path}.player",
                index=index,
                player=player,
            )
        turn = turn or player
        if player != turn:
            raise RuleViolation(
                "out_of_turn",
                "It is {expected}'s turn to bid, but entry {index} is by {value}.",
                f"{path}.player",
                expected=turn,
                value=quote(player),
                index=index,
            )
        if _is_pass(entry, path):
            passed.append(player)
            passes_since_bid += 1
            checked.append({"player": player, "pass": True})
        else:
            bid = _bid(entry, path, floor)
            if highest is not None and not beats(bid, highest, rules):
                raise RuleViolation(
                    "bid_not_higher",
                    "{player}'s bid of {count} {trump_t} does not beat {leader}'s "
                    "{high_count} {high_trump_t}.",
                    f"{path}.bid",
                    player=player,
                    leader=leader,
                    **bid.words(),
                    **highest.words("high_"),
                )
            highest, leader, passes_since_bid = bid, player, 0
            checked.append({"player": player, **bid.as_dict()})
        finished = _auction_over(table, rules, highest, passed, passes_since_bid)
        turn = None if finished else _next_bidder(table, player, passed if final_pass else [])
    return Auction(
        entries=tuple(checked),
        min_bid=floor,
        starter=dealer or (checked[0]["player"] if checked else None),
        highest=highest,
        leader=leader,
        # a pass that is not final only counts until the next bid
        passed=tuple(passed if final_pass else passed[len(passed) - passes_since_bid :]),
        finished=finished,
        next_bidder=turn,
        lowest_next=None if finished else lowest_next_bid(highest, rules, floor),
    )


def next_bid(auction: Auction) -> tuple[str, dict[str, Any]]:
    """Return what the next bidder of an open auction may do: a kind and its values.

    The kinds: ``at_least`` (any trump from ``count``: "at least 14, or pass"),
    ``no_trump_or_suit`` ("at least 14 no-trump or 15 in a suit, or pass"), ``no_trump``
    ("20 no-trump, or pass") and ``nothing`` ("nothing beats 20 no-trump, so pass", with the
    highest bid's ``count`` and ``trump_t``). Every kind carries ``count``; the caller words it.
    """
    floor = auction.lowest_next
    if floor is None:
        return "nothing", auction.highest.words() if auction.highest else {"count": MAX_BID}
    count, trumps = floor
    if trumps == TRUMPS:
        return "at_least", {"count": count}
    if count < MAX_BID:
        return "no_trump_or_suit", {"count": count, "next": count + 1}
    return "no_trump", {"count": count}


def _is_pass(entry: Mapping[str, Any], path: str) -> bool:
    """Return True for a pass entry; a pass carrying a bid is refused as ambiguous."""
    flag = entry.get("pass")
    if flag is None or flag is False:
        return False
    if flag is not True:
        raise RuleViolation(
            "invalid_value",
            "{where} must be true or false, not {value}.",
            f"{path}.pass",
            where=f"{path}.pass",
            value=quote(flag),
        )
    if entry.get("bid") is not None or entry.get("trump") is not None:
        raise RuleViolation(
            "invalid_value",
            "Entry {path} is both a pass and a bid; send either pass or bid and trump.",
            path,
            path=path,
        )
    return True


def _bid(entry: Mapping[str, Any], path: str, floor: int) -> Bid:
    """Return an entry's bid, checked against the auction's minimum and 20."""
    count = check_bid_count(
        whole_number(require(entry, "bid", f"{path}.bid"), f"{path}.bid"), floor, f"{path}.bid"
    )
    return Bid(count, parse_trump(require(entry, "trump", f"{path}.trump"), f"{path}.trump"))


def check_bid_count(count: int, floor: int, where: str) -> int:
    """Return count if floor <= count <= 20, else raise ``bid_too_low`` or ``bid_too_high``."""
    if count < floor:
        raise RuleViolation(
            "bid_too_low",
            "A bid of {value} is below this auction's minimum of {floor}.",
            where,
            value=count,
            floor=floor,
        )
    if count > MAX_BID:
        raise RuleViolation(
            "bid_too_high",
            "A bid of {value} is more than the {most} point cards in the deck.",
            where,
            value=count,
            most=MAX_BID,
        )
    return count


def _auction_over(table, rules, highest, passed, passes_since_bid) -> bool:
    """Return True when everyone else passed after the highest bid, or everyone passed."""
    if highest is not None and highest.count >= MAX_BID and rules.get("bid20_ends_auction"):
        return True
    if rules.get("pass_is_final", True):
        out = len(set(passed))
        return out == table.size or (highest is not None and out == table.size - 1)
    needed = table.size - 1 if highest is not None else table.size
    return passes_since_bid >= needed


def _next_bidder(table: Table, player: str, out: Sequence[str]) -> str:
    """Return the next player clockwise from player who has not passed out."""
    seat = table.seat(player)
    for step in range(1, table.size + 1):
        candidate = table.players[(seat + step) % table.size]
        if candidate not in out:
            return candidate
    return player  # unreachable while the auction is open: someone has not passed


# -- the contract after the kitty -------------------------------------------------------------


def contract_change_price(
    bid: int, trump: str, new_trump: str, rules: Mapping[str, Any]
) -> int | None:
    """Return the lowest final count at which the won (bid, trump) may take new_trump.

    None means the trump is locked (a bid of 20); a count above 20 means no contract can pay
    for the change. Raising without a change costs nothing.
    """
    if new_trump == trump:
        return bid
    if bid >= MAX_BID:
        to_no_trump = trump != "NT" and new_trump == "NT"
        return MAX_BID if to_no_trump and rules.get("allow_no_trump_at_20", False) else None
    if new_trump == "NT":  # the rule names no cap here: c1 >= c0 + to_no_trump_cost
        return bid + rules.get("to_no_trump_cost", 1)
    key = "from_no_trump_cost" if trump == "NT" else "suit_change_cost"
    cost = rules.get(key, 2)
    # a suit change is capped at 20 so that 19 may still change trump at 20 (as the seed says)
    return max(min(bid + cost, MAX_BID), bid + 1)


def allowed_contract_changes(
    bid: int, trump: str, rules: Mapping[str, Any]
) -> dict[str, int | None]:
    """Return, for every trump, the lowest final count the boss may declare (None: locked)."""
    return {new: contract_change_price(bid, trump, new, rules) for new in TRUMPS}


def check_contract_change(
    won: Bid, final: Bid, rules: Mapping[str, Any], where: str = "contract"
) -> None:
    """Raise ``contract_lowered``, ``trump_locked`` or ``trump_change_too_cheap`` if not allowed."""
    if final.count < won.count:
        raise RuleViolation(
            "contract_lowered",
            "The contract {count} {trump_t} is lower than the winning bid {won_count} "
            "{won_trump_t}; the boss may only raise.",
            f"{where}.bid",
            **final.words(),
            **won.words("won_"),
        )
    price = contract_change_price(won.count, won.trump, final.trump, rules)
    if price is None:
        raise RuleViolation(
            "trump_locked",
            "The auction was won at {won_count} {won_trump_t}, which locks the trump; {count} "
            "{trump_t} is not allowed.",
            f"{where}.trump",
            **won.words("won_"),
            **final.words(),
        )
    if final.count < price:
        raise RuleViolation(
            "trump_change_too_cheap",
            "Changing the trump from {won_count} {won_trump_t} to {trump_t} needs a contract of "
            "at least {price}, not {value}.",
            f"{where}.bid",
            **won.words("won_"),
            trump_t=TRUMP_NAMES[final.trump],
            price=price,
            value=final.count,
        )


# -- the game ---------------------------------------------------------------------------------


def _choice(key: str, default: str, description: str, *choices: str) -> RuleOption:
    return RuleOption(key, "choice", default, description, choices=(default, *choices))


def _flag(key: str, default: bool, description: str) -> RuleOption:
    return RuleOption(key, "bool", default, description)


def _cost(key: str, default: int, description: str) -> RuleOption:
    return RuleOption(key, "int", default, description, minimum=0, maximum=MAX_BID - 11)


class Mighty(Game):
    """Mighty for five, as the Korean wiki article plays it, with the common house rules."""

    slug = "mighty"
    title = "Mighty"
    min_players = PLAYERS
    max_players = PLAYERS
    options = (
        RuleOption(
            "min_bid",
            "int",
            13,
            "The lowest bid of an auction (point cards promised).",
            minimum=11,
            maximum=MAX_BID,
        ),
        _choice("alt_mighty", "DA", "The mighty when spades are trump (otherwise SA).", "CA", "HA"),
        _choice(
            "alt_joker_call", "S3", "The joker-call card when clubs are trump (otherwise C3).", "H3"
        ),
        _choice(
            "misdeal",
            "point_cards",
            "Who may throw in a hand: point_cards (value <= 0), half_ten (tens 0.5, < 1), "
            "half_ten_strict (< 0.5) or off.",
            "half_ten",
            "half_ten_strict",
            "off",
        ),
        _flag(
            "no_trump_beats_same_number", True, "A no-trump bid beats a suit bid of the same count."
        ),
        _flag("pass_is_final", True, "A player who passed may not bid again in that auction."),
        _choice(
            "all_pass",
            "redeal",
            "When everyone passes: redeal (a zero round) or open_kitty (turn the kitty up, bid "
            "again from min_bid + 2).",
            "open_kitty",
        ),
        _flag("bid20_ends_auction", False, "A bid of 20 ends the auction at once."),
        _cost("to_no_trump_cost", 1, "Points the boss adds to change a suit contract to NT."),
        _cost("suit_change_cost", 2, "Points the boss adds to change to another suit."),
        _cost("from_no_trump_cost", 2, "Points the boss adds to change NT to a suit."),
        _flag("allow_no_trump_at_20", False, "A suit 20 won at auction may become NT 20."),
        RuleOption(
            "friend_types",
            "choices",
            ["card", "none"],
            "How the boss may name a friend: card, none (declared no friend), first_trick.",
            choices=FRIEND_FORMS,
        ),
        _choice(
            "trick1_trump",
            "no_lead",
            "Trump in trick 1: no_lead (the boss may not lead it) or none (nobody may play it).",
            "none",
        ),
        _choice(
            "win_formula",
            "bid_minus_10",
            "A win is worth bid - 10, taken_minus_10 (taken - 10) or pagat (2(bid-13) + over).",
            "taken_minus_10",
            "pagat",
        ),
        _choice(
            "critic",
            "ruling_plus_one",
            "Taking exactly the bid: the ruling side wins 1 (ruling_plus_one), a draw, or a win.",
            "draw",
            "win",
        ),
        _choice(
            "lose_formula",
            "twice_shortfall",
            "A loss is worth 2 x the shortfall, or the shortfall.",
            "shortfall",
        ),
        _choice(
            "run",
            "double",
            "All 20 point cards: double, fixed_20 (m = 20) or none.",
            "fixed_20",
            "none",
        ),
        _flag("declared_run_double", True, "A bid of 20 made doubles again."),
        _flag("double_no_trump", True, "A no-trump win doubles."),
        _flag("double_no_mighty", True, "A win without the mighty doubles."),
        _flag("double_no_joker", True, "A win without the joker doubles."),
        _flag("double_no_friend", True, "A win with a declared no friend doubles."),
        _choice(
            "no_card_means",
            "not_held_by_ruling",
            "'Without the mighty/joker' means not held by the ruling side, or buried_only (in "
            "the kitty).",
            "buried_only",
        ),
        _choice(
            "back_run",
            "flag",
            "The opposition taking the bid or more: flag only, double the loss, or seed_penalty "
            "(boss -10 x bid, friend -bid; not zero-sum).",
            "double",
            "seed_penalty",
        ),
    )

    def resolve_rules(self, overrides: Any) -> dict[str, Any]:
        """Return the effective house rules; at least one way to name a friend must remain."""
        rules = super().resolve_rules(overrides)
        if not rules["friend_types"]:
            raise RuleViolation(
                "invalid_rules",
                "House rule friend_types must allow at least one of {known}.",
                "rules.friend_types",
                known=", ".join(FRIEND_FORMS),
            )
        return rules

    def start(self, players, rules, setup):
        """Seat the players; the first dealer is free and the first auction opens at min_bid."""
        state = {
            "next_dealer": None,
            "min_bid": rules.get("min_bid", 13),
            "kitty_open": False,
            "rounds": 0,
            "last_outcome": None,
        }
        return tuple(players), state

    def _rules(self, table: Table) -> dict[str, Any]:
        """Return the table's rules with every missing option at its default."""
        return {option.key: table.rules.get(option.key, option.default) for option in self.options}

    # -- checking ---------------------------------------------------------------------------

    def play(self, table: Table, state: Mapping[str, Any], raw: Any, *, partial: bool = False):
        """Check a round (a played hand, a misdeal or an all-pass) and score it.

        With ``partial`` only the parts sent are checked and an unfinished auction is reported.
        Raises RuleViolation naming the broken rule.
        """
        table = Table(table.players, self._rules(table))
        raw = mapping(raw, "round")
        entered: dict[str, Any] = {}
        dealer = self._dealer(table, state, raw)
        if dealer is not None:
            entered["dealer"] = dealer
        if raw.get("misdeal") is not None:
            self._alone(raw, "misdeal", ("bidding", "all_pass", *HAND_PARTS))
            return self._misdeal(table, state, raw, entered)
        all_pass = self._all_pass_flag(raw)
        auction = None
        if raw.get("bidding") is not None:
            floor = state.get("min_bid", table.rules["min_bid"])
            auction = run_auction(table, raw["bidding"], min_bid=floor, dealer=dealer)
            entered["bidding"] = list(auction.entries)
        if all_pass or (auction is not None and auction.all_passed):
            return self._everyone_passed(table, state, raw, entered, auction, all_pass)
        if (
            auction is not None
            and not auction.finished
            and (not partial or raw.get("contract") is not None)
        ):
            raise self._unfinished(auction)
        return self._hand(table, state, raw, entered, auction, partial)

    def _dealer(self, table: Table, state: Mapping[str, Any], raw: Mapping) -> str | None:
        """Return the dealer if given, checked against the previous hand (the first is free)."""
        if raw.get("dealer") is None:
            return None
        dealer = table.player(raw["dealer"], "dealer")
        expected = state.get("next_dealer")
        if expected is not None and dealer != expected:
            raise RuleViolation(
                "wrong_dealer",
                "{expected} deals this hand ({why_t}), not {value}.",
                "dealer",
                expected=expected,
                why_t=self._dealer_reason(state),
                value=quote(dealer),
            )
        return dealer

    @staticmethod
    def _dealer_reason(state: Mapping[str, Any]) -> str:
        return DEALER_REASONS.get(state.get("last_outcome"), DEALER_REASONS["hand"])

    @staticmethod
    def _alone(raw: Mapping, form: str | None, others: Sequence[str]) -> None:
        """Refuse a round that mixes a misdeal or an all-pass with the parts of another form.

        form is the input key the round carries (``misdeal``, ``all_pass``), or None for a
        bidding log in which everyone passed.
        """
        for key in others:
            if raw.get(key) is None or (key == "all_pass" and raw[key] is False):
                continue
            if form is None:
                raise RuleViolation(
                    "invalid_value",
                    "A round with everyone passing cannot also carry {key}: a round is a played "
                    "hand, a misdeal or an auction everyone passed.",
                    key,
                    key=key,
                )
            raise RuleViolation(
                "invalid_value",
                "A round with {form} cannot also carry {key}: a round is a played hand, a "
                "misdeal or an auction everyone passed.",
                key,
                form=form,
                key=key,
            )

    @staticmethod
    def _all_pass_flag(raw: Mapping) -> bool:
        flag = raw.get("all_pass")
        if flag is None or isinstance(flag, bool):
            return bool(flag)
        raise RuleViolation(
            "invalid_value",
            "{where} must be true or false, not {value}.",
            "all_pass",
            where="all_pass",
            value=quote(flag),
        )

    @staticmethod
    def _unfinished(auction: Auction) -> RuleViolation:
        kind, values = next_bid(auction)
        player = auction.next_bidder
        if player is None:  # nobody has bid and no dealer was named: any trump, from the floor
            return RuleViolation(
                "auction_not_finished",
                "The auction is not over: it is anyone's turn (at least {count}, or pass).",
                "bidding",
                **values,
            )
        if kind == "at_least":
            return RuleViolation(
                "auction_not_finished",
                "The auction is not over: it is {player}'s turn (at least {count}, or pass).",
                "bidding",
                player=player,
                **values,
            )
        if kind == "no_trump_or_suit":
            return RuleViolation(
                "auction_not_finished",
                "The auction is not over: it is {player}'s turn (at least {count} no-trump or "
                "{next} in a suit, or pass).",
                "bidding",
                player=player,
                **values,
            )
        if kind == "no_trump":
            return RuleViolation(
                "auction_not_finished",
                "The auction is not over: it is {player}'s turn ({count} no-trump, or pass).",
                "bidding",
                player=player,
                **values,
            )
        return RuleViolation(
            "auction_not_finished",
            "The auction is not over: it is {player}'s turn (nothing beats {count} {trump_t}, "
            "so pass).",
            "bidding",
            player=player,
            **values,
        )

    # -- misdeal and all-pass rounds ----------------------------------------------------------

    def _misdeal(self, table: Table, state: Mapping, raw: Mapping, entered: dict) -> Outcome:
        """Check a thrown-in hand: 10 distinct cards whose value is low enough."""
        given = mapping(raw["misdeal"], "misdeal")
        player = table.player(require(given, "player", "misdeal.player"), "misdeal.player")
        hand = self._hand_cards(require(given, "hand", "misdeal.hand"))
        method = table.rules["misdeal"]
        value = misdeal_value(hand, method)
        if method == "off":
            raise RuleViolation("misdeal_not_allowed", "Misdeals are off at this table.", "misdeal")
        if not misdeal_allowed(value, method):
            raise RuleViolation(
                "misdeal_not_allowed",
                "{player}'s hand is worth {value}; a misdeal needs {limit_t}.",
                "misdeal.hand",
                player=player,
                value=value,
                limit_t=MISDEAL_LIMITS[method],
            )
        entered["misdeal"] = {"player": player, "hand": hand}
        account = Account()
        account.say(
            "{player} declared a misdeal: the hand is worth {value}, within the limit of "
            "{limit_t}.",
            player=player,
            value=value,
            limit_t=MISDEAL_LIMITS[method],
        )
        account.say("Nobody scores; {player} deals the next hand.", player=player)
        result = self._zero_result(table, "misdeal", account)
        result.update({"declarer": player, "hand_value": value})
        after = self._next_state(table, state, "misdeal", player)
        return Outcome(entered, result, after)

    @staticmethod
    def _hand_cards(value: Any) -> list[str]:
        """Return a misdeal hand as 10 distinct canonical cards, else raise ``invalid_hand``."""
        cards = sequence(value, "misdeal.hand")
        hand = []
        for index, text in enumerate(cards, 1):
            try:
                card = parse_card(text, f"misdeal.hand.{index}")
            except RuleViolation as bad:
                # the same words as parse_card's invalid_card, led by the card's place
                raise RuleViolation(
                    "invalid_hand",
                    "Card {index} of the hand: {value} is not a card; write a suit S H D C and a "
                    "rank A K Q J 10 9 .. 2 (e.g. 'H10'), or 'JK' for the joker.",
                    bad.field,
                    index=index,
                    **bad.params,
                ) from None
            if card in hand:
                raise RuleViolation(
                    "invalid_hand",
                    "The hand holds {card} twice.",
                    f"misdeal.hand.{index}",
                    card=card,
                )
            hand.append(card)
        if len(hand) != HAND_SIZE:
            raise RuleViolation(
                "invalid_hand",
                "A dealt hand has {size} cards, not {count}.",
                "misdeal.hand",
                size=HAND_SIZE,
                count=len(hand),
            )
        return hand

    def _everyone_passed(self, table, state, raw, entered, auction, all_pass) -> Outcome:
        """Score an auction nobody bid in: a zero round, the same dealer deals again."""
        if auction is not None and not auction.finished:
            raise self._unfinished(auction)
        if auction is not None and auction.highest is not None:
            raise RuleViolation(
                "invalid_value",
                "all_pass is true, but {player} won the auction with {count} {trump_t}.",
                "all_pass",
                player=auction.leader,
                **auction.highest.words(),
            )
        if all_pass:
            self._alone(raw, "all_pass", HAND_PARTS)
        elif raw.get("contract") is not None:
            raise RuleViolation(
                "boss_not_auction_winner",
                "Everyone passed in the bidding log, so nobody won the auction and there is no "
                "contract.",
                "contract.boss",
            )
        else:
            self._alone(raw, None, HAND_PARTS)
        entered["all_pass"] = True
        dealer = entered.get("dealer") or state.get("next_dealer")
        if dealer is None and auction is not None:
            dealer = auction.starter
        reopen = table.rules["all_pass"] == "open_kitty" and not state.get("kitty_open")
        account = Account()
        account.say("Everyone passed: nobody scores.")
        floor = min(table.rules["min_bid"] + 2, MAX_BID)
        if reopen and dealer:
            account.say(
                "The kitty is turned up and the auction starts again from {floor}, starting "
                "with {dealer}.",
                floor=floor,
                dealer=dealer,
            )
        elif reopen:
            account.say(
                "The kitty is turned up and the auction starts again from {floor}.", floor=floor
            )
        elif dealer:
            account.say("The cards are dealt again by {dealer}.", dealer=dealer)
        else:
            account.say("The cards are dealt again.")
        result = self._zero_result(table, "all_pass", account)
        result["kitty_open"] = reopen
        return Outcome(entered, result, self._next_state(table, state, "all_pass", dealer, reopen))

    @staticmethod
    def _zero_result(table: Table, outcome: str, account: Account) -> dict[str, Any]:
        return {
            "deltas": dict.fromkeys(table.players, 0),
            **account.result(),
            "outcome": outcome,
            "ruling_points": None,
            "back_run": False,
            "base": 0,
            "multipliers": [],
            "m": 0,
        }

    # -- a played hand ------------------------------------------------------------------------

    def _hand(self, table, state, raw, entered, auction, partial) -> Outcome:
        """Check a played hand's contract, friend, points and holders, then score it."""
        contract = self._contract(table, state, raw, auction, partial)
        if contract is not None:
            entered["contract"] = contract
        friend = self._friend(table, raw, partial)
        if friend is not None:
            entered["friend"] = friend
        points = self._points(raw, partial)
        if points is not None:
            entered["opposition_points"] = points
        for key in ("mighty_holder", "joker_holder"):
            if raw.get(key) is not None:
                entered[key] = self._holder(raw[key], key)
        self._check_holders(table, entered)
        if not all(key in entered for key in ("contract", "friend", "opposition_points")):
            return Outcome(entered, self._progress(table, entered, auction), dict(state))
        result = self.score(table, entered)
        if auction is not None:
            result["winning_bid"] = {"player": auction.leader, **auction.highest.as_dict()}
        # the previous hand's friend deals; with no friend, the boss
        dealer = self._friend_player(entered) or entered["contract"]["boss"]
        after = self._next_state(table, state, "hand", dealer)
        return Outcome(entered, result, after)

    def _contract(self, table, state, raw, auction, partial) -> dict[str, Any] | None:
        if partial and raw.get("contract") is None:
            return None
        given = mapping(require(raw, "contract"), "contract")
        boss = table.player(require(given, "boss", "contract.boss"), "contract.boss")
        count = whole_number(require(given, "bid", "contract.bid"), "contract.bid")
        check_bid_count(count, state.get("min_bid", table.rules["min_bid"]), "contract.bid")
        final = Bid(count, parse_trump(require(given, "trump", "contract.trump"), "contract.trump"))
        if auction is not None:
            if boss != auction.winner:
                raise RuleViolation(
                    "boss_not_auction_winner",
                    "{value} is named boss, but {winner} won the auction with {count} {trump_t}.",
                    "contract.boss",
                    value=quote(boss),
                    winner=auction.winner,
                    **auction.highest.words(),
                )
            check_contract_change(auction.highest, final, table.rules)
        return {"boss": boss, **final.as_dict()}

    def _friend(self, table: Table, raw: Mapping, partial: bool) -> dict[str, Any] | None:
        if partial and raw.get("friend") is None:
            return None
        given = mapping(require(raw, "friend"), "friend")
        forms = [form for form in FRIEND_FORMS if given.get(form) is not None]
        if not forms and given.get("player") is not None:
            require(given, "card", "friend.card")
        if len(forms) != 1:
            raise RuleViolation(
                "invalid_value",
                'friend must be one of {{"card": C, "player": P}}, {{"none": true}} or '
                '{{"first_trick": P}}, not {value}.',
                "friend",
                value=json.dumps(given, default=str),
            )
        form = forms[0]
        if form not in table.rules["friend_types"]:
            raise RuleViolation(
                "friend_type_not_allowed",
                "This table does not allow a {form} friend (allowed: {allowed}).",
                f"friend.{form}",
                form=quote(form),
                allowed=", ".join(table.rules["friend_types"]),
            )
        if form == "none":
            if given["none"] is not True:
                raise RuleViolation(
                    "invalid_value",
                    "{where} must be true, not {value}.",
                    "friend.none",
                    where="friend.none",
                    value=quote(given["none"]),
                )
            return {"none": True}
        if form == "first_trick":
            return {"first_trick": table.player(given["first_trick"], "friend.first_trick")}
        card = parse_card(given["card"], "friend.card")
        player = table.player(require(given, "player", "friend.player"), "friend.player")
        return {"card": card, "player": player}

    @staticmethod
    def _points(raw: Mapping, partial: bool) -> int | None:
        if partial and raw.get("opposition_points") is None:
            return None
        value = require(raw, "opposition_points")
        try:
            points = whole_number(value, "opposition_points")
        except RuleViolation:
            points = None
        if points is None or not 0 <= points <= POINT_CARDS:
            raise RuleViolation(
                "invalid_points",
                "opposition_points must be a whole number of point cards from 0 to {most}, "
                "not {value}.",
                "opposition_points",
                most=POINT_CARDS,
                value=quote(value),
            )
        return points

    @staticmethod
    def _holder(value: Any, key: str) -> str:
        holder = value.strip().lower() if isinstance(value, str) else value
        if holder not in HOLDERS:
            raise RuleViolation(
                "invalid_value",
                "{key} must be one of boss, friend, opposition or kitty, not {value}.",
                key,
                key=key,
                value=quote(value),
            )
        return holder

    def _check_holders(self, table: Table, entered: Mapping[str, Any]) -> None:
        """Refuse holders that contradict the friend card, a missing friend or the points."""
        friend = entered.get("friend")
        contract = entered.get("contract")
        has_friend = None
        if friend is not None and "none" in friend:
            has_friend = False
        elif friend is not None and contract is not None:
            has_friend = self._friend_player(entered) is not None
        cards = {"joker_holder": JOKER}
        if contract is not None:
            cards["mighty_holder"] = mighty_card(contract["trump"], table.rules)
        for key in ("mighty_holder", "joker_holder"):
            holder = entered.get(key)
            if holder == "friend" and has_friend is False:
                raise RuleViolation(
                    "holder_conflict",
                    "{key} is 'friend', but this hand has no friend.",
                    key,
                    key=key,
                )
            card = cards.get(key)
            if holder is None or card is None or friend is None or friend.get("card") != card:
                continue
            if has_friend and holder not in ("boss", "friend"):
                raise RuleViolation(
                    "holder_conflict",
                    "{card} is the friend card, so the friend {player} holds it for the ruling "
                    "side; {key} cannot be {value}.",
                    key,
                    card=card,
                    player=friend["player"],
                    key=key,
                    value=quote(holder),
                )
            if has_friend is False and holder not in ("boss", "kitty"):
                raise RuleViolation(
                    "holder_conflict",
                    "{card} is the friend card and the boss is their own friend, so it is in the "
                    "boss's hand or the kitty; {key} cannot be {value}.",
                    key,
                    card=card,
                    key=key,
                    value=quote(holder),
                )
        if entered.get("mighty_holder") == "opposition" and entered.get("opposition_points") == 0:
            raise RuleViolation(
                "holder_conflict",
                "The opposition held the mighty, which wins its trick and is itself a point "
                "card, so opposition_points cannot be 0.",
                "opposition_points",
            )

    @staticmethod
    def _friend_player(entered: Mapping[str, Any]) -> str | None:
        """Return the real friend's name, or None for a declared none or a self friend."""
        friend = entered["friend"]
        player = friend.get("player") or friend.get("first_trick")
        return None if player is None or player == entered["contract"]["boss"] else player

    def _progress(self, table: Table, entered: Mapping[str, Any], auction: Auction | None):
        """Return a dry run's result for the parts sent: what was checked and what comes next."""
        account = Account()
        result: dict[str, Any] = {"complete": False}
        if "dealer" in entered:
            account.say("{dealer} deals.", dealer=entered["dealer"])
        if auction is not None:
            result.update(auction.summary())
            self._say_auction(account, auction)
            if auction.finished:
                won = auction.highest
                result["winning_bid"] = {"player": auction.leader, **won.as_dict()}
                changes = allowed_contract_changes(won.count, won.trump, table.rules)
                result["contract_changes"] = changes
        if "contract" in entered:
            contract = entered["contract"]
            account.say(
                "Contract: {boss} as boss, {count} {trump_t}.",
                boss=contract["boss"],
                **Bid(contract["bid"], contract["trump"]).words(),
            )
        if "friend" in entered:
            self._say_friend(account, entered)
        if "opposition_points" in entered:
            account.say(
                "The opposition took {points} point cards.", points=entered["opposition_points"]
            )
        account.say("Nothing to score yet: the parts sent are consistent.")
        result.update({"deltas": dict.fromkeys(table.players, 0), **account.result()})
        return result

    @staticmethod
    def _say_auction(account: Account, auction: Auction) -> None:
        """Say where the auction stands: who won it, or the highest bid and whose turn it is."""
        if auction.finished:
            account.say(
                "The auction is over: {leader} won with {count} {trump_t}.",
                leader=auction.leader,
                **auction.highest.words(),
            )
            return
        if auction.highest is not None:
            account.say(
                "Highest bid so far: {leader}, {count} {trump_t}.",
                leader=auction.leader,
                **auction.highest.words(),
            )
        kind, values = next_bid(auction)
        player = auction.next_bidder
        if player is None:  # nobody has bid and no dealer was named: any trump, from the floor
            account.say("Anyone to bid: at least {count}, or pass.", **values)
        elif kind == "at_least":
            account.say("{player} to bid: at least {count}, or pass.", player=player, **values)
        elif kind == "no_trump_or_suit":
            account.say(
                "{player} to bid: at least {count} no-trump or {next} in a suit, or pass.",
                player=player,
                **values,
            )
        elif kind == "no_trump":
            account.say("{player} to bid: {count} no-trump, or pass.", player=player, **values)
        else:
            account.say(
                "{player} to bid: nothing beats {count} {trump_t}, so pass.",
                player=player,
                **values,
            )

    @staticmethod
    def _friend_form(entered: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """Return how the friend was named and the values a sentence about them needs.

        The forms: none, self_first_trick, first_trick, self_card and card; the values are
        ``friend`` (a name) and ``card``, as the form has them.
        """
        friend = entered["friend"]
        boss = entered["contract"]["boss"] if "contract" in entered else None
        if "none" in friend:
            return "none", {}
        if "first_trick" in friend:
            player = friend["first_trick"]
            return ("self_first_trick" if player == boss else "first_trick"), {"friend": player}
        if friend["player"] == boss:
            return "self_card", {"card": friend["card"]}
        return "card", {"friend": friend["player"], "card": friend["card"]}

    def _say_friend(self, account: Account, entered: Mapping[str, Any]) -> None:
        """Say who the friend is (a dry run's line)."""
        form, values = self._friend_form(entered)
        if form == "none":
            account.say("Friend: declared no friend.")
        elif form == "self_first_trick":
            account.say(
                "Friend: the winner of trick 1 was the boss {friend} (a self friend).", **values
            )
        elif form == "first_trick":
            account.say("Friend: {friend}, who won trick 1.", **values)
        elif form == "self_card":
            account.say(
                "Friend: {card}, in the boss's own hand or the kitty (a self friend).", **values
            )
        else:
            account.say("Friend: {friend}, who holds {card}.", **values)

    def _say_contract(self, account: Account, entered: Mapping[str, Any]) -> None:
        """Say who is the boss with what contract, and who the friend is (a hand's first line)."""
        contract = entered["contract"]
        form, values = self._friend_form(entered)
        values.update(boss=contract["boss"], **Bid(contract["bid"], contract["trump"]).words())
        if form == "none":
            account.say(
                "{boss} is the boss with {count} {trump_t}; friend: declared no friend.", **values
            )
        elif form == "self_first_trick":
            account.say(
                "{boss} is the boss with {count} {trump_t}; friend: the winner of trick 1 was "
                "the boss {friend} (a self friend).",
                **values,
            )
        elif form == "first_trick":
            account.say(
                "{boss} is the boss with {count} {trump_t}; friend: {friend}, who won trick 1.",
                **values,
            )
        elif form == "self_card":
            account.say(
                "{boss} is the boss with {count} {trump_t}; friend: {card}, in the boss's own "
                "hand or the kitty (a self friend).",
                **values,
            )
        else:
            account.say(
                "{boss} is the boss with {count} {trump_t}; friend: {friend}, who holds {card}.",
                **values,
            )

    # -- scoring ----------------------------------------------------------------------------

    def score(self, table: Table, entered: Mapping[str, Any]) -> dict[str, Any]:
        """Score a checked hand and explain every point (trusted input: call after checking)."""
        rules = self._rules(table)
        contract = entered["contract"]
        boss, bid = contract["boss"], contract["bid"]
        against = entered["opposition_points"]
        taken = POINT_CARDS - against
        friend = self._friend_player(entered)
        back_run = against >= bid
        account = Account()
        self._say_contract(account, entered)
        account.say(
            "The opposition took {against} point cards, so the ruling side has "
            "n = {total} - {against} = {taken}.",
            against=against,
            total=POINT_CARDS,
            taken=taken,
        )
        if taken > bid or taken == bid == MAX_BID:
            outcome, sign = "ruling_win", 1
            base, m, applied, formula, steps = self._win(rules, entered, taken)
            if taken > bid:
                account.say("{taken} > {bid}: the ruling side wins.", taken=taken, bid=bid)
            else:
                account.say("n = bid = {bid}, a declared run: the ruling side wins.", bid=bid)
            self._say_arithmetic(account, base, formula, steps, m)
        elif taken == bid and rules["critic"] == "win":
            outcome, sign = "critic", 1
            base, m, applied, formula, steps = self._win(rules, entered, taken)
            account.say("n = bid = {bid}: a critic, scored as an ordinary win.", bid=bid)
            self._say_arithmetic(account, base, formula, steps, m)
        elif taken == bid:
            outcome, applied = "critic", []
            base = m = 1 if rules["critic"] == "ruling_plus_one" else 0
            sign = 1
            if m:
                account.say(
                    "n = bid = {bid}: a critic; the ruling side keeps its privilege and wins "
                    "m = 1 (no multipliers).",
                    bid=bid,
                )
            else:
                account.say("n = bid = {bid}: a critic, scored as a draw.", bid=bid)
        else:
            outcome, sign = "opposition_win", -1
            base, m, applied, formula, steps = self._loss(rules, bid, taken, back_run)
            account.say("{taken} < {bid}: the opposition wins.", taken=taken, bid=bid)
            self._say_arithmetic(account, base, formula, steps, m)
        if back_run:
            account.say(
                "Back-run: the opposition took {against} point cards, at least the bid of {bid}.",
                against=against,
                bid=bid,
            )
        deltas = self._share(table, boss, friend, sign * m)
        if back_run and rules["back_run"] == "seed_penalty":
            deltas[boss] = -10 * bid
            penalty = {"bid": bid, "penalty": -10 * bid, "m": m}
            if friend is not None:
                deltas[friend] = -bid
                account.say(
                    "Back-run penalty (seed rule): boss -10 x {bid} = {penalty}, friend -{bid}; "
                    "the opposition +{m} each as usual. This hand is not zero-sum.",
                    **penalty,
                )
            else:
                account.say(
                    "Back-run penalty (seed rule): boss -10 x {bid} = {penalty}; the opposition "
                    "+{m} each as usual. This hand is not zero-sum.",
                    **penalty,
                )
        self._say_share(account, table, boss, friend, deltas)
        return {
            "deltas": deltas,
            **account.result(),
            "outcome": outcome,
            "ruling_points": taken,
            "back_run": back_run,
            "base": base,
            "multipliers": applied,
            "m": m,
            "boss": boss,
            "friend": friend,
            "contract": dict(contract),
            "self_friend": friend is None and "none" not in entered["friend"],
        }

    def _win(self, rules, entered, taken) -> tuple[int, int, list[str], str, list[str]]:
        """Return (base, m, multipliers applied, base formula, steps to m) for a ruling win.

        The formula is arithmetic ("15 - 10"); the steps are words marked for translation
        ("x2 run"), in the order they apply.
        """
        contract = entered["contract"]
        bid, trump = contract["bid"], contract["trump"]
        formula = rules["win_formula"]
        if formula == "taken_minus_10":
            base, arithmetic = taken - 10, f"{taken} - 10"
        elif formula == "pagat":
            base = 2 * (bid - 13) + (taken - bid)
            arithmetic = f"2 x ({bid} - 13) + ({taken} - {bid})"
        else:
            base, arithmetic = bid - 10, f"{bid} - 10"
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
            ("no_mighty", rules["double_no_mighty"]
             and self._missing(rules, entered.get("mighty_holder"))),
            ("no_joker", rules["double_no_joker"]
             and self._missing(rules, entered.get("joker_holder"))),
            ("no_friend", "none" in entered["friend"] and rules["double_no_friend"]),
        )  # fmt: skip
        for name, applies in doubles:
            if applies:
                applied.append(name)
                m *= 2
                steps.append(STEPS[name])
        return base, m, applied, arithmetic, steps

    @staticmethod
    def _say_arithmetic(account: Account, base: int, formula: str, steps: list[str], m: int):
        """Say how m comes about: "Base 5 = 15 - 10; x2 run; x2 no-trump = 20."."""
        values: dict[str, Any] = {"base": base, "formula": formula, "m": m}
        values.update({f"step{index}_t": step for index, step in enumerate(steps, 1)})
        count = len(steps)
        if count == 0:
            account.say("Base {base} = {formula}; m = {m}.", **values)
        elif steps[-1] == RUN_FIXED:  # the run comes first: here it is the only step
            account.say("Base {base} = {formula}; {step1_t}.", **values)
        elif count == 1:
            account.say("Base {base} = {formula}; {step1_t} = {m}.", **values)
        elif count == 2:
            account.say("Base {base} = {formula}; {step1_t}; {step2_t} = {m}.", **values)
        elif count == 3:
            account.say("Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t} = {m}.", **values)
        elif count == 4:
            account.say(
                "Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t}; {step4_t} = {m}.",
                **values,
            )
        elif count == 5:
            account.say(
                "Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t}; {step4_t}; "
                "{step5_t} = {m}.",
                **values,
            )
        else:  # the run and all five doubles
            account.say(
                "Base {base} = {formula}; {step1_t}; {step2_t}; {step3_t}; {step4_t}; "
                "{step5_t}; {step6_t} = {m}.",
                **values,
            )

    @staticmethod
    def _missing(rules: Mapping[str, Any], holder: str | None) -> bool:
        """Return True if the ruling side played without the card held by holder."""
        if rules["no_card_means"] == "buried_only":
            return holder == "kitty"
        return holder in ("opposition", "kitty")

    @staticmethod
    def _loss(rules, bid, taken, back_run) -> tuple[int, int, list[str], str, list[str]]:
        """Return (base, m, multipliers applied, base formula, steps) for a lost contract."""
        if rules["lose_formula"] == "shortfall":
            base, formula = bid - taken, f"{bid} - {taken}"
        else:
            base, formula = 2 * (bid - taken), f"2 x ({bid} - {taken})"
        if back_run and rules["back_run"] == "double":
            # the x2 is not one of the ruling side's multipliers, so the list stays empty
            return base, 2 * base, [], formula, [STEPS["back_run"]]
        return base, base, [], formula, []

    @staticmethod
    def _share(table: Table, boss: str, friend: str | None, ms: int) -> dict[str, int]:
        """Split m: boss 2m and friend m against 3 x m, or boss 4m alone against 4 x m."""
        deltas = {player: -ms for player in table.players}
        if friend is None:
            deltas[boss] = 4 * ms
        else:
            deltas[boss] = 2 * ms
            deltas[friend] = ms
        return deltas

    @staticmethod
    def _say_share(
        account: Account, table: Table, boss: str, friend: str | None, deltas: Mapping[str, int]
    ) -> None:
        """Say what each side gets: "Ann (boss) +10, Ben (friend) +5, Cy, Dee and Eve ..."."""
        others = [p for p in table.players if p not in (boss, friend)]
        values: dict[str, Any] = {
            "boss": boss,
            "boss_points": signed(deltas[boss]),
            "points": signed(deltas[others[0]]),
            **{f"other{index}": name for index, name in enumerate(others, 1)},
        }
        if friend is not None:
            values.update(friend=friend, friend_points=signed(deltas[friend]))
        # five at the table: three against the boss and the friend, or four against the boss
        if friend is not None:
            account.say(
                "{boss} (boss) {boss_points}, {friend} (friend) {friend_points}, {other1}, "
                "{other2} and {other3} (opposition) {points} each.",
                **values,
            )
        else:
            account.say(
                "{boss} (boss) {boss_points}, {other1}, {other2}, {other3} and {other4} (the "
                "other four) {points} each.",
                **values,
            )

    # -- state ------------------------------------------------------------------------------

    def _next_state(self, table, state, outcome, dealer, reopen=False) -> dict[str, Any]:
        """Return the state after a round: who deals next and the next auction's minimum."""
        floor = table.rules["min_bid"]
        return {
            **state,
            "next_dealer": dealer,
            "min_bid": min(floor + 2, MAX_BID) if reopen else floor,
            "kitty_open": reopen,
            "rounds": state.get("rounds", 0) + 1,
            "last_outcome": outcome,
        }

    def public_state(self, table, state, totals):
        """Tell the table who deals, the auction's minimum and the special cards by trump."""
        rules = self._rules(table)
        return {
            "next_dealer": state.get("next_dealer"),
            "dealer_free": state.get("next_dealer") is None,
            "min_bid": state.get("min_bid", rules["min_bid"]),
            "kitty_open": state.get("kitty_open", False),
            "mighty_card": {trump: mighty_card(trump, rules) for trump in TRUMPS},
            "joker_call_card": {trump: joker_call_card(trump, rules) for trump in TRUMPS},
            "friend_types": list(rules["friend_types"]),
            "rounds": state.get("rounds", 0),
            "last_outcome": state.get("last_outcome"),
        }
