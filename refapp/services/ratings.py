"""Ratings kept by every write (games/ratings.py): each rated event's steps in ``rating_step``,
each player's current rating in ``player_rating``.

A write that changes a counted session (or counts or un-counts one) rates its events again and
then every later event of its game, from the players' ratings just before the first event it
changed: what processing the whole stored history from scratch gives. Sessions being played
never count, so recording at the table costs no rating work; the replay reads the later events
``CHUNK`` rows at a time. On PostgreSQL the game's ratings are one advisory lock, taken after the
write's figures rows, so two writes never replay one game at once.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from sqlalchemy import ColumnElement, and_, delete, func, insert, or_, select, text, update

from ..extensions import db
from ..games import GAMES, get_game
from ..games.ratings import NEWCOMER, Side, Skill, rate, session_sides
from ..models import GameSession, PlayerRating, RatingStep, Round, aware
from .keyed_rows import keyed_rows

#: where an event stands in its game's order: its time, its session, its round (0: the session)
EventKey = tuple[datetime, int, int]
#: steps read at a time by a replay
CHUNK = 1000
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
            .values(player_id=target_id)
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
    if starts:
        replay(sitting.game, min(starts), {row.player_id for row in old})


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


# -- replaying a game from one event on ------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """A stored step as a replay reads it: its row, its event, its player, team and rank."""

    id: int
    event: EventKey
    player_id: int
    team: int
    rank: int


def replay(game: str, start: EventKey, dropped: Iterable[int] = ()) -> None:
    """Rate every event of a game from ``start`` on again, each player from their rating just
    before it; then store the current rating of everyone touched (``dropped``: players whose
    steps from ``start`` on were taken out, who may have none left)."""
    skills: dict[int, Skill] = {}
    cursor = start
    while True:
        steps = steps_from(game, cursor)
        events = [list(event) for _, event in groupby(steps, key=lambda step: step.event)]
        full = len(steps) == CHUNK and len(events) > 1
        if full:  # the last event may go on past this chunk: read it again with the next
            cursor = events.pop()[0].event
        changes = [row for event in events for row in rated(game, event, skills, start)]
        if changes:
            db.session.execute(update(RatingStep), changes)
        if not full:
            break
    store_current(game, start, skills, set(dropped) - set(skills))


def steps_from(game: str, cursor: EventKey) -> list[Step]:
    """Return up to ``CHUNK`` steps of a game from an event on, in the order they are rated."""
    found = db.session.execute(
        select(
            RatingStep.id,
            RatingStep.at,
            RatingStep.session_id,
            RatingStep.number,
            RatingStep.player_id,
            RatingStep.team,
            RatingStep.rank,
        )
        .where(RatingStep.game == game, from_event(cursor))
        .order_by(
            RatingStep.at,
            RatingStep.session_id,
            RatingStep.number,
            RatingStep.team,
            RatingStep.slot,
        )
        .limit(CHUNK)
    )
    return [
        Step(row.id, (aware(row.at), row.session_id, row.number), row.player_id, row.team, row.rank)
        for row in found
    ]


def from_event(key: EventKey) -> ColumnElement[bool]:
    """Return the condition of a step at or after an event (by time, session, round)."""
    at, session_id, number = key
    return and_(
        RatingStep.at >= at,
        or_(
            RatingStep.at > at,
            RatingStep.session_id > session_id,
            and_(RatingStep.session_id == session_id, RatingStep.number >= number),
        ),
    )


def before_event(key: EventKey) -> ColumnElement[bool]:
    """Return the condition of a step before an event."""
    at, session_id, number = key
    return and_(
        RatingStep.at <= at,
        or_(
            RatingStep.at < at,
            RatingStep.session_id < session_id,
            and_(RatingStep.session_id == session_id, RatingStep.number < number),
        ),
    )


def rated(
    game: str, event: Sequence[Step], skills: dict[int, Skill], start: EventKey
) -> list[dict[str, object]]:
    """Rate one event from the players' ratings so far; return its steps' new values."""
    teams = [list(team) for _, team in groupby(event, key=lambda step: step.team)]
    for step in event:
        if step.player_id not in skills:
            skills[step.player_id] = before(game, step.player_id, start)
    after = rate(
        [[skills[step.player_id] for step in team] for team in teams],
        [team[0].rank for team in teams],
    )
    changes: list[dict[str, object]] = []
    for team, new in zip(teams, after, strict=True):
        for step, skill in zip(team, new, strict=True):
            skills[step.player_id] = skill
            changes.append(
                {"id": step.id, "mu": skill.mu, "sigma": skill.sigma, "rated": skill.rated}
            )
    return changes


def before(game: str, player_id: int, start: EventKey) -> Skill:
    """Return a player's rating just before an event (a newcomer's without an earlier step)."""
    row = db.session.execute(
        select(RatingStep.mu, RatingStep.sigma, RatingStep.rated)
        .where(RatingStep.player_id == player_id, RatingStep.game == game, before_event(start))
        .order_by(RatingStep.at.desc(), RatingStep.session_id.desc(), RatingStep.number.desc())
        .limit(1)
    ).first()
    return NEWCOMER if row is None else Skill(row.mu, row.sigma, row.rated)


def store_current(
    game: str, start: EventKey, skills: Mapping[int, Skill], dropped: Iterable[int]
) -> None:
    """Store the current rating of every player a replay rated or took steps from."""
    final = dict(skills)
    for player_id in dropped:
        final[player_id] = before(game, player_id, start)
    gone = [player_id for player_id, skill in final.items() if not skill.rated]
    if gone:
        db.session.execute(
            delete(PlayerRating).where(PlayerRating.game == game, PlayerRating.player_id.in_(gone))
        )
    kept = {player_id: skill for player_id, skill in final.items() if skill.rated}
    if not kept:
        return
    empty = {"mu": NEWCOMER.mu, "sigma": NEWCOMER.sigma, "display": 0.0, "rated": 0}
    rows = keyed_rows(PlayerRating, ("game", "player_id"), [(game, pid) for pid in kept], empty)
    for row in rows.values():
        skill = kept[row.player_id]
        row.mu, row.sigma, row.rated = skill.mu, skill.sigma, skill.rated
        row.display = skill.display
    db.session.flush()


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
