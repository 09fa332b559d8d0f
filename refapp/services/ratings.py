"""Ratings kept by every write (games/ratings.py): each rated event's steps in ``rating_step``,
each player's current rating in ``player_rating``.

A write that changes a counted session (or counts or un-counts one) rates its events again and
then every later event of its game, from the players' ratings just before the first event it
changed: what processing the whole stored history from scratch gives. Sessions being played
never count, so recording at the table costs no rating work; the replay (services/rating_replay.py)
reads the later events a chunk at a time. On PostgreSQL the game's ratings are one advisory lock,
taken after the write's figures rows, so two writes never replay one game at once.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, text, update

from ..extensions import db
from ..games import GAMES, get_game
from ..games.ratings import Side, Skill, session_sides
from ..models import GameSession, PlayerRating, RatingStep, Round, aware
from .rating_replay import EventKey, replay

#: a round as the ratings read it: its number, its stored result, when it was recorded
Played = tuple[int, Mapping[str, object], datetime]


@dataclass(frozen=True)
class Sitting:
    """A session as its events read it: id, game, seated names and ids in seat order, places
    (empty until it counts) and its last round's time."""

    session_id: int
    game: str
    seats: Sequence[tuple[str, int]]
    places: Mapping[str, int]
    last_round_at: datetime | None

    @classmethod
    def of(cls, session: GameSession, places: Mapping[str, int]) -> Sitting:
        """Return a stored session with the places its settle just gave it."""
        seats = [(seat.player.name, seat.player_id) for seat in session.seats]
        return cls(session.id, session.game, seats, places, session.last_round_at)


# -- the writes' calls -----------------------------------------------------------------------------


def session_settled(
    session: GameSession, places: Mapping[str, int], was_counted: bool, changed: bool
) -> None:
    """Rate a session's events again when they may have changed: it counts now or did before,
    and it was just counted, un-counted, or its rounds changed (``changed``)."""
    if not (session.counted or was_counted):
        return
    if bool(session.counted) == was_counted and not changed:
        return
    sitting = Sitting.of(session, places if session.counted else {})
    rate_again(sitting, rounds_of(session.id) if get_game(session.game).rates_hands else [])


def player_merged(source_id: int, target_id: int) -> None:
    """Hand a merged player's steps to the player they were merged into and rate each game
    again from the first of them (the two never sat at one session)."""
    firsts = db.session.execute(
        select(RatingStep.game, func.min(RatingStep.at))
        .where(RatingStep.player_id == source_id)
        .group_by(RatingStep.game)
    ).all()
    db.session.execute(delete(PlayerRating).where(PlayerRating.player_id == source_id))
    for game, first in firsts:
        lock_game(game)
        db.session.execute(
            update(RatingStep)
            .where(RatingStep.player_id == source_id, RatingStep.game == game)
            .values(player_id=target_id, rated_before=-1)  # rated from the target's ratings
        )
        replay(game, (aware(first), 0, 0), {target_id})


# -- one session's events --------------------------------------------------------------------------


def rate_again(sitting: Sitting, rounds: Iterable[Played]) -> None:
    """Replace a session's steps with its events now and rate its game again from the first
    (nothing when its events are what they were: the same teams in the same order and ranks)."""
    lock_game(sitting.game)
    old = db.session.execute(
        select(
            RatingStep.at,
            RatingStep.number,
            RatingStep.player_id,
            RatingStep.team,
            RatingStep.slot,
            RatingStep.rank,
            RatingStep.mu_before,
            RatingStep.sigma_before,
            RatingStep.rated_before,
        )
        .where(RatingStep.session_id == sitting.session_id)
        .order_by(RatingStep.at, RatingStep.number, RatingStep.team, RatingStep.slot)
    ).all()
    rows = step_rows(sitting, rounds)
    was = [(aware(row.at), row.number, row.player_id, row.team, row.slot, row.rank) for row in old]
    if was == [shape(row) for row in rows]:
        return
    if old:
        db.session.execute(delete(RatingStep).where(RatingStep.session_id == sitting.session_id))
    if rows:
        db.session.execute(insert(RatingStep), rows)
    starts = [(aware(row.at), sitting.session_id, row.number) for row in old[:1]]
    starts += [first_event(sitting, rows[0])] if rows else []
    # each player's rating before their first old step: where they start again (and what
    # they keep if no step of theirs is left)
    known = {
        row.player_id: Skill(row.mu_before, row.sigma_before, row.rated_before)
        for row in reversed(old)
        if row.rated_before >= 0
    }
    if starts:
        replay(sitting.game, min(starts), {row.player_id for row in old}, known)


