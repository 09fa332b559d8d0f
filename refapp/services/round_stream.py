"""A session's rounds read a batch at a time, for the pages that show every one of them.

The printable sheet and the CSV list every round; they read the rounds through the database's
cursor (``yield_per``), only the columns they show, and send their text on as it is written,
so a long session is never held whole.
"""

from __future__ import annotations

import csv
import io
from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeVarTuple, overload

from sqlalchemy import Row, Select, select

from ..extensions import db
from ..games.game import running_totals
from ..models import GameSession, Round
from . import archive

#: rows read from the database at a time, and the text sent on at a time (characters)
BATCH = 500
CHUNK = 64 * 1024


#: the columns a query selects
Columns = TypeVarTuple("Columns")


def batched(query: Select[*Columns]) -> Iterator[Row[*Columns]]:
    """Yield a query's rows a batch at a time (the database's cursor, not a list)."""
    yield from db.session.execute(query.execution_options(yield_per=BATCH))


def round_deltas(session_id: int) -> Iterator[tuple[int, dict[str, int]]]:
    """Yield each round's number and deltas in order; the database picks the deltas out."""
    query = select(Round.number, Round.result["deltas"]).where(Round.session_id == session_id)
    for number, deltas in batched(query.order_by(Round.number)):
        yield number, dict(deltas or {})


def result_parts(
    session_id: int, keys: Sequence[str], through: int
) -> Iterator[tuple[int, dict[str, object]]]:
    """Yield each round's number (up to ``through``) and the parts of its result under
    ``keys`` that it has, in order; the database picks them out of the stored result."""
    query = select(Round.number, *(Round.result[key] for key in keys)).where(
        Round.session_id == session_id, Round.number <= through
    )
    for number, *values in batched(query.order_by(Round.number)):
        found = zip(keys, values, strict=True)
        yield number, {key: value for key, value in found if value is not None}


#: a round as the sheet and the chart read it: its number and the players' deltas
Deltas = tuple[int, Mapping[str, int]]


class Sheet(Sequence[Deltas]):
    """Every round's deltas for the seated players, packed (a number per player and round).

    Read once, it gives the sheet's rows (the chart samples the stored running totals); a round's
    deltas are unpacked only when asked for.
    """

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)
        self.numbers = array("q")
        self.points = [array("q") for _ in self.players]

    @classmethod
    def read(cls, session_id: int, players: Sequence[str]) -> Sheet:
        """Read a session's rounds' deltas a batch at a time."""
        sheet = cls(players)
        for number, deltas in round_deltas(session_id):
            sheet.numbers.append(number)
            for column, name in zip(sheet.points, sheet.players, strict=True):
                column.append(deltas.get(name, 0))
        return sheet

    @property
    def last(self) -> int:
        """Return the last round's number (0 with none)."""
        return self.numbers[-1] if self.numbers else 0

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Deltas: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Deltas]: ...

    def __getitem__(self, index: int | slice) -> Deltas | Sequence[Deltas]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self)))]
        columns = zip(self.players, self.points, strict=True)
        deltas = {name: column[index] for name, column in columns}
        return self.numbers[index], deltas

    def __iter__(self) -> Iterator[Deltas]:
        for index in range(len(self)):
            yield self[index]


def text_chunks(pieces: Iterator[str], size: int = CHUNK) -> Iterator[str]:
    """Join small pieces of text into chunks of about ``size`` characters, worth a write each.

    Closed early (the reader went away), it closes ``pieces`` too: a streamed template leaves
    the request's context it had entered.
    """
    kept: list[str] = []
    held = 0
    try:
        for piece in pieces:
            kept.append(piece)
            held += len(piece)
            if held >= size:
                yield "".join(kept)
                kept, held = [], 0
        if kept:
            yield "".join(kept)
    finally:
        close = getattr(pieces, "close", None)
        if close is not None:
            close()


def deltas_csv(session: GameSession, round_word: str, total_word: str) -> Iterator[str]:
    """Yield the CSV of per-round deltas as it is read: ``round,<players...>``, a row per
    round, a total row (the totals of the rows above).

    A byte order mark first, so spreadsheet programs read the names as UTF-8; every text cell
    is quoted and made safe (``archive.cell``), so a name never splits or starts a formula.
    """
    players = session.players
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([archive.cell(round_word), *(archive.cell(name) for name in players)])
    totals = dict.fromkeys(players, 0)
    for number, deltas in round_deltas(session.id):
        totals = running_totals(totals, [deltas])
        writer.writerow([number, *(deltas.get(name, 0) for name in players)])
        if out.tell() >= CHUNK:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    writer.writerow([archive.cell(total_word), *(totals[name] for name in players)])
    yield out.getvalue()
