"""The shapes of what the players list and a player's page read (the API answers them too)."""

from __future__ import annotations

from typing import TypedDict


class PlayerRow(TypedDict):
    """One player of the players list: sessions played and won, rounds, games, last played."""

    name: str
    sessions_played: int
    sessions_won: int
    rounds_played: int
    games: list[str]
    last_played: str | None


class PlayerSession(TypedDict):
    """One of a player's sessions: what it was, and how the player stood in it."""

    id: int
    game: str
    name: str | None
    players: list[str]
    created_at: str | None
    finished: bool
    rounds: int
    points: int
    won: bool
    #: the player's place once the session counts (finished, or idle 12 hours), else None
    place: int | None


class PlayerProfile(TypedDict):
    """A player's record overall and per game (its title and figures), and newest sessions."""

    name: str
    created_at: str | None
    sessions_played: int
    sessions_won: int
    #: each game's title and the player's figures in it, by game
    games: dict[str, dict[str, object]]
    sessions: list[PlayerSession]
    sessions_listed_at_most: int
    sessions_not_listed: int
