"""A session read as the API answers it: the rounds' stored texts spliced into the session part.

The session part (everything but the rounds) is built once per session version and kept in a
small cache of this process; a read of an unchanged session is then one query - the version and
the rounds' stored answers together - and no JSON is decoded or rebuilt. A version moves on with
every write, in whichever process it ran, so a cached part is never stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask, current_app
from sqlalchemy import text

from ..club import current_group_id
from ..extensions import db
from ..stored_json import stored
from .kept import Kept, kept_of
from .sessions import describe, load_session, session_dict
from .values import not_found, stored_id

#: session parts kept (a few KiB each): the tables of a busy club night several times over
CACHE_SIZE = 512
#: the rounds a session object carries without ``?rounds=``: the last 100, so an answer stays
#: bounded however long the session (``?rounds=all`` asks for every one)
DEFAULT_ROUNDS = 100

#: a row of the read: (version, round number, the round's stored answer), or (version, None,
#: None) for a session without rounds
Row = Sequence[Any]


def rounds_wanted(raw: str | None) -> int | None:
    """Read ``?rounds=``: ``all`` (None), ``none`` (0), ``last:N`` (N); absent: the default.

    Raises ValueError for anything else.
    """
    if raw is None:
        return DEFAULT_ROUNDS
    wanted = raw.strip().lower()
    if wanted == "all":
        return None
    if wanted == "none":
        return 0
    head, _, tail = wanted.partition(":")
    if head == "last" and tail.isascii() and tail.isdigit() and len(tail) <= 6:
        return int(tail)
    raise ValueError(raw)


def poll_matches(header: str, version: int | str) -> bool:
    """Return True when an ``If-None-Match`` header names this version (or ``*``)."""
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return f'"{version}"' in tags or "*" in tags


def stored_answers_sql(mark: str, last: int | None, group: str = "1") -> str:
    """Return the one query of a read: version, round number and stored answer per round.

    ``mark`` is the driver's parameter mark for the session id, ``group`` the group's id or its
    mark (the fast path reads the default group's alone: a group's reads go to Flask); the
    newest rounds come first when only the last ``last`` are read (``spliced`` reorders them).
    """
    if last == 0:
        return (
            f"SELECT version, NULL, NULL FROM game_session WHERE id = {mark} AND group_id = {group}"
        )
    query = (
        "SELECT s.version, r.number, r.answer FROM game_session s "
        f"LEFT JOIN round r ON r.session_id = s.id WHERE s.id = {mark} AND s.group_id = {group} "
        "ORDER BY r.number"
    )
    return query if last is None else f"{query} DESC LIMIT {max(int(last), 1)}"


def spliced(app: Flask, session_id: int, rows: Sequence[Row]) -> str | None:
    """Return the session object's JSON text from a read's rows, or None when its part is not
    kept yet in this process. Every stored round keeps its answer (each write sets it; the
    migration that added the column, f2a8d3b5c6e7, filled it for the rounds stored before)."""
    if not rows:
        return None
    part = parts_of(app).get((session_id, rows[0][0]))
    if part is None:
        return None
    texts = [answer for _version, number, answer in rows if number is not None]
    if len(rows) > 1 and rows[0][1] > rows[-1][1]:  # the last N, read newest first
        texts.reverse()
    head, tail = part
    return f'{head},"rounds":[{",".join(texts)}],{tail}'


def session_json(session_id: object, last: int | None) -> tuple[str, int]:
    """Return the API's session object as JSON text, and its version, with ``last`` rounds."""
    wanted = stored_id(session_id)
    mark = ":id"
    sql = stored_answers_sql(mark, last, ":group")
    given = {"id": wanted, "group": current_group_id()}
    rows = [tuple(row) for row in db.session.execute(text(sql), given)]
    if not rows:
        raise not_found(session_id)
    version = rows[0][0]
    made = spliced(current_app, wanted, rows)
    if made is None and keep(wanted, version):
        made = spliced(current_app, wanted, rows)
    if made is None:
        return rebuilt(wanted, last)
    return made, version


def parts_of(app: Flask) -> Kept[tuple[int, int], tuple[str, str]]:
    """Return an app's kept session parts: (session id, version) -> the session object's JSON
    text before and after its rounds."""
    return kept_of(app, "refapp_answers", CACHE_SIZE)


def keep(session_id: int, version: int) -> bool:
    """Build and keep the session part of this version; False if a write moved it on meanwhile."""
    session = load_session(session_id, with_rounds=False)
    if session.version != version:
        return False
    whole = session_dict(describe(session, 0))
    keys = list(whole)
    at = keys.index("rounds")
    head = stored({key: whole[key] for key in keys[:at]})[:-1]
    tail = stored({key: whole[key] for key in keys[at + 1 :]})[1:]
    parts_of(current_app).put((session_id, version), (head, tail))
    return True


def rebuilt(session_id: int, last: int | None) -> tuple[str, int]:
    """Return the session object built from its rows (a write moved its version on while its
    part was being kept)."""
    session = load_session(session_id, with_rounds=False)
    return stored(session_dict(describe(session, last))), session.version
