"""Ratings: openskill's Plackett-Luce model with its defaults, one rating per player and game
(pure). An event ranks teams (a player alone, or Mighty's ruling side against the opposition);
a rating is shown as ``mu - 3 sigma``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A player's rating: openskill's mu and sigma, and how many events rated it."""

    mu: float
    sigma: float
    rated: int = 0

    @property
    def display(self) -> float:
        """Return the rating as shown: mu - 3 sigma (about 0 for a newcomer)."""
        return self.mu - 3 * self.sigma


#: a player never rated
NEWCOMER = Skill(MODEL.mu, MODEL.sigma)


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Return every player's rating after one event: ``teams`` in the order given, ``ranks``
    where each team finished (0 first, ties share a rank)."""
    given = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma) for skill in team] for team in teams]
    after = MODEL.rate(given, ranks=[float(rank) for rank in ranks])
    return [
        [Skill(new.mu, new.sigma, old.rated + 1) for old, new in zip(team, rated, strict=True)]
        for team, rated in zip(teams, after, strict=True)
    ]


@dataclass(frozen=True)
class Side:
    """A team of one event: its players (in the order handed to the model) and its rank."""

    players: tuple[str, ...]
    rank: int


def session_sides(players: Sequence[str], places: Mapping[str, int]) -> list[Side]:
    """Return a counted session as an event: every player a team of their own, in seat order,
    ranked by their place (ties share one)."""
    return [Side((name,), places[name] - 1) for name in players if name in places]
