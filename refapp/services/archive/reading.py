"""An export read from a file part by part: its fields first, then each round and audit entry.

Only the keys an export writes are taken; anything else is ``invalid_value`` with its path,
refused before its value is read. A first pass reads the session's own fields (players, rules,
times: small) and checks every round and entry for its shape and size while counting them; the
replay then reads the rounds, and the trail its entries, one at a time from the file. What the
import holds at once is one part, whatever the file's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from ...games import GAMES, get_game
from ...games.errors import MalformedInput, Refusal, RuleViolation
from .. import limits, values
from .checks import check_values, excerpt
from .stream import JsonStream

#: what an export writes: the session's fields, its rounds and its audit trail
EXPORT_KEYS = (
    "format",
    "version",
    "exported_at",
    "id",
    "game",
    "name",
    "location",
    "players",
    "preset",
    "rules",
    "setup",
    "created_at",
    "updated_at",
    "session_version",
    "finished",
    "finished_by",
    "finished_at",
    "rounds",
    "totals",
    "winners",
    "audit",
    "keys",
)
ROUND_KEYS = ("number", "input", "result", "recorded_at", "corrected_at")
ENTRY_KEYS = ("at", "action", "round", "before", "after")
#: a kept write key (``Idempotency-Key``): the key, its digest, its write and round, its time
KEY_KEYS = ("key", "digest", "action", "round", "at")
#: the lists an export holds, read apart a part at a time, and the keys of each part
LISTS = {"rounds": ROUND_KEYS, "audit": ENTRY_KEYS, "keys": KEY_KEYS}
#: the longest a session field may be, in characters: rules, players and totals are a few KB
FIELD_MOST = 64 * 1024
#: the longest a round or an audit entry may be: the largest round written is ~26 KB (a Mighty
#: hand of ten tricks with its result and explanation), an entry holds two inputs
PART_MOST = 256 * 1024


def not_an_export_key(key: str, where: str, known: tuple[str, ...]) -> MalformedInput:
    """Return the refusal of a key no export writes, naming its path."""
    return MalformedInput(
        "invalid_value",
        "A session export has no field {value} here; it writes only {known}.",
        f"{where}.{key}" if where else key,
        value=excerpt(key),
        known=", ".join(known),
    )


def too_many(where: str, most: int, code: str = "invalid_value") -> Refusal:
    """Return the refusal of a list longer than a session may hold."""
    if code == "too_many_rounds":
        return RuleViolation(
            "too_many_rounds",
            "A session holds at most {most} rounds; this export has more.",
            where,
            most=most,
        )
    if where == "keys":
        return MalformedInput(
            "invalid_value",
            "A session keeps at most {most} write keys; this export has more.",
            where,
            most=most,
        )
    return MalformedInput(
        "invalid_value",
        "An audit trail holds at most {most} entries; this export has more.",
        where,
        most=most,
    )


def checked_part(part: Any, where: str, known: tuple[str, ...]) -> Any:
    """Return a round or audit entry after checking its keys and values (not yet its meaning)."""
    if isinstance(part, dict):
        for key in part:
            if key not in known:
                raise not_an_export_key(key, where, known)
    check_values(part, where)
    return part


@dataclass
class ExportParts:
    """An export's session fields, with its rounds and audit entries to be read in order."""

    fields: dict[str, Any]
    round_count: int = 0
    entry_count: int = 0

    def rounds(self) -> Iterator[Any]:
        """Yield each exported round, checked for shape and values, in order."""
        raise NotImplementedError

    def entries(self) -> Iterator[Any]:
        """Yield each exported audit entry, checked for shape and values, in order."""
        raise NotImplementedError

    def keys(self) -> Iterator[Any]:
        """Yield each exported write key, checked for shape and values, in order."""
        raise NotImplementedError

    def listed(self, name: str, at: Any, count: int) -> None:
        """Keep where a list of the export is (a list, or its place in a file) and its length."""
        self.fields[name] = LISTED
        if name == "rounds":
            self.round_count = count
        elif name == "audit":
            self.entry_count = count
        self.place(name, at)

    def place(self, name: str, at: Any) -> None:
        """Keep where a list of the export is."""
        raise NotImplementedError


@dataclass
class ExportData(ExportParts):
    """An export already in memory (a backup's session): its lists checked part by part."""

    lists: dict[str, list[Any]] = field(default_factory=dict)

    def rounds(self) -> Iterator[Any]:
        """Yield each exported round (checked for shape and values when read), in order."""
        yield from self.lists.get("rounds", [])

    def entries(self) -> Iterator[Any]:
        """Yield each exported audit entry (checked for shape and values when read), in order."""
        yield from self.lists.get("audit", [])

    def keys(self) -> Iterator[Any]:
        """Yield each exported write key (checked for shape and values when read), in order."""
        yield from self.lists.get("keys", [])

    def place(self, name: str, at: Any) -> None:
        """Keep a list of the export."""
        self.lists[name] = at


