"""Ratings computed from scratch from the stored rounds: every counted session's events in the
order of their times, rated with openskill's Plackett-Luce model and its defaults. Written from
the definitions in docs/API.md, apart from refapp's code."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from .standings_oracle import Sitting, sittings

#: a Mighty hand the cards were played in (not a misdeal, nobody bid)
PLAYED = ("ruling_win", "critic", "opposition_win")


def hand_teams(s: Sitting, result: dict[str, Any]) -> tuple[list[list[str]], list[int]] | None:
    """Return a played hand as the ruling side and the opposition, the winners ranked first."""
    if result.get("outcome") not in PLAYED or not result.get("boss"):
        return None
    out = set(result.get("killed") or ()) | set(result.get("resting") or ())
    ruling = {result["boss"], result.get("friend")}
    playing = [name for name in s.players if name not in out]
    side = [name for name in playing if name in ruling]
    others = [name for name in playing if name not in ruling]
    made = result["outcome"] == "ruling_win" or (
        result["outcome"] == "critic" and result.get("m", 0) > 0
    )
    return [side, others], ([0, 1] if made else [1, 0])


def events(now: datetime, game: str) -> list[tuple[tuple, list[list[str]], list[int], int]]:
    """Return a game's rated events in order: (time, session, round), teams, ranks, session."""
    found = []
    for s in sittings(now):
        if s.game != game or not s.counted:
            continue
        if game == "mighty":
            for number, time, result in s.played:
                teams = hand_teams(s, result)
                if teams:
                    found.append(((time, s.id, number), teams[0], teams[1], s.id))
        else:
            teams = [[name] for name in s.players]
            ranks = [s.places[name] - 1 for name in s.players]
            found.append(((s.last, s.id, 0), teams, ranks, s.id))
    return sorted(found, key=lambda event: event[0])


def rated(now: datetime, game: str) -> tuple[dict[str, Any], dict[str, list[tuple]]]:
    """Return each player's rating after every event of a game, and after each of their
    sessions (time, mu, sigma) in order."""
    model = PlackettLuce()
    skills: dict[str, Any] = {}
    counts: dict[str, int] = {}
    closing: dict[str, dict[int, tuple]] = {}
    for key, teams, ranks, session in events(now, game):
        given = [[skills.get(name) or model.rating() for name in team] for team in teams]
        after = model.rate(given, ranks=[float(rank) for rank in ranks])
        for team, new in zip(teams, after, strict=True):
            for name, skill in zip(team, new, strict=True):
                skills[name] = skill
                counts[name] = counts.get(name, 0) + 1
                closing.setdefault(name, {})[session] = (key[0], skill.mu, skill.sigma)
    ratings = {name: (skill.mu, skill.sigma, counts[name]) for name, skill in skills.items()}
    history = {
        name: sorted(points.values(), key=lambda p: p[0]) for name, points in closing.items()
    }
    return ratings, history


def board(now: datetime, games: tuple[str, ...]) -> list[dict[str, Any]]:
    """Return ``GET /api/stats``' ratings: every rated player per game, the highest shown first."""
    lines = []
    for game in games:
        for name, (mu, sigma, count) in rated(now, game)[0].items():
            lines.append(
                {
                    "name": name,
                    "game": game,
                    "mu": round(mu, 4),
                    "sigma": round(sigma, 4),
                    "display": round(mu - 3 * sigma, 2),
                    "rated": count,
                }
            )
    return sorted(lines, key=lambda line: (-line["display"], line["game"], line["name"]))


def rating_of(now: datetime, name: str, game: str) -> dict[str, Any] | None:
    """Return a player's rating in a game with its history (a point per session, newest 200)."""
    ratings, history = rated(now, game)
    if name not in ratings:
        return None
    mu, sigma, count = ratings[name]
    return {
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "display": round(mu - 3 * sigma, 2),
        "rated": count,
        "points": [round(m - 3 * s, 2) for _, m, s in history[name]][-200:],
    }
