"""Marks kept by every write: each round's (and each counted session's) candidates for the
records, in the write's own transaction, so a record is read as the first row of an index."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, update

from ..extensions import db
from ..games import get_game
from ..games.records import LOWEST, Mark, round_marks, total_mark
from ..models import GameSession
from ..models import Mark as MarkRow

#: a round as the marks read it: its number, its stored result and when it was recorded
Played = tuple[int, Mapping[str, object], datetime]


@dataclass(frozen=True)
class Seated:
    """Where marks are set: the session, its game and its seated players' ids by name."""

    session_id: int
    game: str
    ids: Mapping[str, int]

    @classmethod
    def of(cls, session: GameSession) -> Seated:
        """Return a stored session's seats as the marks read them."""
        ids = {seat.player.name: seat.player_id for seat in session.seats}
        return cls(session.id, session.game, ids)


def rows_of(
    seated: Seated, number: int | None, marks: Iterable[Mark], at: datetime
) -> list[dict[str, object]]:
    """Return the rows of a round's (or the session's) marks, by the seated players' ids."""
    ids = seated.ids
    return [
        {
            "session_id": seated.session_id,
            "game": seated.game,
            "key": mark.key,
            "value": mark.value,
            "rank": mark.value if mark.key in LOWEST else -mark.value,
            "player_id": ids[mark.player],
            "number": number,
            "at": at,
        }
        for mark in marks
        if mark.player in ids
    ]


def marks_of(game: str, result: Mapping[str, object]) -> list[Mark]:
    """Return every mark one round's result sets: the shared ones, then the game's own."""
    return [*round_marks(result), *get_game(game).marks(result)]


def played_rows(seated: Seated, rounds: Iterable[Played]) -> list[dict[str, object]]:
    """Return the rows of the marks these rounds set."""
    rows: list[dict[str, object]] = []
    for number, result, at in rounds:
        rows.extend(rows_of(seated, number, marks_of(seated.game, result), at))
    return rows


def round_recorded(
    session: GameSession, number: int, result: Mapping[str, object], at: datetime
) -> None:
    """Add the marks of a round just recorded."""
    insert_rows(played_rows(Seated.of(session), [(number, result, at)]))


def round_undone(session: GameSession, number: int) -> None:
    """Take out the marks of an undone round."""
    db.session.execute(
        delete(MarkRow).where(MarkRow.session_id == session.id, MarkRow.number == number)
    )


def rounds_rewritten(session: GameSession, rounds: Sequence[Played]) -> None:
    """Replace the marks of the rounds a correction wrote again."""
    if not rounds:
        return
    numbers = [number for number, _, _ in rounds]
    db.session.execute(
        delete(MarkRow).where(MarkRow.session_id == session.id, MarkRow.number.in_(numbers))
    )
    insert_rows(played_rows(Seated.of(session), rounds))


def total_settled(session: GameSession, was_counted: bool, at: datetime | None) -> None:
    """Move a session's highest-total mark: there while it counts, at its current totals."""
    if not (session.counted or was_counted):
        return
    db.session.execute(
        delete(MarkRow).where(MarkRow.session_id == session.id, MarkRow.number.is_(None))
    )
    if session.counted and at is not None:
        names = [seat.player.name for seat in session.seats]
        mark = total_mark(names, session.totals or {})
        if mark is not None:
            insert_rows(rows_of(Seated.of(session), None, [mark], at))


def player_merged(source_id: int, target_id: int) -> None:
    """Hand a merged player's marks to the player they were merged into."""
    db.session.execute(
        update(MarkRow).where(MarkRow.player_id == source_id).values(player_id=target_id)
    )


def insert_rows(rows: list[dict[str, object]]) -> None:
    """Insert marks' rows in one statement (nothing for none)."""
    if rows:
        db.session.execute(insert(MarkRow), rows)
