"""Ratings kept from every write (games/ratings.py): each rated event's steps in ``rating_step``,
each player's current rating in ``player_rating``.

A write that changes a counted session (or counts or un-counts one) marks it ``rating_due``;
the next read of the statistics (``rate_due``) rates its events again and then every later
event of its game, from the players' ratings just before the first event it changed: what
processing the whole stored history from scratch gives. So no write at the table, a record or a
correction, pays for the replay, and several corrections of one evening are replayed once a
session. The replay (services/rating_replay.py) reads the later events a chunk at a time. On
PostgreSQL the game's ratings are one advisory lock, taken after the session's row lock, so two
reads never replay one game at once.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select, text, update

from ..extensions import db
from ..games import GAMES, get_game
from ..games.ratings import Side, Skill, session_sides
from ..models import GameSession, PlayerRating, RatingStep, Round, aware
from . import writes
from .rating_replay import EventKey, replay
from .rows import SessionLike

#: a round as the ratings read it: its number, its stored result, when it was recorded
Played = tuple[int, Mapping[str, object], datetime]
#: the most due sessions one read rates again; more wait for the next read (or a rebuild)
BATCH = 50


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


def session_settled(session: SessionLike, was_counted: bool, changed: bool) -> None:
    """Mark a session's ratings due when its events may have changed: it counts now or did
    before, and it was just counted, un-counted, or its rounds changed (``changed``). The next
    read of the statistics rates it again (``rate_due``): the write itself rates nothing."""
    if not (session.counted or was_counted):
        return
    if bool(session.counted) == was_counted and not changed:
        return
    session.rating_due = True


@writes.transaction()
def rate_due() -> int:
    """Rate again the sessions writes marked due, at most ``BATCH`` of them, in one write under
    their sessions' locks and their games': each game replayed once, from the first event any
    of them changed; return how many were due.

    Reads one indexed query when there are none, which is nearly always (and then leaves the
    read's transaction as it was).
    """
    due = db.session.scalars(
        select(GameSession.id)
        .where(GameSession.rating_due.is_(True))
        .order_by(GameSession.id)
        .limit(BATCH)
    ).all()
    if not due:
        return 0
    db.session.rollback()  # the read's transaction ends: the rating is a write of its own
    # rated by another read meanwhile (or deleted): no longer due
    sessions = [session for session in writes.lock_sessions(due) if session.rating_due]
    for game in sorted({session.game for session in sessions}):
        lock_game(game)
    replaced: dict[str, list[Replaced]] = defaultdict(list)
    for session in sessions:
        found = replace_steps(sitting_of(session), played(session))
        if found is not None:
            replaced[session.game].append(found)
        session.rating_due = False
    for game, changed in replaced.items():
        replay_from(game, changed)
    writes.commit()
    return len(due)


def sitting_of(session: GameSession) -> Sitting:
    """Return a stored session with its seats' stored places (none until it counts)."""
    places = {seat.player.name: seat.place for seat in session.seats if seat.place is not None}
    return Sitting.of(session, places if session.counted else {})


def played(session: GameSession) -> list[Played]:
    """Return a session's rounds as its events read them (none for a game rated by session)."""
    return rounds_of(session.id) if get_game(session.game).rates_hands else []


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


@dataclass(frozen=True)
class Replaced:
    """A session whose steps were replaced: its first event changed, the players whose old
    steps went, and the ratings known just before that first event."""

    start: EventKey
    dropped: frozenset[int]
    known: Mapping[int, Skill]


def replace_steps(sitting: Sitting, rounds: Iterable[Played]) -> Replaced | None:
    """Replace a session's steps with its events now (its game taken); return where its game
    must be rated again from (None when its events are what they were: the same teams in the
    same order and ranks)."""
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
        return None
    if old:
        db.session.execute(delete(RatingStep).where(RatingStep.session_id == sitting.session_id))
    if rows:
        db.session.execute(insert(RatingStep), rows)
    starts = [(aware(row.at), sitting.session_id, row.number) for row in old[:1]]
    starts += [first_event(sitting, rows[0])] if rows else []
    start = min(starts)
    # the rating before the replay's first event is known for the players of that event as
    # it stood: their steps there were rated from it. A player whose first old step came
    # later may have played another table's event in between, so the replay reads theirs.
    known = {
        row.player_id: Skill(row.mu_before, row.sigma_before, row.rated_before)
        for row in old
        if (aware(row.at), sitting.session_id, row.number) == start and row.rated_before >= 0
    }
    return Replaced(start, frozenset(row.player_id for row in old), known)


def replay_from(game: str, changed: Sequence[Replaced]) -> None:
    """Rate a game again from the first event these sessions changed. With one session, the
    players of its first old event start from the ratings its steps were rated from; the
    others, and every player when there are more, from their last step before that first event
    (what one session knew may not hold at another's start)."""
    known = changed[0].known if len(changed) == 1 else {}
    dropped = frozenset().union(*(item.dropped for item in changed))
    replay(game, min(item.start for item in changed), dropped, known)


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
        rows = step_rows(sitting_of(session), played(session))
        if rows:
            db.session.execute(insert(RatingStep), rows)
            stored += len(rows)
        db.session.expunge(session)
    db.session.execute(update(GameSession).values(rating_due=False))
    firsts = db.session.execute(
        select(RatingStep.game, func.min(RatingStep.at)).group_by(RatingStep.game)
    ).all()
    for game, first in firsts:
        replay(game, (aware(first), 0, 0))
    return stored
