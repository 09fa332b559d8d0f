"""The statistics answers' shapes (docs/API.md, "Statistics across sessions")."""

from __future__ import annotations

from typing import TypedDict


class Standing(TypedDict):
    """A player's line in the standings: counted sessions, wins, places, points, time."""

    name: str
    sessions: int
    wins: int
    win_rate: float | None
    average_place: float | None
    points: int
    rounds: int
    hours: float


class HeadToHead(TypedDict):
    """Two players over the counted sessions both sat at: who placed better how often."""

    a: str
    b: str
    sessions: int
    a_ahead: int
    b_ahead: int
    tied: int


class Opponent(TypedDict):
    """A player's head-to-head against one other player, seen from the player's side."""

    opponent: str
    sessions: int
    ahead: int
    behind: int
    tied: int


class Record(TypedDict):
    """A record: what it is, in which game, its value, who holds it and where it was set."""

    key: str
    game: str
    value: int
    player: str
    session: int | None
    round: int | None


def record_of(
    key: str, game: str, value: int, player: str, session: int | None, number: int | None
) -> Record:
    """Return a record as answered: what, in which game, its value, who, and where."""
    return {
        "key": key,
        "game": game,
        "value": value,
        "player": player,
        "session": session,
        "round": number,
    }


class Rating(TypedDict):
    """A player's rating in one game: openskill's mu and sigma, shown as mu - 3 sigma."""

    name: str
    game: str
    mu: float
    sigma: float
    display: float
    rated: int


class GroupStats(TypedDict):
    """``GET /api/stats``: standings, head-to-head, records and ratings."""

    players: list[Standing]
    head_to_head: list[HeadToHead]
    records: list[Record]
    ratings: list[Rating]


class Streak(TypedDict):
    """A player's win streaks in one game: the current one and the longest."""

    current: int
    longest: int


class PlayerStats(TypedDict):
    """``GET /api/players/<name>/stats``: the player's own story."""

    name: str
    games: dict[str, dict[str, object]]
    head_to_head: list[Opponent]
    rival: str | None
    nemesis: str | None
    #: Mighty: the player with the most hands won together as boss and friend
    partner: str | None
    records: list[Record]
