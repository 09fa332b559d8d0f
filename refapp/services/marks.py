"""Marks: each round's (and each counted session's) candidates for the records, so a record is
read as the first row of an index.

A round's marks are added by the next read of the statistics (services/owed.py), with those of
every round recorded since (``rounds_marked``: the session keeps how many of its rounds are
marked, ``marked``), so a round recorded at the table writes no mark. An undo or a correction of
a marked round takes out or writes again its marks in its own transaction, and a session's
highest-total mark moves with the write that counts it, which first marks its rounds not marked
yet (all of them if no read came between: ``CHUNK`` rounds read at a time).

A game's run (its ``RoleBook.run_key``: Dalmuti's hands in a row as Greater Dalmuti) marks
each round with the run its holder has reached there, within the session: one more than the
round before's when they held it then too, else 1. So the longest run is the highest mark, first
set where it was first reached; a correction counts the marks from its first rewritten round on
again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    CursorResult,
    Executable,
    Result,
    bindparam,
    delete,
    insert,
    select,
    update,
)

from ..extensions import db
from ..games import get_game
from ..games.records import LOWEST, Mark, round_marks, total_mark
from ..models import Mark as MarkRow
from ..models import Round
from . import prepared
from .rows import SessionLike
from .rows import table_of as table_of_model

#: the marks' table: every statement here is Core's (no ORM object of a mark is ever loaded)
MARKS = table_of_model(MarkRow)
ROUND = table_of_model(Round)
#: rounds read at a time to be marked
CHUNK = 500

#: a round as the marks read it: its number, its stored result and when it was recorded
Played = tuple[int, Mapping[str, object], datetime]


@dataclass(frozen=True)
class Seated:
    """Where marks are set: the session, its game and its seated players' ids by name."""

    session_id: int
    game: str
    ids: Mapping[str, int]

    @classmethod
    def of(cls, session: SessionLike) -> Seated:
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


