"""Each player's roles and their Mighty partner, from scratch from the stored rounds: the oracle
the kept figures are held to. Written from the definitions in docs/API.md ("Statistics across
sessions") and docs/rules/, apart from refapp's code (only the stored rows are read through its
models)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import GameSession, Round

PLAYED = ("ruling_win", "critic", "opposition_win")
TRUMPS = ("S", "H", "D", "C", "NT")
RANKS = ("greater_dalmuti", "lesser_dalmuti", "merchant", "lesser_peasant", "greater_peasant")


@dataclass
class Played:
    """One stored round as the definitions read it."""

    session: int
    game: str
    players: list[str]
    number: int
    at: datetime
    entered: dict[str, Any]
    result: dict[str, Any]


def rounds() -> list[Played]:
    """Read every stored round with its session's game and players, in session and round order."""
    found = []
    for session in db.session.scalars(select(GameSession).order_by(GameSession.id)):
        rows = db.session.execute(
            select(Round.number, Round.recorded_at, Round.input, Round.result)
            .where(Round.session_id == session.id)
            .order_by(Round.number)
        ).all()
        for row in rows:
            at = row.recorded_at if row.recorded_at.tzinfo else row.recorded_at.replace(tzinfo=UTC)
            found.append(
                Played(
                    session.id,
                    session.game,
                    list(session.players),
                    row.number,
                    at,
                    row.input or {},
                    row.result or {},
                )
            )
    return found


def share(total: float, count: int) -> float | None:
    """Return total / count to two decimals (None for no count)."""
    return None if count == 0 else round(total / count, 2)


# -- Mighty ------------------------------------------------------------------------------------


def contract_made(result: dict[str, Any]) -> bool:
    """The ruling side won: a win, or a critic that paid it (m above 0)."""
    return result["outcome"] == "ruling_win" or (
        result["outcome"] == "critic" and result.get("m", 0) > 0
    )


def ruling_side(result: dict[str, Any]) -> tuple[str, str | None]:
    """The boss and the friend (None without one, or when the boss was their own friend)."""
    friend = result.get("friend")
    return result["boss"], friend if friend and friend != result["boss"] else None


def mighty(name: str, played: list[Played]) -> dict[str, Any]:
    """A player's Mighty roles."""
    sides = {side: {"hands": 0, "won": 0} for side in ("boss", "friend", "opposition")}
    bids: dict[str, dict[str, int]] = {}
    trumps = {trump: {"hands": 0, "made": 0} for trump in TRUMPS}
    runs = back_runs = 0
    with_whom: dict[tuple[str, str], dict[str, int]] = {}
    for one in played:
        result = one.result
        if name not in one.players or result.get("outcome") not in PLAYED:
            continue
        if name in result.get("killed", []) or name in result.get("resting", []):
            continue
        boss, friend = ruling_side(result)
        made = contract_made(result)
        if name in (boss, friend):
            side = "boss" if name == boss else "friend"
            sides[side]["hands"] += 1
            sides[side]["won"] += made
            runs += result.get("ruling_points") == 20
            back_runs += bool(result.get("back_run"))
            other = friend if side == "boss" else boss
            if other is not None:
                role = "friend" if side == "boss" else "boss"
                line = with_whom.setdefault((other, role), {"hands": 0, "won": 0})
                line["hands"] += 1
                line["won"] += made
        else:
            sides["opposition"]["hands"] += 1
            sides["opposition"]["won"] += not made
        if name == boss:
            bid, trump = str(result["contract"]["bid"]), result["contract"]["trump"]
            bids.setdefault(bid, {"hands": 0, "made": 0})
            for tally in (bids[bid], trumps[trump]):
                tally["hands"] += 1
                tally["made"] += made
    partners = [
        {"name": other, "role": role, **tally} for (other, role), tally in with_whom.items()
    ]
    partners.sort(key=lambda p: (-p["hands"], -p["won"], p["name"], p["role"]))
    return {
        **sides,
        "by_bid": {bid: bids[bid] for bid in sorted(bids, key=int)},
        "by_trump": trumps,
        "runs": runs,
        "back_runs": back_runs,
        "partners": partners,
    }


def partner(name: str, played: list[Played]) -> str | None:
    """The player with the most Mighty hands won together with this one, either as boss."""
    won: dict[str, int] = {}
    for line in mighty(name, played)["partners"]:
        won[line["name"]] = won.get(line["name"], 0) + line["won"]
    best = sorted(won, key=lambda other: (-won[other], other))
    return best[0] if best and won[best[0]] > 0 else None


# -- Dalmuti -----------------------------------------------------------------------------------


def rank_held(position: int, count: int) -> str:
    """The rank at a place in the ranks (1 = Greater Dalmuti): three players have no merchant,
    their middle seat is the Lesser Dalmuti; from four on the one above last is Lesser Peasant."""
    if position == 1:
        return "greater_dalmuti"
    if position == count:
        return "greater_peasant"
    if position == 2:
        return "lesser_dalmuti"
    return "lesser_peasant" if count >= 4 and position == count - 1 else "merchant"


def dalmuti(name: str, played: list[Played]) -> dict[str, Any]:
    """A player's Dalmuti roles: the rank held during each hand (after a revolution)."""
    by_rank = dict.fromkeys(RANKS, 0)
    places = []
    revolutions = 0
    for one in played:
        after = one.result.get("ranks_after") or []
        if name not in after:
            continue
        during = one.result["ranks_during"]
        by_rank[rank_held(during.index(name) + 1, len(during))] += 1
        places.append(after.index(name) + 1)
        revolutions += one.result.get("revolution_by") == name
    return {
        "hands_by_rank": by_rank,
        "hands": len(places),
        "average_finish": share(sum(places), len(places)),
        "revolutions": revolutions,
    }


# -- Dixit -------------------------------------------------------------------------------------


def dixit(name: str, played: list[Played]) -> dict[str, Any]:
    """A player's Dixit roles, read from each turn's input: its positions and votes."""
    told = some = voted = drawn = found = 0
    for one in played:
        entered = one.entered
        if name not in one.players:
            continue
        positions, votes = entered["positions"], entered["votes"]
        answer = positions.index(entered["storyteller"]) + 1
        chosen = {
            voter: vote if isinstance(vote, list) else [vote] for voter, vote in votes.items()
        }
        finders = [voter for voter, picks in chosen.items() if answer in picks]
        if entered["storyteller"] == name:
            told += 1
            some += 0 < len(finders) < len(chosen)
            continue
        voted += 1
        found += name in finders
        drawn += sum(positions[pick - 1] == name for picks in chosen.values() for pick in picks)
    return {
        "storyteller_turns": told,
        "some_found": some,
        "votes_drawn_per_turn": share(drawn, voted),
        "found_storyteller": found,
        "turns_voted": voted,
    }


def roles(name: str, game: str, played: list[Played]) -> dict[str, Any]:
    """A player's roles in one game, from every stored round of it."""
    mine = [one for one in played if one.game == game]
    return {"mighty": mighty, "dalmuti": dalmuti, "dixit": dixit}[game](name, mine)
