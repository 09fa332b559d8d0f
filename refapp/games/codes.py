"""Every error code the app raises or answers: its HTTP status, its kind and what it means.

The API's status for a code is read here (``status_of``), so a code missing from ``CODES`` is
a programming error that fails loudly instead of silently becoming a 422. Pure: no Flask, no
database. docs/errors.md is generated from this table (``refapp/error_docs.py``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Kind(StrEnum):
    """What sort of refusal a code is; each error type in ``errors.py`` raises one kind."""

    MALFORMED = "malformed input"
    RULE = "broken rule"
    NOT_FOUND = "not found"
    CONFLICT = "conflict"
    BUSY = "busy"
    ACCESS = "access"
    REQUEST = "request"
    SERVER = "server"


class Code(NamedTuple):
    """One code's HTTP status, kind and one-line meaning."""

    status: int
    kind: Kind
    meaning: str


class UnknownCode(KeyError):
    """A code that is not in ``CODES``: a programming error, never answered as a guess."""


M, R, N, C = Kind.MALFORMED, Kind.RULE, Kind.NOT_FOUND, Kind.CONFLICT

_MALFORMED = {
    "invalid_json": (400, "the body (or a part of an import) is not the JSON object it must be"),
    "missing_field": (422, "a field the input needs is absent or null"),
    "invalid_value": (422, "a field has the wrong type, is out of range or is not allowed there"),
    "invalid_rules": (422, "a house rule, preset or saved rule set is unknown or out of range"),
    "unknown_game": (422, "`game` names no game refapp referees"),
    "unknown_player": (422, "the round names a player who is not seated at the table"),
    "duplicate_player": (422, "a player is seated twice (names equal after normalising)"),
    "import_disagrees": (422, "an export contradicts itself: its stored results or trail differ"),
}

_RULES = {
    "bad_player_count": "the game is not played by this many players",
    "too_many_rounds": "a session holds at most 10,000 rounds",
    "too_many_rule_sets": "the table keeps no more saved house rules",
    "session_full": "a session's stored rounds or history would pass their size limit",
    "rename_unsafe": "the new name would change more than the name in one of the sessions",
    "database_not_empty": "a backup is restored only into an empty database (or with --force)",
    "idempotency_key_reused": "an `Idempotency-Key` this session kept is sent with another write",
}

_CONFLICTS = {
    "stale_round": "the session moved on from what the client saw: `expected_round` is not the "
    "next round, or `If-Match` names a version another write has moved on from",
    "stale_tag": "`If-Match` names a player or saved house rules that have changed since",
    "lost_race": "another write stored the same round, name or rows at the same moment",
    "not_last_round": "only the last round can be undone",
    "session_finished": "the session (or the game) is over: no round can follow",
    "player_conflict": "a rename or merge collides with another player at the same session",
}

_OTHERS = {
    "not_found": Code(404, N, "no such session, round, player or saved house rules"),
    "busy": Code(
        503,
        Kind.BUSY,
        "a write waited past the busy timeout, or the server's large downloads, imports or spooled"
        " bodies are all under way; nothing was stored",
    ),
    "sign_in_required": Code(401, Kind.ACCESS, "the table's password is missing or wrong"),
    "too_many_attempts": Code(429, Kind.ACCESS, "too many wrong passwords: wait `Retry-After`"),
    "organizer_required": Code(403, Kind.ACCESS, "only the group's organizer may do this"),
    "method_not_allowed": Code(405, Kind.REQUEST, "the route does not take this HTTP method"),
    "too_large": Code(413, Kind.REQUEST, "the request body is larger than its route accepts"),
    "bad_request": Code(400, Kind.REQUEST, "the request is not well-formed HTTP (server front)"),
    "request_timeout": Code(408, Kind.REQUEST, "headers or body arrived too slowly (front)"),
    "headers_too_large": Code(431, Kind.REQUEST, "the request's headers are too large (front)"),
    "not_implemented": Code(501, Kind.REQUEST, "a transfer encoding other than chunked (front)"),
    "http_error": Code(
        400, Kind.REQUEST, "another HTTP error, answered with that error's own status"
    ),
    "unavailable": Code(503, Kind.SERVER, "the app server is down (answered by nginx)"),
    "server_error": Code(500, Kind.SERVER, "an unexpected failure, logged; nothing was stored"),
}

#: every code: its status, kind and meaning (add codes, never rename: the API is stable); the
#: codes shared by every game are here, each game registers its own (``<game>/codes.py``)
CODES: dict[str, Code] = {
    **{code: Code(status, M, meaning) for code, (status, meaning) in _MALFORMED.items()},
    **{code: Code(422, R, meaning) for code, meaning in _RULES.items()},
    **{code: Code(409, C, meaning) for code, meaning in _CONFLICTS.items()},
    **_OTHERS,
}


def register_codes(kind: Kind, meanings: dict[str, str], status: int = 422) -> None:
    """Add a game's own codes (one kind, one status) to ``CODES``; a code keeps one meaning."""
    for code, meaning in meanings.items():
        entry = Code(status, kind, meaning)
        if CODES.setdefault(code, entry) != entry:
            raise ValueError(f"error code {code!r} is registered with another meaning")


def lookup(code: str) -> Code:
    """Return a code's entry, or raise ``UnknownCode`` for one that is not registered."""
    try:
        return CODES[code]
    except KeyError:
        raise UnknownCode(
            f"error code {code!r} is not registered (refapp/games/codes.py)"
        ) from None


def status_of(code: str) -> int:
    """Return the HTTP status the API answers a code with."""
    return lookup(code).status
