"""What a hand's tricks show as the referee walks through them: each finished trick, the one
under way, every card played and who plays next."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..shapes import MustPlay, PlayInput, TrickDict
from .trick import TRICKS, Decision, Play, Specials


@dataclass(frozen=True)
class Trick:
    """A finished trick: its number (from 1), leader, plays and who took it."""

    number: int
    plays: tuple[Play, ...]
    decision: Decision

    @property
    def leader(self) -> str:
        """Return the player who led the trick."""
        return self.plays[0].seated

    def as_dict(self) -> TrickDict:
        """Return the trick as the result shows it."""
        return {
            "number": self.number,
            "leader": self.leader,
            "winner": self.decision.winner,
            "card": self.decision.card,
            "reason": self.decision.reason,
            "points": list(self.decision.points),
            "plays": [play.as_dict() for play in self.plays],
        }


@dataclass
class PlayLog:
    """What a hand's tricks show: the finished tricks, the one under way, who plays next."""

    boss: str
    specials: Specials
    finished: list[Trick] = field(default_factory=list)
    current: list[Play] = field(default_factory=list)
    #: every card played: (trick index from 0, player)
    played: dict[str, tuple[int, str]] = field(default_factory=dict)
    next_player: str | None = None
    must_play: list[MustPlay] = field(default_factory=list)
    #: the cards the table plays without (a table of four), never in the kitty either
    absent: frozenset[str] = frozenset()

    @property
    def complete(self) -> bool:
        """Return True once all ten tricks are in."""
        return len(self.finished) == TRICKS

    def as_input(self) -> list[list[PlayInput]]:
        """Return the tricks as stored: canonical cards and names, the unfinished trick last."""
        tricks = [[play.as_dict() for play in trick.plays] for trick in self.finished]
        if self.current:
            tricks.append([play.as_dict() for play in self.current])
        return tricks
