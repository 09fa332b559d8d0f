"""The auction: bids, their order, the bidding log and whose turn it is.

Bidding starts with the dealer and goes in the order of play; each bid must beat the highest,
and the auction ends when everyone else has passed after it. Its winner is the boss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import MalformedInput, RuleViolation, quote
from ...inputs import mapping, require, sequence, whole_number
from ..cards import POINT_CARDS, TRUMP_NAMES, TRUMPS, parse_trump
from ..shapes import AuctionSummary, BidEntry, BidFields, MightyState

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules, MightyTable

#: the highest bid: every point card
MAX_BID = POINT_CARDS
#: how much an auction reopened over the turned-up kitty raises the lowest bid (at most MAX_BID)
REOPEN_RAISE = 2


def auction_floor(rules: MightyRules, state: MightyState | None = None) -> int:
    """Return the next auction's lowest bid: the state's (after an open kitty), else min_bid's."""
    if state is not None and state.get("min_bid") is not None:
        return int(state["min_bid"])
    return int(rules.min_bid)


def next_floor(rules: MightyRules, reopen: bool) -> int:
    """Return the lowest bid after a round: raised by REOPEN_RAISE when the kitty is turned up."""
    floor = auction_floor(rules)
    return min(floor + REOPEN_RAISE, MAX_BID) if reopen else floor


@dataclass(frozen=True)
class Bid:
    """A bid or contract: how many point cards the ruling side promises, and the trump."""

    count: int
    trump: str

    def __str__(self) -> str:
        return f"{self.count} {TRUMP_NAMES[self.trump]}"

    def as_dict(self) -> BidFields:
        """Return the bid as the API writes it."""
        return {"bid": self.count, "trump": self.trump}

    def words(self, prefix: str = "") -> dict[str, object]:
        """Return the bid as a message's values: ``{prefix}count`` and the trump's name.

        The trump's name goes in ``{prefix}trump_t``, so that it is translated with the message
        ("15 hearts" is "{count} {trump_t}").
        """
        return {f"{prefix}count": self.count, f"{prefix}trump_t": TRUMP_NAMES[self.trump]}


def beats(bid: Bid, other: Bid, rules: MightyRules) -> bool:
    """Return True if bid outranks other: a higher count, or NT over a suit at the same count."""
    if bid.count != other.count:
        return bid.count > other.count
    no_trump_wins = rules.no_trump_beats_same_number
    return no_trump_wins and bid.trump == "NT" and other.trump != "NT"


def lowest_next_bid(
    highest: Bid | None, rules: MightyRules, min_bid: int | None = None
) -> tuple[int, tuple[str, ...]] | None:
    """Return the lowest legal next bid count and the trumps allowed at it; None if none is."""
    if highest is None:
        return (auction_floor(rules) if min_bid is None else min_bid), TRUMPS
    if highest.trump != "NT" and rules.no_trump_beats_same_number:
        return highest.count, ("NT",)
    if highest.count >= MAX_BID:
        return None
    return highest.count + 1, TRUMPS


@dataclass(frozen=True)
class Auction:
    """The auction so far: the checked log, the highest bid, who passed and whose turn it is."""

    entries: tuple[BidEntry, ...]
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
    def top(self) -> Bid:
        """Return the highest bid, asked only of an auction someone bid in."""
        if self.highest is None:
            raise ValueError("nobody bid in this auction")
        return self.highest

    @property
    def winner(self) -> str | None:
        """Return the boss once the auction is over, else None."""
        return self.leader if self.finished else None

    def summary(self) -> AuctionSummary:
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
    table: MightyTable,
    entries: object,
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
    rules, players = table.rules, table.players
    floor = auction_floor(rules) if min_bid is None else min_bid
    final_pass, ends_at_20 = rules.pass_is_final, rules.bid20_ends_auction
    log = sequence(entries, where)
    checked: list[BidEntry] = []
    passed: list[str] = []
    highest: Bid | None = None
    leader: str | None = None
    passes_since_bid = 0
    finished = False
    turn = dealer
    for index, raw in enumerate(log, 1):
        path = f"{where}.{index}"
        entry = mapping(raw, path)
        player_path = f"{path}.player"
        player = table.player(require(entry, "player", player_path), player_path)
        _check_turn(player, player_path, index, turn, passed if final_pass else (), finished)
        if _is_pass(entry, path):
            passed.append(player)
            passes_since_bid += 1
            checked.append({"player": player, "pass": True})
        else:
            bid = _bid(entry, path, floor)
            _check_higher(bid, highest, leader, player, path, rules)
            highest, leader, passes_since_bid = bid, player, 0
            checked.append({"player": player, **bid.as_dict()})
        finished = _auction_over(
            len(players), ends_at_20, final_pass, highest, passed, passes_since_bid
        )
        turn = None if finished else _next_bidder(players, player, passed if final_pass else ())
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