@dataclass
class ExportFile(ExportParts):
    """An export in a file: its fields read, its rounds and entries counted and placed."""

    raw: IO[bytes] | None = None
    #: where each list of the export begins in the file (its byte)
    starts: dict[str, int] = field(default_factory=dict)

    def rounds(self) -> Iterator[Any]:
        """Yield each exported round, checked for shape and values, in order."""
        yield from self.parts(self.starts.get("rounds"), "rounds")

    def entries(self) -> Iterator[Any]:
        """Yield each exported audit entry, checked for shape and values, in order."""
        yield from self.parts(self.starts.get("audit"), "audit")

    def keys(self) -> Iterator[Any]:
        """Yield each exported write key, checked for shape and values, in order."""
        yield from self.parts(self.starts.get("keys"), "keys")

    def place(self, name: str, at: Any) -> None:
        """Keep where a list of the export begins in the file."""
        self.starts[name] = at

    def parts(self, start: int | None, name: str) -> Iterator[Any]:
        """Yield the parts of the list at byte ``start`` (nothing when the export has none).

        The first pass (``read_export``) checked each part's shape and values; the file is
        the import's own copy, so it reads the same the second time.
        """
        if start is None or self.raw is None:
            return
        stream = JsonStream(self.raw, start)
        for index in stream.items(name):
            yield stream.value(f"{name}.{index}", PART_MOST)


def most_of(key: str) -> int:
    """Return how many rounds, audit entries or write keys an export may hold."""
    if key == "keys":
        return limits.KEYS_KEPT
    return values.MAX_ROUNDS if key == "rounds" else limits.AUDIT_MAX


def count_refused(key: str) -> Refusal:
    """Return the refusal of more rounds, or audit entries, than a session holds."""
    if key == "rounds":
        return too_many(key, most_of(key), "too_many_rounds")
    return too_many(key, most_of(key))


def export_data(body: Any) -> ExportData:
    """Return an export held in memory as parts, its keys and list lengths checked first."""
    if not isinstance(body, dict):
        raise MalformedInput("invalid_json", "The request body must be a JSON object.")
    found = ExportData({})
    for key, value in body.items():
        if key not in EXPORT_KEYS:
            raise not_an_export_key(key, "", EXPORT_KEYS)
        if key in LISTS and isinstance(value, list):
            if len(value) > most_of(key):
                raise count_refused(key)
            for index, part in enumerate(value):
                checked_part(part, f"{key}.{index}", LISTS[key])
            found.listed(key, value, len(value))
            continue
        check_values(value, key)
        found.fields[key] = value
    return found


def read_export(raw: IO[bytes], start: int = 0, size: int | None = None) -> ExportFile:
    """Read an export's session fields and check the shape of its rounds and entries.

    Refused at once: a key no export writes, a part larger than any written, more rounds
    than a session holds or more entries than a trail, text that is not valid Unicode,
    numbers too large, nesting too deep, and, as soon as its game is read, a body of ``size``
    bytes larger than any session of that game exports. Nothing of a round's meaning is read
    yet.
    """
    stream = JsonStream(raw, start)
    found = read_export_from(stream, raw, size=size)
    stream.finish()
    return found


def read_export_from(
    stream: JsonStream, raw: IO[bytes], where: str = "", size: int | None = None
) -> ExportFile:
    """Read the export that begins at the stream's cursor (a backup's session, or a body).

    ``where`` is the export's own path in the document (``sessions.3``), for refusals;
    ``size`` the body's bytes when the export is the whole body (an import).
    """
    if not stream.is_object():
        raise MalformedInput("invalid_json", "The request body must be a JSON object.")
    found = ExportFile({}, raw=raw)
    for key in stream.keys(where):
        if key not in EXPORT_KEYS:
            raise not_an_export_key(key, where, EXPORT_KEYS)
        path = f"{where}.{key}" if where else key
        if key in LISTS and stream.is_list():
            at, count = stream.offset(), 0
            for index in stream.items(path):
                if index >= most_of(key):
                    raise count_refused(key)
                part = f"{key}.{index}"
                checked_part(stream.value(part, PART_MOST), part, LISTS[key])
                count += 1
            found.listed(key, at, count)
            continue
        value = stream.value(key, FIELD_MOST)
        check_values(value, key)
        found.fields[key] = value
        if key == "game" and isinstance(value, str) and value in GAMES:
            limits.check_import_size(get_game(value), size)
    return found


#: what ``fields`` holds for the rounds or the audit trail when they are a list (read apart)
LISTED: list[Any] = []
