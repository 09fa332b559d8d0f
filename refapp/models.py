"""The stored table: players, sessions with their seats, rounds as entered and scored, the audit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

from flask import current_app, has_app_context
from sqlalchemy import JSON, DateTime, ForeignKey, Index, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db
from .group_models import InGroup

if TYPE_CHECKING:  # db.Model is made at run time from Base, which is what mypy can read
    from .extensions import Base as Model
else:
    Model = db.Model


def utcnow() -> datetime:
    """Return the current time in UTC (an app's ``CLOCK``, an aware time's function, in tests)."""
    clock: Callable[[], datetime] | None = (
        current_app.config.get("CLOCK") if has_app_context() else None
    )
    return clock() if clock is not None else datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """Return a stored time with its zone (SQLite gives UTC times back without one)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


#: a moment in time, stored with its time zone (UTC) on PostgreSQL
Moment = Annotated[datetime, mapped_column(DateTime(timezone=True))]


class Player(InGroup, Model):
    """A person, the same across a group's sessions by name."""

    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[Moment] = mapped_column(default=utcnow)

    seats: Mapped[list[SessionPlayer]] = relationship(back_populates="player")


class GameSession(InGroup, Model):
    """One evening's game of one kind, with its house rules and the state before its first round."""

    __tablename__ = "game_session"
    #: a period's sessions of a game (the statistics' ``from`` and ``to``: services/periods.py)
    __table_args__ = (Index("ix_game_session_period", "game", "last_round_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(20), index=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    setup: Mapped[dict[str, object]] = mapped_column(JSON, default=dict)
    initial_state: Mapped[dict[str, object]] = mapped_column(JSON)
    created_at: Mapped[Moment] = mapped_column(default=utcnow, index=True)
    #: the last change by a write (``writes.commit_write`` sets it; counting a session that went
    #: idle, or counting the figures again, is not a change of the session)
    updated_at: Mapped[Moment] = mapped_column(default=utcnow, index=True)
    finished: Mapped[bool] = mapped_column(default=False, index=True)
    #: a summary kept by the service for list pages: rounds played and totals per player
    round_count: Mapped[int] = mapped_column(default=0, server_default="0")
    totals: Mapped[dict[str, int]] = mapped_column(JSON, default=dict, server_default="{}")
    #: "game" when the rules ended it (a correction may reopen it), "table" when the table did
    finished_by: Mapped[str | None] = mapped_column(String(10))
    finished_at: Mapped[Moment | None]
    #: grows with every change (a round recorded, corrected or undone, a finish, a rename): the
    #: API's ETag, what phones poll and what ``If-Match`` compares
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    #: the preset the rules started from (None: made before presets; the game's default)
    preset: Mapped[str | None] = mapped_column(String(30))
    #: kept by every write (services/limits.py): the session's audit entries, and the bytes its
    #: rounds and trail hold as stored - what an import of its export would have to take
    audit_count: Mapped[int] = mapped_column(default=0, server_default="0")
    stored_bytes: Mapped[int] = mapped_column(default=0, server_default="0")
    #: kept by every write (services/figures.py): when its first and last rounds were recorded,
    #: its playing time (games/standings.py), and whether it counts (finished, or idle 12 hours)
    first_round_at: Mapped[Moment | None]
    last_round_at: Mapped[Moment | None] = mapped_column(index=True)
    played_seconds: Mapped[int] = mapped_column(default=0, server_default="0")
    counted: Mapped[bool] = mapped_column(default=False, server_default=false(), index=True)
    #: its rating steps are to be stored again by the next read (services/ratings.py)
    rating_due: Mapped[bool] = mapped_column(default=False, server_default=false(), index=True)
    #: its figures lag: its seats' (``SessionPlayer.paid``), its rounds' marks past ``marked``
    figures_due: Mapped[bool] = mapped_column(default=False, server_default=false(), index=True)
    marked: Mapped[int] = mapped_column(default=0, server_default="0")
    #: where the table played (optional, at most 60 characters, trimmed and NFC; None: not said)
    location: Mapped[str | None] = mapped_column(String(60), index=True)
    #: set by the group's organizer: out of the lists, still in the statistics
    archived: Mapped[bool] = mapped_column(default=False, server_default=false())

    seats: Mapped[list[SessionPlayer]] = relationship(
        back_populates="session",
        order_by="SessionPlayer.seat",
        cascade="all, delete-orphan",
        lazy="selectin",
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="session", order_by="Round.number", cascade="all, delete-orphan"
    )
    audit: Mapped[list[AuditEntry]] = relationship(
        back_populates="session", order_by="AuditEntry.id", cascade="all, delete-orphan"
    )

    @property
    def players(self) -> list[str]:
        """Return the seated players' names in seat order."""
        return [seat.player.name for seat in self.seats]


class SessionPlayer(Model):
    """A player's seat at a session (seat 0 first, clockwise)."""

    __tablename__ = "session_player"
    __table_args__ = (
        UniqueConstraint("session_id", "seat"),
        UniqueConstraint("session_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_session.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    seat: Mapped[int]
    #: the counters the session's rounds add to this player's figures (games/stats.py), and
    #: whether they won it: the session's part in their ``PlayerFigures`` (services/figures.py),
    #: kept by every write so it can be taken out again; None until first counted
    tally: Mapped[dict[str, int] | None] = mapped_column(JSON)
    won: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: the player's place once the session counts (None before), and the session's playing
    #: time as last added to their figures: with tally and won, the session's part in them
    place: Mapped[int | None]
    seconds: Mapped[int] = mapped_column(default=0, server_default="0")
    #: the part the player's figures hold while the session runs (None: the part as it is)
    paid: Mapped[dict[str, int] | None] = mapped_column(JSON)

    session: Mapped[GameSession] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats", lazy="joined")


class Round(Model):
    """A round as the table entered it, its scored result, and the game state after it."""

    __table_args__ = (UniqueConstraint("session_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_session.id", ondelete="CASCADE"))
    number: Mapped[int]
    input: Mapped[dict[str, object]] = mapped_column(JSON)
    #: typed loosely until the services read a result through its game's shape (its deltas are
    #: summed as numbers by services/rounds.py)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: deferred: only the last round's state is ever needed to go on
    state: Mapped[dict[str, object]] = mapped_column(JSON, deferred=True)
    recorded_at: Mapped[Moment] = mapped_column(default=utcnow)
    corrected_at: Mapped[Moment | None]
    #: deferred, kept by every write (services/stored_rounds.py): the API's round object as JSON
    #: text, so a read sends it without decoding, and every player's running total after it,
    #: which the chart draws
    answer: Mapped[str | None] = mapped_column(Text, deferred=True)
    running: Mapped[dict[str, int] | None] = mapped_column(JSON, deferred=True)

    session: Mapped[GameSession] = relationship(back_populates="rounds")


class AuditEntry(Model):
    """One change to a session, kept forever with the input before and after it."""

    __tablename__ = "audit_entry"
    __table_args__ = (Index("ix_audit_entry_session_id_id", "session_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_session.id", ondelete="CASCADE"))
    at: Mapped[Moment] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(20))
    round_number: Mapped[int | None]
    before: Mapped[object | None] = mapped_column(JSON)
    after: Mapped[object | None] = mapped_column(JSON)

    session: Mapped[GameSession] = relationship(back_populates="audit")


class WriteKey(Model):
    """An ``Idempotency-Key`` a write to a session stored, kept to answer its resends.

    Written in the write's own transaction (services/idempotency.py), so a refused write keeps
    none; the newest ``limits.KEYS_KEPT`` of a session are kept, and exported with it.
    """

    __tablename__ = "write_key"
    __table_args__ = (
        UniqueConstraint("session_id", "key"),
        Index("ix_write_key_session_id_id", "session_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_session.id", ondelete="CASCADE"))
    #: the client's key: 1..64 visible ASCII characters
    key: Mapped[str] = mapped_column(String(64))
    #: SHA-256 (hex) of what the write was asked: its action, round and input
    digest: Mapped[str] = mapped_column(String(64))
    #: record_round, replace_rounds or delete_round
    action: Mapped[str] = mapped_column(String(20))
    #: the round the write stored (a correction: its first round; an undo: the round undone);
    #: None once the round it recorded is undone
    round_number: Mapped[int | None]
    at: Mapped[Moment] = mapped_column(default=utcnow)


class RuleSet(InGroup, Model):
    """A table's own house rules saved under a name ("Friday club"): a preset and changes to it.

    A session made from it copies the effective rules, so changing the set later never
    changes a session.
    """

    __tablename__ = "rule_set"
    __table_args__ = (UniqueConstraint("group_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    game: Mapped[str] = mapped_column(String(20))
    preset: Mapped[str | None] = mapped_column(String(30))
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    created_at: Mapped[Moment] = mapped_column(default=utcnow)
    updated_at: Mapped[Moment] = mapped_column(default=utcnow, onupdate=utcnow)


class SignIn(InGroup, Model):
    """A page sign-in still in force in one group (as its organizer or not): a digest of the
    random id its browser's cookie holds; signing out deletes it, pruned after a sign-in's life."""

    __tablename__ = "sign_in"

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    at: Mapped[Moment] = mapped_column(index=True)
    organizer: Mapped[bool] = mapped_column(default=False, server_default=false())


class PlayerFigures(Model):
    """A player's figures in one game, stored as the sum of their sessions' parts: a running
    session's writes leave its seats' change to the next read (services/owed.py), any other
    write adds it at once (services/figures.py). A player's page reads a row per game whatever
    their history; ``flask rebuild-figures`` counts them all again from the rounds.
    """

    __tablename__ = "player_figures"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    #: sessions played and won, rounds, points and the game's own counters (games/stats.py)
    tally: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    #: the newest of those sessions' start times
    last_played: Mapped[Moment | None]
    #: win streaks over their counted sessions in the order of their last round, and the last
    #: of those sessions (its last round's time and id): where the next counted one goes on
    streak_current: Mapped[int] = mapped_column(default=0, server_default="0")
    streak_longest: Mapped[int] = mapped_column(default=0, server_default="0", index=True)
    #: the session that ended the longest streak first (a record names where it was set)
    streak_longest_session: Mapped[int | None]
    last_counted_at: Mapped[Moment | None]
    last_counted_session: Mapped[int | None]
    #: set by a write after which the streaks must be counted again from the player's counted
    #: seats (a corrected place, a session un-counted); the next read of the statistics counts
    #: them (services/standings.py, ``count_due``)
    streaks_due: Mapped[bool] = mapped_column(default=False, server_default=false(), index=True)


class Mark(Model):
    """A mark a round (or a counted session, ``number`` None) set, a candidate for a record of
    its game (games/records.py): added with its round, or by the next read (services/marks.py),
    so a record is the first row of an index whatever the history."""

    __table_args__ = (
        Index("ix_mark_record", "game", "key", "rank", "at", "session_id", "number"),
        #: a session's marks of one key: a period's records read its sessions' marks alone
        Index("ix_mark_session", "session_id", "game", "key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_session.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(40))
    value: Mapped[int]
    #: the value as the record orders it, lowest first (-value for a record the highest holds)
    rank: Mapped[int]
    #: the player's id, without a foreign key: a write inserting marks then takes no share lock
    #: on the player's row, which a rename holds (players are never deleted; a merge moves these)
    player_id: Mapped[int] = mapped_column(index=True)
    #: the round that set it (None: a session's final total)
    number: Mapped[int | None]
    #: when it was set: its round's time (a session's total: its last round's)
    at: Mapped[Moment]


class PairFigures(Model):
    """Two players' head-to-head in one game: the sum of the counted sessions both sat at.

    ``first_id`` is the lower player id; ``tally`` holds ``sessions``, ``a_ahead`` (the first
    placed better), ``b_ahead`` and ``tied``, kept like ``PlayerFigures``; no foreign keys, as
    ``Mark.player_id`` (a write adding a pair takes no share lock on the players' rows)."""

    __tablename__ = "pair_figures"

    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    first_id: Mapped[int] = mapped_column(primary_key=True)
    second_id: Mapped[int] = mapped_column(primary_key=True, index=True)
    tally: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)


class RatingStep(Model):
    """One player's rating after one rated event of a game: a counted Dixit or Dalmuti session
    (``number`` 0), or a played Mighty hand of a counted session (its round's number).

    Events are processed in the order ``(at, session_id, number)``; within one, ``team`` and
    ``slot`` give the order openskill is handed the teams and their players, and ``rank`` where
    the team finished (0 first). A write that changes a counted session rates it again and every
    later event of its game (services/ratings.py); ``closes`` marks a player's last step in a
    session, the points of their rating's history.
    """

    __tablename__ = "rating_step"
    __table_args__ = (
        Index("ix_rating_step_event", "game", "at", "session_id", "number"),
        Index("ix_rating_step_player", "player_id", "game", "at", "session_id", "number"),
        Index("ix_rating_step_history", "player_id", "game", "closes", "at", "session_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    at: Mapped[Moment]
    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_session.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int]
    #: without a foreign key, as ``Mark.player_id`` (a merge moves these)
    player_id: Mapped[int]
    team: Mapped[int]
    slot: Mapped[int]
    rank: Mapped[int]
    mu: Mapped[float]
    sigma: Mapped[float]
    #: the events rated so far, this one included
    rated: Mapped[int]
    #: the player's rating just before the event (``rated_before`` -1: not rated yet), where a
    #: replay from this event on starts them without reading their earlier steps
    mu_before: Mapped[float]
    sigma_before: Mapped[float]
    rated_before: Mapped[int]
    closes: Mapped[bool] = mapped_column(default=False)


class PlayerRating(Model):
    """A player's current rating in one game: their last ``RatingStep``, kept for the
    leaderboard (``display`` = mu - 3 sigma, indexed)."""

    __tablename__ = "player_rating"
    __table_args__ = (Index("ix_player_rating_board", "game", "display"),)

    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    player_id: Mapped[int] = mapped_column(primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    display: Mapped[float]
    rated: Mapped[int]


class Projection(Model):
    """The version of a stored projection's definition (``figures``: every figure, mark and
    rating): a refapp whose definition is newer counts them again at its next migrate
    (``flask rebuild-figures --if-stale``)."""

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int]


class RunningShift(Model):
    """Running totals a correction moved: rounds ``first_number`` to ``last_number`` have ``by``
    added to those stored with them, instead of each written again (services/running_shifts.py).
    """

    __tablename__ = "running_shift"

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_session.id", ondelete="CASCADE"), index=True
    )
    first_number: Mapped[int]
    last_number: Mapped[int]
    by: Mapped[dict[str, int]] = mapped_column(JSON)
