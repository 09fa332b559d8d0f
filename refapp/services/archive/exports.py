"""A session's export (JSON, what an import replays) and its CSV of per-round deltas."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from ...games.game import leaders
from ...models import GameSession, utcnow
from ..sessions import audit_of, iso, load_session, round_dict, totals_of

FORMAT = "refapp-session"
VERSION = 1
#: spreadsheet formula starters a cell must not begin with (CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: what a spreadsheet may split a cell at: a locale's list separator (, or ;), a tab, a pipe
CELL_SEPARATOR = re.compile(r"[,;\t|]")


def export(session_id: Any) -> dict[str, Any]:
    """Return a stored session's export, or raise ``not_found``."""
    return export_session(load_session(session_id))


def export_session(session: GameSession) -> dict[str, Any]:
    """Return a loaded session as its export: what import needs, plus results for a reader."""
    players = session.players
    totals = totals_of(players, session.rounds)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(utcnow()),
        "id": session.id,
        "game": session.game,
        "name": session.name,
        "players": players,
        "preset": session.preset,
        "rules": dict(session.rules),
        "setup": dict(session.setup or {}),
        "created_at": iso(session.created_at),
        "updated_at": iso(session.updated_at),
        "session_version": session.version,
        "finished": session.finished,
        "finished_by": session.finished_by,
        "finished_at": iso(session.finished_at),
        "rounds": [round_dict(played) for played in session.rounds],
        "totals": totals,
        "winners": leaders(totals) if session.finished else [],
        "audit": audit_of(session),
    }


def deltas_csv(session: GameSession, round_word: str = "round", total_word: str = "total") -> str:
    """Return the CSV of per-round deltas: ``round,<players...>``, a row per round, a total row.

    The page's download words the first column's header and the total row in the reader's
    language (round_word, total_word); the names stay as written. Every text cell is quoted, so
    a separator inside a name never splits it, whatever separator the spreadsheet expects.
    """
    players = session.players
    out = io.StringIO()
    out.write("\ufeff")  # a byte order mark, so spreadsheet programs read the names as UTF-8
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([cell(round_word), *(cell(name) for name in players)])
    for played in session.rounds:
        deltas = played.result["deltas"]
        writer.writerow([played.number, *(deltas.get(name, 0) for name in players)])
    totals = totals_of(players, session.rounds)
    writer.writerow([cell(total_word), *(totals[name] for name in players)])
    return out.getvalue()


def cell(text: str) -> str:
    """Return text safe for a spreadsheet cell: quoted with ' if a formula could start in it.

    A formula may start at the cell's beginning or after any separator a spreadsheet might split
    at (``x;=1+1`` in a semicolon locale), spaces before it ignored.
    """
    parts = CELL_SEPARATOR.split(text)
    risky = any(part.lstrip().startswith(FORMULA_START) for part in parts)
    return "'" + text if risky else text