def _check_turn(
    player: str,
    player_path: str,
    index: int,
    turn: str | None,
    passed: Sequence[str],
    finished: bool,
) -> None:
    """Refuse a bid after a final pass, after the auction ended, or out of turn (``turn``: the
    player to bid, None for whoever bids first)."""
    if player in passed:
        raise RuleViolation(
            "bid_after_pass",
            "{player} already passed and may not bid again in this auction (entry {index}).",
            player_path,
            player=player,
            index=index,
        )
    if finished:
        raise RuleViolation(
            "out_of_turn",
            "The auction was already over before entry {index} ({player}).",
            player_path,
            index=index,
            player=player,
        )
    if turn and player != turn:
        raise RuleViolation(
            "out_of_turn",
            "It is {expected}'s turn to bid, but entry {index} is by {value}.",
            player_path,
            expected=turn,
            value=quote(player),
            index=index,
        )


def _check_higher(
    bid: Bid,
    highest: Bid | None,
    leader: str | None,
    player: str,
    path: str,
    rules: MightyRules,
) -> None:
    """Refuse a bid that does not beat the highest so far (``bid_not_higher``)."""
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


def next_bid(auction: Auction) -> tuple[str, dict[str, object]]:
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


def _is_pass(entry: Mapping[str, object], path: str) -> bool:
    """Return True for a pass entry; a pass carrying a bid is refused as ambiguous."""
    flag = entry.get("pass")
    if flag is None or flag is False:
        return False
    if flag is not True:
        raise MalformedInput(
            "invalid_value",
            "{where} must be true or false, not {value}.",
            f"{path}.pass",
            where=f"{path}.pass",
            value=quote(flag),
        )
    if entry.get("bid") is not None or entry.get("trump") is not None:
        raise MalformedInput(
            "invalid_value",
            "Entry {path} is both a pass and a bid; send either pass or bid and trump.",
            path,
            path=path,
        )
    return True


def _bid(entry: Mapping[str, object], path: str, floor: int) -> Bid:
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


def _auction_over(
    size: int,
    ends_at_20: bool,
    final_pass: bool,
    highest: Bid | None,
    passed: Sequence[str],
    passes_since_bid: int,
) -> bool:
    """Return True when everyone else of the ``size`` at the table passed after the highest
    bid, or everyone passed (``ends_at_20``, ``final_pass``: the house rules of those names)."""
    if highest is not None and highest.count >= MAX_BID and ends_at_20:
        return True
    if final_pass:
        out = len(set(passed))
        return out == size or (highest is not None and out == size - 1)
    needed = size - 1 if highest is not None else size
    return passes_since_bid >= needed


def _next_bidder(players: Sequence[str], player: str, out: Sequence[str]) -> str:
    """Return the next player clockwise from player who has not passed out."""
    seat, size = players.index(player), len(players)
    for step in range(1, size + 1):
        candidate = players[(seat + step) % size]
        if candidate not in out:
            return candidate
    return player  # unreachable while the auction is open: someone has not passed


def unfinished_auction(auction: Auction) -> RuleViolation:
    """Return the ``auction_not_finished`` error naming whose turn it is and what they may bid."""
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
