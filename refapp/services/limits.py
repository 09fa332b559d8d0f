"""A session's limits, the same live and on import: its audit entries and its stored bytes.

Whatever the app stores must come back: a session's export must fit the import's body limit,
and the import adds one entry of its own. So a session holds at most AUDIT_MAX entries, a live
write leaves room for that one import entry, and a session's stored JSON (rounds and trail,
measured as the database keeps it, which is never smaller than its compact export) stays within
its game's ``session_max_bytes``, which leaves HEADER_BYTES of the game's import limit
(``import_max_bytes``: the game's largest realistic round times the rounds a session holds) for
everything else. The import route's own limit (EXPORT_MAX_BYTES) is the largest game's.
"""

from __future__ import annotations

from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from .. import stored_json
from ..games import get_game
from ..games.errors import RuleViolation
from ..games.game import AnyGame
from . import values
from .rows import SessionLike

#: the most audit entries a session holds, live or imported (ten changes per round)
AUDIT_MAX = 10 * values.MAX_ROUNDS
#: an upper bound on one realistic round's bytes in an export: measured 27,152 bytes (compact
#: JSON) for a Mighty hand of five 20-letter accented names, an 11-bid auction and 10 tricks of
#: 5 plays each with a suit and a call, its result with the tricks, its facts and the sentences of
#: explanation, its record_round entry and one correction (the input twice)
ROUND_BYTES = 28 * 1024
#: the import's body limit: MAX_ROUNDS such rounds plus 1 MiB (287,768,576 bytes, ~275 MiB)
EXPORT_MAX_BYTES = values.MAX_ROUNDS * ROUND_BYTES + 1024 * 1024
#: the newest write keys (``Idempotency-Key``) a session keeps, and exports
KEYS_KEPT = 1000
#: an upper bound on one kept key as exported: the key (64 characters, escaped at worst to
#: 128), its digest (64), its action, round and time, and the names of those fields
KEY_BYTES = 320
#: what an export holds besides rounds and entries (players, rules, setup, totals, winners, the
#: import's own entry): at most 12 players of 40 characters, each written in at most 12 bytes;
#: and its kept write keys
HEADER_BYTES = 256 * 1024 + KEYS_KEPT * KEY_BYTES
#: the most bytes a session's rounds and trail may hold, as stored, in the largest game
SESSION_MAX_BYTES = EXPORT_MAX_BYTES - HEADER_BYTES
#: what a game's import limit adds to its rounds: the session's fields and its own entries
REST_BYTES = EXPORT_MAX_BYTES - values.MAX_ROUNDS * ROUND_BYTES
#: what an exported round adds around its input and result (number, times, keys)
ROUND_OVERHEAD = 160
#: what an exported audit entry adds around its before and after (time, action, round, keys)
ENTRY_OVERHEAD = 128


class TooLarge(RequestEntityTooLarge):
    """Refuse an import larger than any session of its game: 413 ``too_large``, as a body past
    the route's limit."""

    def __init__(self, game: AnyGame, size: int) -> None:
        """Word the refusal in the reader's language, with the game's limit and the body's size."""
        super().__init__(
            _(
                "%(game)s: a session's export is at most %(most)d bytes; this import is "
                "%(size)d bytes.",
                game=_(game.title),
                most=import_max_bytes(game),
                size=size,
            )
        )


def import_max_bytes(game: AnyGame) -> int:
    """Return the largest import of a game's session: its largest realistic round (``Game.
    round_bytes``) times the rounds a session holds, plus the rest, within the route's limit."""
    return min(EXPORT_MAX_BYTES, game.round_bytes * values.MAX_ROUNDS + REST_BYTES)


def session_max_bytes(game: AnyGame) -> int:
    """Return the most bytes a game's session may hold as stored (its export then imports),
    never past SESSION_MAX_BYTES (the largest game's)."""
    return min(SESSION_MAX_BYTES, import_max_bytes(game) - HEADER_BYTES)


def check_import_size(game: AnyGame, size: int | None) -> None:
    """Refuse an import body larger than any session of its game exports (``TooLarge``)."""
    if size is not None and size > import_max_bytes(game):
        raise TooLarge(game, size)


def stored(value: object) -> int:
    """Return a JSON value's length as the database stores it (``stored_json``)."""
    return len(stored_json.stored(value))


def round_bytes(entered: object, result: object) -> int:
    """Return a round's bytes as counted against the session's limit."""
    return stored(entered) + stored(result) + ROUND_OVERHEAD


def entry_bytes(before: object, after: object) -> int:
    """Return an audit entry's bytes as counted against the session's limit."""
    return stored(before) + stored(after) + ENTRY_OVERHEAD


def full(count: int, size: int | None, most: int | None = None) -> RuleViolation | None:
    """Return the refusal of a session with ``count`` entries and ``size`` bytes (``most`` at
    most: its game's ``session_max_bytes``), if too large."""
    if count > AUDIT_MAX:
        return RuleViolation(
            "session_full",
            "A session's history holds at most {most} changes, and this one would hold {value}; "
            "start a new session to go on.",
            None,
            most=AUDIT_MAX,
            value=count,
        )
    most = SESSION_MAX_BYTES if most is None else most
    if size is not None and size > most:
        return RuleViolation(
            "session_full",
            "A session holds at most {most} bytes of rounds and history (so that its export "
            "can be imported again), and this one would hold {value}; start a new session to "
            "go on.",
            None,
            most=most,
            value=size,
        )
    return None


def count_entry(session: SessionLike, before: object, after: object) -> None:
    """Count a new audit entry in its session's kept totals (``writes.audit`` calls this)."""
    session.audit_count = (session.audit_count or 0) + 1
    session.stored_bytes = (session.stored_bytes or 0) + entry_bytes(before, after)


def grow(session: SessionLike, size: int) -> None:
    """Count what a write adds to (or, negative, takes from) its session's stored rounds."""
    session.stored_bytes = (session.stored_bytes or 0) + size


def check_room(session: SessionLike) -> None:
    """Refuse a write after which a session would outgrow what an import accepts, keeping room
    for an import's own entry (``writes.commit_write`` calls this before it commits).

    The totals are kept by every write under the session's lock, so the check reads no rows:
    recording costs the same at round 3,000 as at round 3.
    """
    most = session_max_bytes(get_game(session.game))
    refusal = full((session.audit_count or 0) + 1, session.stored_bytes or 0, most)
    if refusal is not None:
        raise refusal
