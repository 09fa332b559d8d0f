"""A round's form: its body split into named parts once (``Body``), a played hand, a misdeal or
an auction everyone passed, never two at once; the result of a round nobody scores in, and the
state after a round.

Only ``Body.of`` reads the request's object; each phase's reader then takes its own part, a JSON
value narrowed where it is read (keys a round does not know are ignored, docs/API.md "Mighty").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from ..errors import MalformedInput, RuleViolation, quote
from ..game import Account
from ..inputs import mapping
from .bidding.auction import Auction, next_floor, unfinished_auction
from .shapes import MightyResult, MightyState

if TYPE_CHECKING:
    from .house_rules.rules import MightyTable


@dataclass(frozen=True)
class Body:
    """Each part of a round's body as sent: a JSON value, or None when it was not sent."""

    dealer: object = None
    sits_out: object = None
    misdeal: object = None
    bidding: object = None
    all_pass: object = None
    contract: object = None
    kill: object = None
    friend: object = None
    opposition_points: object = None
    mighty_holder: object = None
    joker_holder: object = None
    tricks: object = None

    @classmethod
    def of(cls, raw: object) -> Body:
        """Return the parts of a round's body (``invalid_value`` when it is not an object)."""
        given = mapping(raw, "round")
        return cls(**{part.name: given.get(part.name) for part in fields(cls)})

    def part(self, key: str) -> object:
        """Return the part named key as sent (None: not sent)."""
        value: object = getattr(self, key)
        return value


def need(value: object, path: str) -> object:
    """Return a part or field that must be sent, or raise ``missing_field`` naming its path."""
    if value is None:
        raise MalformedInput("missing_field", "The field {path} is required.", path, path=path)
    return value


#: the parts of a played hand (a misdeal or an all-pass round carries none of them)
HAND_PARTS = (
    "contract",
    "kill",
    "friend",
    "opposition_points",
    "mighty_holder",
    "joker_holder",
    "tricks",
)


def check_alone(body: Body, form: str | None, others: Sequence[str]) -> None:
    """Refuse a round that mixes a misdeal or an all-pass with the parts of another form.

    form is the input key the round carries (``misdeal``, ``all_pass``), or None for a
    bidding log in which everyone passed.
    """
    if "kill" in others and body.kill is not None:  # only a played hand names a kill
        raise RuleViolation(
            "invalid_kill",
            "A round with {form} cannot also carry {key}: a round is a played hand, a "
            "misdeal or an auction everyone passed.",
            "kill",
            form=form or "bidding",
            key="kill",
        )
    for key in others:
        if body.part(key) is None or (key == "all_pass" and body.all_pass is False):
            continue
        if form is None:
            raise MalformedInput(
                "invalid_value",
                "A round with everyone passing cannot also carry {key}: a round is a played "
                "hand, a misdeal or an auction everyone passed.",
                key,
                key=key,
            )
        raise MalformedInput(
            "invalid_value",
            "A round with {form} cannot also carry {key}: a round is a played hand, a "
            "misdeal or an auction everyone passed.",
            key,
            form=form,
            key=key,
        )


def all_pass_flag(flag: object) -> bool:
    """Return the round's ``all_pass`` flag (absent is false), refusing a value not a boolean."""
    if flag is None or isinstance(flag, bool):
        return bool(flag)
    raise MalformedInput(
        "invalid_value",
        "{where} must be true or false, not {value}.",
        "all_pass",
        where="all_pass",
        value=quote(flag),
    )


def check_everyone_passed(body: Body, auction: Auction | None, all_pass: bool) -> None:
    """Refuse an all-pass round whose log is unfinished or won, or that carries a hand's parts."""
    if auction is not None and not auction.finished:
        raise unfinished_auction(auction)
    if auction is not None and auction.highest is not None:
        raise MalformedInput(
            "invalid_value",
            "The hand is entered as one everyone passed, but {player} won the auction with "
            "{count} {trump_t}.",
            "all_pass",
            player=auction.leader,
            **auction.highest.words(),
        )
    if all_pass:
        check_alone(body, "all_pass", HAND_PARTS)
    elif body.contract is not None:
        raise RuleViolation(
            "boss_not_auction_winner",
            "Everyone passed in the bidding log, so nobody won the auction and there is no "
            "contract.",
            "contract.boss",
        )
    else:
        check_alone(body, None, HAND_PARTS)


def next_state(
    table: MightyTable,
    state: MightyState,
    outcome: str,
    dealer: str | None,
    reopen: bool = False,
) -> MightyState:
    """Return the state after a round: who deals next and the next auction's minimum."""
    return {
        **state,
        "next_dealer": dealer,
        "min_bid": next_floor(table.rules, reopen),
        "kitty_open": reopen,
        "rounds": state.get("rounds", 0) + 1,
        "last_outcome": outcome,
    }


def zero_result(table: MightyTable, outcome: str, account: Account) -> MightyResult:
    """Return the result of a round nobody scores in (a misdeal or an all-pass)."""
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
