"""The facts a scored hand rests on, as data: the bid and the contract, the mighty and the joker,
the friend, and each multiplier that applied or not (docs/API.md, Mighty, ``facts``).

The explanation's sentences about them are built from these values (``explain.facts``); a table
that argues about a hand reads them here. Pure functions of plain values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from ..bidding.auction import MAX_BID
from ..bidding.contract import contract_change_price
from ..bidding.friend import friend_player
from ..cards import JOKER, mighty_card
from ..shapes import BidFields, Contract, Friend, MightyInput, WinningBid
from .multipliers import MultiplierFact, multiplier_facts

if TYPE_CHECKING:
    from ..house_rules.rules import MightyRules

if TYPE_CHECKING:
    from ..tricks.log import PlayLog
    from .score import Score


class CardFact(TypedDict):
    """Where the mighty or the joker was: its card, its holder's side and name, its trick."""

    card: str
    holder: str | None  # boss, friend, opposition, kitty; None: not entered (the ruling side's)
    player: str | None  # the holder's name when known (the boss, the friend, or from the tricks)
    trick: int | None  # the trick it was played in (from 1), when the tricks were entered
    friend_card: bool  # the friend card was this very card


class FriendFact(TypedDict):
    """How the friend was named and who it was: a card call, declared none, the first trick."""

    form: str  # card, none or first_trick
    card: str | None
    player: str | None  # the real friend (None: declared none, a self friend, not yet shown)
    self_friend: bool
    where: str | None  # a called card: "player", "hand" (the boss's own) or "kitty"
    trick: int | None  # when the friend was revealed (from 1), when the tricks tell


#: the auction's winning bid changed into the contract: what, for how much, by which house rule
#: (``cost``: the rule's raise for a trump change, None for a plain raise or a 20 kept at 20)
ContractChange = TypedDict(
    "ContractChange",
    {
        "from": BidFields,
        "to": BidFields,
        "raised_by": int,
        "price": int,
        "cost": int | None,
        "rule": str | None,
    },
)


class HandFacts(TypedDict):
    """Every fact of a scored hand's result, as its ``facts`` field."""

    contract: Contract
    winning_bid: WinningBid | None
    contract_change: ContractChange | None
    mighty: CardFact
    joker: CardFact
    friend: FriendFact
    multipliers: list[MultiplierFact]


def change_rule(won_trump: str, trump: str, won_count: int) -> str | None:
    """Return the house rule that prices (or allows) changing won_trump to trump."""
    if trump == won_trump:
        return None
    if won_count >= MAX_BID:
        return "allow_no_trump_at_20"
    if trump == "NT":
        return "to_no_trump_cost"
    return "from_no_trump_cost" if won_trump == "NT" else "suit_change_cost"


def contract_change(
    rules: MightyRules, won: WinningBid, contract: Contract
) -> ContractChange | None:
    """Return how the winning bid became the contract, or None when the contract is that bid."""
    count, trump = contract["bid"], contract["trump"]
    if count == won["bid"] and trump == won["trump"]:
        return None
    rule = change_rule(won["trump"], trump, won["bid"])
    price = contract_change_price(won["bid"], won["trump"], trump, rules)
    paid = rules[rule] if rule is not None and rule.endswith("_cost") else None
    cost = paid if isinstance(paid, int) else None
    return {
        "from": {"bid": won["bid"], "trump": won["trump"]},
        "to": {"bid": count, "trump": trump},
        "raised_by": count - won["bid"],
        "price": count if price is None else price,
        "cost": cost,
        "rule": rule,
    }


def friend_fact(friend: Friend, boss: str, log: PlayLog | None) -> FriendFact:
    """Return how the friend was named, who it is, and the trick that revealed them."""
    real = friend_player(friend, boss)
    if "none" in friend:
        return FriendFact(
            form="none", card=None, player=None, self_friend=False, where=None, trick=None
        )
    if "first_trick" in friend:
        return FriendFact(
            form="first_trick",
            card=None,
            player=real,
            self_friend=real is None,
            where=None,
            trick=1,  # the winner of trick 1, by the rule itself
        )
    card = friend["card"]
    seen = log.played.get(card) if log is not None else None
    if friend.get("kitty") or (log is not None and seen is None):
        where: str | None = "kitty"
    elif friend.get("player") == boss:
        where = "hand"
    else:
        where = "player" if "player" in friend else None
    return FriendFact(
        form="card",
        card=card,
        player=real,
        self_friend=where in ("hand", "kitty"),
        where=where,
        trick=None if seen is None else seen[0] + 1,
    )


def card_fact(
    card: str,
    holder: str | None,
    boss: str,
    friend: FriendFact,
    log: PlayLog | None,
) -> CardFact:
    """Return where the mighty or the joker was, with its holder's name when it is known."""
    seen = log.played.get(card) if log is not None else None
    names = {"boss": boss, "friend": friend["player"]}
    if holder is None and friend["card"] == card and seen is None:
        # the friend card is this card: whoever the friend call found held it
        holder = {"player": "friend", "hand": "boss"}.get(friend["where"] or "")
    return CardFact(
        card=card,
        holder=holder,
        player=seen[1] if seen is not None else names.get(holder or ""),
        trick=None if seen is None else seen[0] + 1,
        friend_card=friend["card"] == card,
    )


def winning_bid(entered: MightyInput) -> WinningBid | None:
    """Return the auction's winning bid from a hand's checked bidding log (None: no log)."""
    bids = [entry for entry in entered.get("bidding", ()) if not entry.get("pass")]
    if not bids:
        return None
    won = bids[-1]  # each bid beats the one before
    return {"player": won["player"], "bid": won["bid"], "trump": won["trump"]}


def hand_facts(
    rules: MightyRules,
    entered: MightyInput,
    score: Score,
    log: PlayLog | None = None,
) -> HandFacts:
    """Return the facts of a scored hand (entered as checked, settled by its tricks if any)."""
    winning = winning_bid(entered)
    contract = entered["contract"]
    boss, trump = contract["boss"], contract["trump"]
    friend = friend_fact(entered["friend"], boss, log)
    mighty = card_fact(mighty_card(trump, rules), entered.get("mighty_holder"), boss, friend, log)
    joker = card_fact(JOKER, entered.get("joker_holder"), boss, friend, log)
    return HandFacts(
        contract=contract.copy(),
        winning_bid=winning,
        contract_change=None if winning is None else contract_change(rules, winning, contract),
        mighty=mighty,
        joker=joker,
        friend=friend,
        multipliers=multiplier_facts(
            rules,
            score,
            trump=trump,
            holders={"mighty": mighty["holder"], "joker": joker["holder"]},
            friend_form=friend["form"],
            self_friend=friend["self_friend"],
        ),
    )
