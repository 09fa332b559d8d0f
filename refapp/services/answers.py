"""A session read as the API answers it: the rounds' stored texts spliced into the session part.

The session part (everything but the rounds) is built once per session version and kept in a
small cache of this process; a read of an unchanged session is then one query - the version and
the rounds' stored answers together - and no JSON is decoded or rebuilt. A version moves on with
every write, in whichever process it ran, so a cached part is never stale.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app
from sqlalchemy import select

from ..extensions import db
from ..models import GameSession, Round
from .sessions import describe, load_session, session_dict
from .stored_rounds import encode
from .values import not_found, stored_id

#: session parts kept (a few KiB each): the tables of a busy club night several times over
CACHE_SIZE = 512

#: (session id, version) -> the session object's JSON text before and after its rounds
Parts = OrderedDict[tuple[int, int], tuple[str, str]]
_lock = threading.Lock()


def parts() -> Parts:
    """Return this app's cache of session parts (one per app: ids and versions are its own)."""
    kept: Parts | None = current_app.extensions.get("refapp_answers")
    if kept is None:
        kept = current_app.extensions["refapp_answers"] = OrderedDict()
    return kept


def session_json(session_id: object, last: int | None) -> tuple[str, int]:
    """Return the API's session object as JSON text, and its version, with ``last`` rounds."""
    wanted = stored_id(session_id)
    rows = stored_answers(wanted, last)
    if not rows:
        raise not_found(session_id)
    version = rows[0][0]
    answers = [answer for _version, number, answer in rows if number is not None]
    if any(answer is None for answer in answers):  # kept before answers were stored
        return rebuilt(wanted, last)
    part = cached(wanted, version)
    if part is None:
        return rebuilt(wanted, last)
    head, tail = part
    return f'{head},"rounds":[{",".join(answers)}],{tail}', version  # type: ignore[arg-type]


def stored_answers(session_id: int, last: int | None) -> list[tuple[int, int | None, str | None]]:
    """Return (version, round number, stored answer) rows, oldest round first, in one query."""
    if last == 0:
        found = db.session.scalar(select(GameSession.version).where(GameSession.id == session_id))
        return [] if found is None else [(found, None, None)]
    query = (
        select(GameSession.version, Round.number, Round.answer)
        .outerjoin(Round, Round.session_id == GameSession.id)
        .where(GameSession.id == session_id)
    )
    if last is None:
        return [tuple(row) for row in db.session.execute(query.order_by(Round.number))]  # type: ignore[misc]
    newest = db.session.execute(query.order_by(Round.number.desc()).limit(max(last, 1)))
    return [tuple(row) for row in reversed(list(newest))]  # type: ignore[misc]


def cached(session_id: int, version: int) -> tuple[str, str] | None:
    """Return the session part of this version, building it when this process has not yet."""
    key = (session_id, version)
    kept = parts()
    with _lock:
        part = kept.get(key)
        if part is not None:
            kept.move_to_end(key)
            return part
    session = load_session(session_id, with_rounds=False)
    if session.version != version:  # a write landed between the two reads
        return None
    whole = session_dict(describe(session, 0))
    keys = list(whole)
    at = keys.index("rounds")
    head = encode({key: whole[key] for key in keys[:at]})[:-1]
    tail = encode({key: whole[key] for key in keys[at + 1 :]})[1:]
    with _lock:
        kept[key] = (head, tail)
        while len(kept) > CACHE_SIZE:
            kept.popitem(last=False)
    return head, tail


def rebuilt(session_id: int, last: int | None) -> tuple[str, int]:
    """Return the session object built from its rows (rounds stored before their answers)."""
    session = load_session(session_id, with_rounds=False)
    return encode(session_dict(describe(session, last))), session.version
