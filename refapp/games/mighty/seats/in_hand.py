"""Who is in a hand: the seated players but those resting (they neither bid nor play) and, once
the auction is over, those killed (they bid, then sit out the play)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ...errors import N_, RuleViolation
from ...game import Table
from ..house_rules.rules import MightyTable

#: why a seated player is out of a hand, as a refusal's sentence names it
OUT_WHY = {
    "resting": N_("resting this hand"),
    "killed": N_("killed after the auction"),
}


@dataclass(frozen=True)
class InHand(MightyTable):
    """The players of one part of a hand, in the order of play, with the seated ones out of it.

    A name seated but out of the hand is ``player_not_in_hand``; any other name is read as
    ``Table.player`` reads it.
    """

    seated: tuple[str, ...] = ()
    #: each seated player out of the hand, and why (an OUT_WHY key)
    out: Mapping[str, str] = field(default_factory=dict)

    def player(self, value: object, where: str) -> str:
        """Return a player in the hand, or raise ``player_not_in_hand`` / ``unknown_player``."""
        if value in self.players:
            return str(value)
        name = Table(self.seated, self.rules).player(value, where)
        if name in self.players:
            return name
        raise RuleViolation(
            "player_not_in_hand",
            "{player} is not in this hand ({why_t}): it is played by {players}.",
            where,
            player=name,
            why_t=OUT_WHY[self.out[name]],
            players=list(self.players),
        )


def without(table: MightyTable, names: Sequence[str], why: str) -> MightyTable:
    """Return the table with these seated players out of the hand (the table itself if none)."""
    if not names:
        return table
    seated = table.seated if isinstance(table, InHand) else table.players
    out = {**(table.out if isinstance(table, InHand) else {}), **dict.fromkeys(names, why)}
    players = tuple(name for name in table.players if name not in names)
    return InHand(players, table.rules, seated, out)


def first_in_hand(table: Table, seated: Sequence[str], dealer: str | None) -> str | None:
    """Return who bids first: the dealer, or the first player in the hand after a resting one."""
    if dealer is None or dealer in table.players:
        return dealer
    start = seated.index(dealer)
    turn = (seated[(start + step) % len(seated)] for step in range(1, len(seated)))
    return next((name for name in turn if name in table.players), None)