@dataclass
class Runs:
    """The run a session's rounds carry from one to the next (their game's ``RoleBook``)."""

    seated: Seated
    #: the run at the latest round seen: (its number, its holder, the run)
    last: tuple[int, str, int] | None = None
    #: True: a round whose round before was not seen starts at 1 (``rerun`` counts it later);
    #: False: the round before's stored mark is read
    provisional: bool = False
    names: dict[int, str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {player_id: name for name, player_id in self.seated.ids.items()}

    def marks(self, number: int, result: Mapping[str, object]) -> list[Mark]:
        """Return the run mark a round sets (none for a game without runs, or no holder)."""
        book = get_game(self.seated.game).role_book
        key, holder = book.run_key, book.run_holder(result)
        if key is None or holder is None:
            self.last = None
            return []
        before = self.before(key, number)
        value = before[1] + 1 if before is not None and before[0] == holder else 1
        self.last = (number, holder, value)
        return [Mark(key, value, holder)]

    def before(self, key: str, number: int) -> tuple[str, int] | None:
        """Return the holder and the run at the round before (None: no run there)."""
        if self.last is not None and self.last[0] == number - 1:
            return self.last[1], self.last[2]
        if number <= 1 or self.provisional:
            return None
        # the session's marks of the key, newest first: the round before's is the last one
        # written unless a correction wrote later rounds' again since (ix_mark_session)
        stored = run(
            select(MARKS.c.player_id, MARKS.c.value)
            .where(
                MARKS.c.session_id == self.seated.session_id,
                MARKS.c.game == self.seated.game,
                MARKS.c.key == key,
                MARKS.c.number == number - 1,
            )
            .order_by(MARKS.c.id.desc())
            .limit(1)
        ).first()
        if stored is None or stored.player_id not in self.names:
            return None
        return self.names[stored.player_id], stored.value


def played_rows(
    seated: Seated, rounds: Iterable[Played], runs: Runs | None = None
) -> list[dict[str, object]]:
    """Return the rows of the marks these rounds set (in order: ``runs`` carries a game's run
    from one to the next; without it, the run before the first is read from its stored mark)."""
    carried = get_game(seated.game).role_book.run_key is not None  # a game without runs: none
    runs = (runs or Runs(seated)) if carried else None
    rows: list[dict[str, object]] = []
    for number, result, at in rounds:
        marks = marks_of(seated.game, result)
        if runs is not None:
            marks.extend(runs.marks(number, result))
        rows.extend(rows_of(seated, number, marks, at))
    return rows


def round_recorded(session: SessionLike) -> None:
    """Leave a round just recorded to be marked by the next read (``rounds_marked``)."""
    if not session.figures_due:
        session.figures_due = True


def rounds_marked(session: SessionLike) -> None:
    """Add the marks of the rounds recorded since the session's last marked one, ``CHUNK`` at a
    time, in order (a game's run carried from one to the next)."""
    seated, runs = Seated.of(session), None
    while session.marked < session.round_count:
        read = run(
            select(ROUND.c.number, ROUND.c.result, ROUND.c.recorded_at)
            .where(ROUND.c.session_id == session.id, ROUND.c.number > session.marked)
            .order_by(ROUND.c.number)
            .limit(CHUNK)
        ).all()
        if not read:  # none stored past it (the count ran ahead): nothing to mark
            break
        runs = runs or Runs(seated)
        rounds = [(row.number, row.result or {}, row.recorded_at) for row in read]
        insert_rows(played_rows(seated, rounds, runs))
        session.marked = rounds[-1][0]
    session.marked = session.round_count


def round_undone(session: SessionLike, number: int) -> None:
    """Take out the marks of an undone round (none when it was not marked yet)."""
    if number <= session.marked:
        prepared.run("marks of a round", ROUND_MARKS, {"id": session.id, "number": number})
        session.marked = number - 1


def rounds_rewritten(session: SessionLike, rounds: Sequence[Played]) -> None:
    """Replace the marks of the rounds a correction wrote again (those marked: the others are
    marked by the next read)."""
    rounds = [played for played in rounds if played[0] <= session.marked]
    if not rounds:
        return
    numbers = [number for number, _, _ in rounds]
    taken = [{"id": session.id, "number": number} for number in numbers]
    prepared.run("marks of a round", ROUND_MARKS, taken)
    seated = Seated.of(session)
    insert_rows(played_rows(seated, rounds, Runs(seated, provisional=True)))
    rerun(seated, min(numbers))


#: the marks of one round of a session
ROUND_MARKS = delete(MARKS).where(
    MARKS.c.session_id == bindparam("id"), MARKS.c.number == bindparam("number")
)


def rerun(seated: Seated, first: int) -> None:
    """Count a session's run marks from round ``first`` on again (a correction changed who held
    the run in some of them; the marks before ``first`` stand)."""
    key = get_game(seated.game).role_book.run_key
    if key is None:
        return
    stored = run(
        select(MARKS.c.id, MARKS.c.number, MARKS.c.player_id, MARKS.c.value)
        .where(
            MARKS.c.session_id == seated.session_id,
            MARKS.c.game == seated.game,
            MARKS.c.key == key,
            MARKS.c.number >= first - 1,
        )
        .order_by(MARKS.c.number)
    ).all()
    before: tuple[int, int, int] | None = None
    changed: list[dict[str, object]] = []
    for row in stored:
        value = row.value
        if row.number >= first:
            held_on = before is not None and before[:2] == (row.number - 1, row.player_id)
            value = before[2] + 1 if before is not None and held_on else 1
        if value != row.value:
            changed.append({"mark_id": row.id, "new_value": value, "new_rank": -value})
        before = (row.number, row.player_id, value)
    if changed:
        again = update(MARKS).where(MARKS.c.id == bindparam("mark_id"))
        prepared.connection().execute(
            again.values(value=bindparam("new_value"), rank=bindparam("new_rank")), changed
        )


def total_settled(session: SessionLike, was_counted: bool, at: datetime | None) -> None:
    """Move a session's highest-total mark: there while it counts, at its current totals (one
    statement: the row updated in place, added, or taken out)."""
    if not (session.counted or was_counted):
        return
    rounds_marked(session)  # its rounds' marks first, as they were recorded before it counted
    mark = None
    if session.counted and at is not None:
        names = [seat.player.name for seat in session.seats]
        mark = total_mark(names, session.totals or {})
    own = (MARKS.c.session_id == session.id, MARKS.c.number.is_(None))
    rows = [] if mark is None or at is None else rows_of(Seated.of(session), None, [mark], at)
    if not rows:
        run(delete(MARKS).where(*own))
        return
    moved = run(update(MARKS).where(*own).values({key: rows[0][key] for key in MOVED}))
    if cast(CursorResult[Any], moved).rowcount == 0:  # none yet: the session just counted
        insert_rows(rows)


#: the columns of a session's highest-total mark that move with its totals
MOVED = ("key", "value", "rank", "player_id", "at")


def player_merged(source_id: int, target_id: int) -> None:
    """Hand a merged player's marks to the player they were merged into."""
    db.session.execute(
        update(MarkRow).where(MarkRow.player_id == source_id).values(player_id=target_id)
    )


#: the marks' INSERT (made once)
INSERT_MARKS = insert(MARKS)


def insert_rows(rows: list[dict[str, object]]) -> None:
    """Insert marks' rows in one statement (nothing for none)."""
    if rows:
        prepared.run(f"marks {len(rows[0])}", INSERT_MARKS, rows, list(rows[0]))


def run(statement: Executable) -> Result[Any]:
    """Send one Core statement on the write's connection (no ORM flush before it)."""
    return prepared.connection().execute(statement)
