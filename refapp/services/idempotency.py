"""Write keys (``Idempotency-Key``): a resent write is stored at most once.

A phone makes one key when an entry is started and sends it with every attempt to store that
entry (a retry, its offline queue, a second tap, "record mine as the next round"). The write
that stores the entry keeps the key in its own transaction, under the session's write lock,
with a digest of what it was asked; a later write with the same key stores nothing and answers
what the first stored (``Replay``), whatever the session's round is now. The same key asking
something else is ``idempotency_key_reused``. A refused write keeps no key (its transaction is
rolled back). A session keeps its newest ``limits.KEYS_KEPT`` keys; they are exported with it.

Each of these is logged, one line with the session and the round, never what was sent: a
write answered from its kept key, a resend of a round undone since (nothing recorded again),
a key sent again with another write (refused).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
from dataclasses import dataclass

from sqlalchemy import bindparam, delete, insert, select, update

from ..games.errors import MalformedInput, RuleViolation, quote
from ..models import WriteKey, utcnow
from . import prepared
from .limits import KEYS_KEPT
from .rows import SessionLike, table_of
from .values import without_expected

#: what a key is: 1..64 visible ASCII characters
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,64}")
#: a digest as kept: SHA-256 in lowercase hex
DIGEST_PATTERN = re.compile(r"[0-9a-f]{64}")
#: the writes that keep a key (a single correction is a correction of one round)
ACTIONS = ("record_round", "replace_rounds", "delete_round")
#: the header an API client sends the key in, and the form field a page sends it in
HEADER = "Idempotency-Key"
FIELD = "idempotency_key"

log = logging.getLogger(__name__)

#: the kept keys' table (Core: no ORM object of a key is loaded)
KEYS = table_of(WriteKey)
#: a session's kept key, as a write checks it
FOUND = select(KEYS.c.digest, KEYS.c.action, KEYS.c.round_number).where(
    KEYS.c.session_id == bindparam("id"), KEYS.c.key == bindparam("key")
)


@dataclass(frozen=True, slots=True)
class Replay:
    """A write that was stored before under the same key: its round (None once undone)."""

    action: str
    number: int | None


def new_key() -> str:
    """Return a new key for an entry a page starts (a form without a script sends it back)."""
    return secrets.token_urlsafe(18)


def read_key(raw: object, field: str = HEADER) -> str | None:
    """Return a write's key (None when not given) or refuse a malformed one (``invalid_value``)."""
    if raw is None:
        return None
    if isinstance(raw, str) and KEY_PATTERN.fullmatch(raw):
        return raw
    raise malformed(raw, field)


def sent_key(headers: list[str], field: str | None = None) -> str | None:
    """Return the key a request sends: its headers' (several are one malformed key), else its
    form's field (a page without a script); None when neither is given."""
    if headers:
        return read_key(", ".join(headers))
    return read_key(field or None, FIELD)


def malformed(raw: object, field: str) -> MalformedInput:
    """Return the refusal of a key that is not 1..64 visible ASCII characters."""
    return MalformedInput(
        "invalid_value",
        "An Idempotency-Key is 1 to 64 visible ASCII characters, not {value}.",
        field,
        value=quote(raw[:80] if isinstance(raw, str) else raw),
    )


def digest_of(action: str, target: object, entered: object) -> str:
    """Return the digest of what a write asks: its action, its round(s) and its input.

    Written canonically (keys sorted, compact), so the same entry sent again digests the same;
    ``expected_round`` is where a phone meant it to go, not what it is, and is left out.
    """
    text = json.dumps(
        [action, target, without_expected(entered)],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        default=str,
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def digest_for(key: str | None, action: str, target: object, entered: object) -> str:
    """Return the digest of a write sent with a key (``digest_of``); "" for one without, which
    nothing checks or keeps."""
    return "" if key is None else digest_of(action, target, entered)


class Stored(Exception):
    """Raised by a write whose key was stored before: nothing is written, ``replay`` says what
    the first write stored. The caller rolls back and answers it."""

    def __init__(self, replay: Replay) -> None:
        """Keep what the first write stored."""
        super().__init__(replay.action)
        self.replay = replay


def check(session: SessionLike, key: str | None, digest: str) -> None:
    """Raise ``Stored`` when the key was stored before with this digest (under the lock)."""
    found = replayed(session, key, digest)
    if found is None:
        return
    if found.number is None:
        log.warning(
            "session %s: a round recorded under a kept key, undone since, was sent again; "
            "nothing recorded (the session is at round %s)",
            session.id,
            session.round_count,
        )
    else:
        log.warning(
            "session %s: %s of round %s sent again under its kept key; answered as stored, "
            "nothing written",
            session.id,
            found.action,
            found.number,
        )
    raise Stored(found)


def correction_target(corrections: object) -> object:
    """Return a correction's rounds as a digest reads them: numbers as text, inputs without
    ``expected_round``, so one round sent alone or in a list digests the same."""
    if not isinstance(corrections, dict):
        return corrections
    return {str(number): without_expected(given) for number, given in corrections.items()}


def reused(key: str) -> RuleViolation:
    """Return the refusal of a key sent again with another write."""
    return RuleViolation(
        "idempotency_key_reused",
        "The Idempotency-Key {value} was already used for another write to this session; "
        "a new entry needs a new key.",
        HEADER,
        value=quote(key),
    )


def replayed(session: SessionLike, key: str | None, digest: str) -> Replay | None:
    """Return the write stored before under this key (call under the session's write lock),
    None when the key is new or not given; refuse the key kept for another write."""
    if key is None:
        return None
    found = prepared.run("write key", FOUND, {"id": session.id, "key": key})
    if not found:
        return None
    kept, action, number = found[0]
    if kept != digest:
        log.warning(
            "session %s: a key kept for %s of round %s was sent with another write; refused",
            session.id,
            action,
            number,
        )
        raise reused(key)
    return Replay(action, number)


def keep(session: SessionLike, key: str | None, digest: str, action: str, number: int) -> None:
    """Keep a write's key in its transaction; the session's oldest past ``KEYS_KEPT`` go."""
    if key is None:
        return
    row = {
        "session_id": session.id,
        "key": key,
        "digest": digest,
        "action": action,
        "round_number": number,
        "at": utcnow(),
    }
    prepared.run("write key kept", insert(KEYS), row, list(row))
    prepared.run("write keys pruned", PRUNED, {"sid": session.id, "kept": KEYS_KEPT - 1})


#: a session's keys older than its newest ``KEYS_KEPT``
PRUNED = delete(KEYS).where(
    KEYS.c.session_id == bindparam("sid"),
    KEYS.c.id
    < (
        select(KEYS.c.id)
        .where(KEYS.c.session_id == bindparam("sid"))
        .order_by(KEYS.c.id.desc())
        .offset(bindparam("kept"))
        .limit(1)
        .scalar_subquery()
    ),
)


def round_undone(session: SessionLike, number: int) -> None:
    """Mark the keys that recorded a round as recorded and undone since (their round: None)."""
    prepared.run("write keys undone", UNDONE, {"sid": session.id, "undone": number})


#: the keys that recorded one round of a session, their round taken out
UNDONE = (
    update(KEYS)
    .where(
        KEYS.c.session_id == bindparam("sid"),
        KEYS.c.action == "record_round",
        KEYS.c.round_number == bindparam("undone"),
    )
    .values(round_number=None)
)
