"""Statistics across sessions computed from scratch from the stored rounds: the oracle the kept
figures are held to. Written from the definitions in docs/API.md, apart from refapp's code."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import GameSession, Player, Round

GAMES = ("dalmuti", "mighty", "dixit")


@dataclass
class Sitting:
    """One stored session as the definitions read it."""

    id: int
    game: str
    players: list[str]
    counted: bool
    places: dict[str, int]
    last: datetime | None
    seconds: int
    totals: dict[str, int]
    rounds: int
    #: (number, time, result) of each round
    played: list[tuple[int, datetime, dict[str, Any]]]


def utc(moment: datetime) -> datetime:
    """Return a stored time as UTC (SQLite drops the zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def sittings(now: datetime) -> list[Sitting]:
    """Read every stored session and its rounds (app context)."""
    found = []
    for session in db.session.scalars(select(GameSession).order_by(GameSession.id)):
        rows = db.session.execute(
            select(Round.number, Round.recorded_at, Round.result)
            .where(Round.session_id == session.id)
            .order_by(Round.number)
        ).all()
        players = session.players
        totals = dict.fromkeys(players, 0)
        for row in rows:
            for name, delta in (row.result.get("deltas") or {}).items():
                if name in totals:
                    totals[name] += delta
        times = [utc(row.recorded_at) for row in rows]
        seconds = 0
        for before, after in pairwise(times):
            if timedelta(0) <= after - before <= timedelta(minutes=30):
                seconds += int((after - before).total_seconds())
        last = times[-1] if times else None
        counted = bool(times) and (session.finished or now - last >= timedelta(hours=12))
        places = {}
        if counted:
            for name in players:
                places[name] = 1 + len([o for o in players if totals[o] > totals[name]])
        found.append(
            Sitting(
                session.id,
                session.game,
                players,
                counted,
                places,
                last,
                seconds,
                totals,
                len(rows),
                [(row.number, times[index], row.result) for index, row in enumerate(rows)],
            )
        )
    return found


def rate(wins: int, count: int) -> float | None:
    """Return wins / count to two decimals (None for no count)."""
    return None if count == 0 else round(wins / count, 2)


def group(now: datetime, game: str | None = None) -> dict[str, Any]:
    """Return ``GET /api/stats`` (``?game=``) as the definitions give it."""
    mine = [s for s in sittings(now) if game is None or s.game == game]
    lines = {}
    for name in sorted({name for s in mine for name in s.players}):
        seated = [s for s in mine if name in s.players]
        counted = [s for s in seated if s.counted]
        wins = len([s for s in counted if s.places[name] == 1])
        lines[name] = {
            "name": name,
            "sessions": len(counted),
            "wins": wins,
            "win_rate": rate(wins, len(counted)),
            "average_place": rate(sum(s.places[name] for s in counted), len(counted)),
            "points": sum(s.totals[name] for s in seated),
            "rounds": sum(s.rounds for s in seated),
            "hours": round(sum(s.seconds for s in seated) / 3600, 2),
        }
    players = sorted(
        lines.values(), key=lambda line: (-line["wins"], -(line["win_rate"] or 0), line["name"])
    )
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    ids = player_ids()
    for s in mine:
        if not s.counted:
            continue
        for a in s.players:
            for b in s.players:
                if ids[a] >= ids[b]:
                    continue
                pair = pairs.setdefault(
                    (a, b), {"sessions": 0, "a_ahead": 0, "b_ahead": 0, "tied": 0}
                )
                pair["sessions"] += 1
                one, two = s.places[a], s.places[b]
                pair["a_ahead" if one < two else "b_ahead" if two < one else "tied"] += 1
    head = [{"a": a, "b": b, **tally} for (a, b), tally in pairs.items()]
    return {
        "players": players,
        "head_to_head": sorted(head, key=lambda line: (line["a"], line["b"])),
        "records": streak_records(mine, game),
        "ratings": [],
    }


def player_ids() -> dict[str, int]:
    """Return each player's id by name (a pair is written lower id first)."""
    return {player.name: player.id for player in db.session.scalars(select(Player))}


def streaks_of(name: str, game: str, mine: list[Sitting]) -> tuple[int, int, int | None, Any]:
    """Return (current, longest, the session ending the longest first, its last round)."""
    counted = sorted(
        (s for s in mine if s.game == game and s.counted and name in s.players),
        key=lambda s: (s.last, s.id),
    )
    current = longest = 0
    where = at = None
    for s in counted:
        current = current + 1 if s.places[name] == 1 else 0
        if current > longest:
            longest, where, at = current, s.id, (s.last, s.id)
    return current, longest, where, at


#: each game's own records after the shared ones
OWN_RECORDS = {
    "mighty": ["highest_contract_made"],
    "dixit": ["best_turn"],
    "dalmuti": ["longest_greater_dalmuti_run"],
}


def candidates(mine: list[Sitting], slug: str, key: str) -> list[tuple]:
    """Return (value, time, session, round, player) of every mark a key's record is drawn from."""
    found = []
    for s in mine:
        if s.game != slug:
            continue
        if key == "longest_greater_dalmuti_run":
            found.extend(greater_dalmuti_runs(s))
            continue
        if key == "highest_total":
            if s.counted:
                top = max(s.totals.values())
                first = next(name for name in s.players if s.totals[name] == top)
                found.append((top, s.last, s.id, None, first))
            continue
        for number, at, result in s.played:
            deltas = result.get("deltas") or {}
            if key in ("best_round", "best_turn", "worst_round") and deltas:
                pick = min if key == "worst_round" else max
                value = pick(deltas.values())
                first = next(name for name, delta in deltas.items() if delta == value)
                found.append((value, at, s.id, number, first))
            made = result.get("outcome") == "ruling_win" or (
                result.get("outcome") == "critic" and result.get("m", 0) > 0
            )
            if key == "highest_contract_made" and made and result.get("boss"):
                found.append((result["contract"]["bid"], at, s.id, number, result["boss"]))
    return found


def greater_dalmuti_runs(s: Sitting) -> list[tuple]:
    """Return (run, time, session, round, holder) at each hand of a Dalmuti session: the hands in
    a row, by round number, its Greater Dalmuti (during the hand) has held the rank."""
    found = []
    holder, run, number_before = None, 0, None
    for number, at, result in s.played:
        during = result["ranks_during"][0]
        run = run + 1 if (during, number - 1) == (holder, number_before) else 1
        holder, number_before = during, number
        found.append((run, at, s.id, number, during))
    return found


def streak_records(mine: list[Sitting], game: str | None) -> list[dict[str, Any]]:
    """Return each game's records: totals, rounds, its own, and the longest win streak."""
    records = []
    for slug in [game] if game else GAMES:
        for key in ["highest_total", "best_round", "worst_round", *OWN_RECORDS[slug]]:
            found = candidates(mine, slug, key)
            if not found:
                continue
            sign = 1 if key == "worst_round" else -1
            value, _, session, number, player = min(
                found, key=lambda c: (sign * c[0], c[1], c[2], c[3] or 0)
            )
            records.append(
                {
                    "key": key,
                    "game": slug,
                    "value": value,
                    "player": player,
                    "session": session,
                    "round": number,
                }
            )
        best = None
        for name in sorted({name for s in mine if s.game == slug for name in s.players}):
            _, longest, where, at = streaks_of(name, slug, mine)
            if longest and (best is None or (-longest, at) < (-best[0], best[2])):
                best = (longest, name, at, where)
        if best is not None:
            records.append(
                {
                    "key": "longest_win_streak",
                    "game": slug,
                    "value": best[0],
                    "player": best[1],
                    "session": best[3],
                    "round": None,
                }
            )
    return records


def streak_of(name: str, game: str, now: datetime) -> dict[str, int]:
    """Return a player's streaks in a game."""
    current, longest, _, _ = streaks_of(name, game, sittings(now))
    return {"current": current, "longest": longest}
