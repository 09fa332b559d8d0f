"""A session's kept write keys in its export (``exports.kept_keys`` writes them after the trail),
checked and restored.

An import restores the keys, so a phone's resend after the session was copied or restored is
still answered as the write it repeats. Each key is checked for its shape (``Idempotency-Key``
as a write takes it, a SHA-256 digest, a write that keeps keys, a round number) and told apart
from the others; what it replays is the copy's own round, never an answer from the file.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TypedDict

from sqlalchemy import insert

from ...extensions import db
from ...games.errors import MalformedInput, quote
from ...games.inputs import mapping
from ...models import WriteKey
from .. import idempotency, values
from .checks import moment


class KeyRow(TypedDict):
    """A kept write key as an export gives it and its row restores it."""

    key: str
    digest: str
    action: str
    round_number: int | None
    at: datetime


def checked_key(raw: object, where: str, now: datetime) -> KeyRow:
    """Return one exported key as the row it restores, or refuse it at its path."""
    given = mapping(raw, where)
    key = idempotency.read_key(given.get("key"), f"{where}.key")
    if key is None:
        raise idempotency.malformed(None, f"{where}.key")
    digest = given.get("digest")
    if not isinstance(digest, str) or not idempotency.DIGEST_PATTERN.fullmatch(digest):
        raise MalformedInput(
            "invalid_value",
            "A kept write key's digest is 64 lowercase hexadecimal digits, not {value}.",
            f"{where}.digest",
            value=quote(digest),
        )
    action = given.get("action")
    if action not in idempotency.ACTIONS:
        raise MalformedInput(
            "invalid_value",
            "A kept write key's write is one of {known}, not {value}.",
            f"{where}.action",
            value=quote(action),
            known=", ".join(idempotency.ACTIONS),
        )
    number = given.get("round")
    whole = type(number) is int and 1 <= number <= values.MAX_ROUNDS
    if number is not None and not whole:
        raise MalformedInput(
            "invalid_value",
            "A kept write key's round is a round number or null, not {value}.",
            f"{where}.round",
            value=quote(number),
        )
    return {
        "key": key,
        "digest": digest,
        "action": action,
        "round_number": number,
        "at": moment(given.get("at"), f"{where}.at") or now,
    }


def read_keys(parts: Iterable[object], now: datetime) -> list[KeyRow]:
    """Return an export's kept keys as rows (at most ``limits.KEYS_KEPT``: the reading counted
    them), each checked; a key given twice is refused at its second place."""
    rows: list[KeyRow] = []
    seen: set[str] = set()
    for index, raw in enumerate(parts):
        row = checked_key(raw, f"keys.{index}", now)
        if row["key"] in seen:
            raise MalformedInput(
                "invalid_value",
                "The write key {value} is kept twice in this export.",
                f"keys.{index}.key",
                value=quote(row["key"]),
            )
        seen.add(row["key"])
        rows.append(row)
    return rows


def store_keys(session_id: int, rows: list[KeyRow]) -> None:
    """Insert a restored session's keys, oldest first (in the caller's transaction)."""
    if rows:
        db.session.execute(insert(WriteKey), [{**row, "session_id": session_id} for row in rows])