def shape(step: Mapping[str, object]) -> tuple[object, ...]:
    """Return what a step says of its event: when, which round, who, in which team, order
    and rank (the same for every step: the event is rated the same)."""
    at = step["at"]
    moment = aware(at) if isinstance(at, datetime) else at
    return (moment, *(step[key] for key in ("number", "player_id", "team", "slot", "rank")))


def first_event(sitting: Sitting, row: Mapping[str, object]) -> EventKey:
    """Return the event of a step about to be stored."""
    at, number = row["at"], row["number"]
    assert isinstance(at, datetime) and isinstance(number, int)
    return (aware(at), sitting.session_id, number)


def step_rows(sitting: Sitting, rounds: Iterable[Played]) -> list[dict[str, object]]:
    """Return the steps of a session's events, unrated: every played hand for a game that rates
    hands, else the session itself once it counts (none before)."""
    game = get_game(sitting.game)
    names = [name for name, _ in sitting.seats]
    events: list[tuple[int, datetime, list[Side]]] = []
    if not sitting.places:
        return []
    if game.rates_hands:
        for number, result, at in rounds:
            sides = game.hand_sides(names, result)
            if sides:
                events.append((number, at, sides))
    elif sitting.last_round_at is not None:
        events.append((0, sitting.last_round_at, session_sides(names, sitting.places)))
    return event_rows(sitting, events)


def event_rows(
    sitting: Sitting, events: Sequence[tuple[int, datetime, list[Side]]]
) -> list[dict[str, object]]:
    """Return the steps of these events, marking each player's last one in the session."""
    ids = dict(sitting.seats)
    rows: list[dict[str, object]] = []
    last: dict[int, int] = {}
    for number, at, sides in events:
        for team, side in enumerate(sides):
            for slot, name in enumerate(side.players):
                last[ids[name]] = len(rows)
                rows.append(
                    {
                        "game": sitting.game,
                        "at": at,
                        "session_id": sitting.session_id,
                        "number": number,
                        "player_id": ids[name],
                        "team": team,
                        "slot": slot,
                        "rank": side.rank,
                        "mu": 0.0,
                        "sigma": 0.0,
                        "rated": 0,
                        "mu_before": 0.0,
                        "sigma_before": 0.0,
                        "rated_before": -1,
                        "closes": False,
                    }
                )
    for index in last.values():
        rows[index]["closes"] = True
    return rows


def rounds_of(session_id: int) -> list[Played]:
    """Return a session's rounds as the ratings read them, in order."""
    found = db.session.execute(
        select(Round.number, Round.result, Round.recorded_at)
        .where(Round.session_id == session_id)
        .order_by(Round.number)
    )
    return [(row.number, row.result or {}, row.recorded_at) for row in found]


def lock_game(game: str) -> None:
    """Take a game's ratings for this write (PostgreSQL: an advisory lock to the commit)."""
    if db.session.connection().dialect.name == "postgresql":
        key = zlib.crc32(f"refapp.ratings.{game}".encode())
        db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


# -- counting every rating again -------------------------------------------------------------------


def rebuild() -> int:
    """Rate every counted session's events again from scratch (under ``rebuild``'s write lock);
    return how many steps were stored."""
    for game in GAMES:
        lock_game(game)
    db.session.execute(delete(RatingStep))
    db.session.execute(delete(PlayerRating))
    stored = 0
    sessions = db.session.scalars(
        select(GameSession)
        .where(GameSession.counted.is_(True))
        .order_by(GameSession.id)
        .execution_options(populate_existing=True)
    )
    for session in sessions:
        seats = {seat.player.name: seat.place for seat in session.seats if seat.place is not None}
        sitting = Sitting.of(session, seats)
        played = rounds_of(session.id) if get_game(session.game).rates_hands else []
        rows = step_rows(sitting, played)
        if rows:
            db.session.execute(insert(RatingStep), rows)
            stored += len(rows)
        db.session.expunge(session)
    firsts = db.session.execute(
        select(RatingStep.game, func.min(RatingStep.at)).group_by(RatingStep.game)
    ).all()
    for game, first in firsts:
        replay(game, (aware(first), 0, 0))
    return stored
