"""An import's checks of hostile input: values storage cannot keep, times, forged summaries.

Nothing an export says is trusted: every value must be one storage and backups keep faithfully,
every time must be plausible, and the results, totals and winners it carries for a reader must
agree with its rounds replayed through the rules.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from ...games.errors import MalformedInput, quote
from ...games.game import leaders
from ...games.inputs import mapping, sequence
from ...models import utcnow
from .exports import FORMAT, VERSION

FINISHERS = ("game", "table")
#: a UTF-16 surrogate standing alone: JSON can write it (\ud800), UTF-8 cannot
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: the largest number an import may hold: every database and JSON reader keeps it exact
NUMBER_MAX = 2**53
#: how deep an import may nest objects and lists (a round nests 6 deep; JSON writers recurse)
DEPTH_MAX = 40
#: imported times lie between this and now (plus a clock's skew between two machines)
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(minutes=5)


def check_format(body: Mapping[str, Any]) -> None:
    """Refuse a body that is not a session export of a version this refapp reads."""
    if body.get("format") != FORMAT:
        raise MalformedInput(
            "missing_field" if body.get("format") is None else "invalid_value",
            "format must be {wanted} (a session export), not {value}.",
            "format",
            wanted=quote(FORMAT),
            value=quote(body.get("format")),
        )
    version = body.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise MalformedInput(
            "missing_field" if version is None else "invalid_value",
            "This refapp reads session exports of version {wanted}, not {value}.",
            "version",
            wanted=VERSION,
            value=quote(version),
        )


def check_values(body: Any, where: str = "") -> None:
    """Refuse anywhere in a part of an export what storage and backups cannot hold faithfully.

    Text must be valid Unicode (no lone surrogate, in keys or values), numbers finite and at
    most NUMBER_MAX in size, nesting at most DEPTH_MAX deep (counted from ``where``'s own
    depth). The walk keeps one iterator per level it is inside, never a list of what is still
    to visit, so its memory is bounded by the depth, whatever the part's size; a path is
    written only for the refusal, which names the first bad value in document order.
    """
    depth = where.count(".") + 1 if where else 0
    frames: list[tuple[Iterator[tuple[Any, Any]], Any]] = [(iter([(None, body)]), None)]
    while frames:
        step = next(frames[-1][0], None)
        if step is None:
            frames.pop()
            continue
        key, value = step
        if depth + len(frames) - 1 > DEPTH_MAX:
            raise too_deep(path_of(where, frames, key))
        if isinstance(value, dict):
            check_keys(value, where, frames, key)
            frames.append((iter(value.items()), key))
        elif isinstance(value, list):
            frames.append((iter(enumerate(value)), key))
        elif isinstance(value, str):
            if LONE_SURROGATE.search(value):
                check_text(value, path_of(where, frames, key))
        elif isinstance(value, int | float) and not isinstance(value, bool) and not fits(value):
            check_number(value, path_of(where, frames, key))


def check_keys(
    value: dict[Any, Any], where: str, frames: list[tuple[Iterator[Any], Any]], key: Any
) -> None:
    """Refuse an object's key holding a lone surrogate (the object's own path names it)."""
    for inner in value:
        if isinstance(inner, str) and LONE_SURROGATE.search(inner):
            check_text(inner, path_of(where, frames, key))


def path_of(where: str, frames: list[tuple[Iterator[Any], Any]], key: Any) -> str:
    """Return the field path of the value at ``key`` inside the walk's open containers."""
    path = where
    for outer in [outer for _items, outer in frames[1:]] + [key]:
        if outer is not None:
            path = joined(path, outer)
    return path


def joined(where: str, key: Any) -> str:
    """Return the field path of a key or index inside where."""
    return f"{where}.{key}" if where else str(key)


def check_text(value: str, where: str) -> None:
    """Refuse text holding a lone surrogate (it cannot be written as UTF-8)."""
    if LONE_SURROGATE.search(value):
        raise MalformedInput(
            "invalid_value",
            "Text in {where} is not valid Unicode (it holds a lone surrogate): {value}.",
            where or None,
            where=where or "the export",
            value=excerpt(value),
        )


def fits(value: int | float) -> bool:
    """Return True for a finite number small enough to keep exactly."""
    return math.isfinite(value) and abs(value) <= NUMBER_MAX


def check_number(value: int | float, where: str) -> None:
    """Refuse NaN, infinities and numbers too large to keep exactly."""
    if not fits(value):
        raise MalformedInput(
            "invalid_value",
            "{where} must be a finite number of at most {most} in size, not {value}.",
            where or None,
            where=where or "the export",
            most=NUMBER_MAX,
            value=excerpt(value),
        )


def too_deep(where: str) -> MalformedInput:
    """Return the refusal of values nested deeper than any export nests them."""
    return MalformedInput(
        "invalid_value",
        "{where} is nested more than {most} levels deep.",
        where or None,
        where=where or "the export",
        most=DEPTH_MAX,
    )


def excerpt(value: Any) -> str:
    """Quote a value for a message, cut short when it is long."""
    shown = quote(value)
    return shown if len(shown) <= 60 else shown[:60] + "..."


def finisher(body: Mapping[str, Any], over: bool) -> str | None:
    """Return who ended the session: the table as exported, else the rules as replayed."""
    finished, by = body.get("finished", False), body.get("finished_by")
    if not isinstance(finished, bool):
        raise MalformedInput(
            "invalid_value",
            "finished must be true or false, not {value}.",
            "finished",
            value=quote(finished),
        )
    if (by is not None and by not in FINISHERS) or finished != (by is not None):
        raise MalformedInput(
            "invalid_value",
            "finished_by must be 'game' or 'table' for a finished session and null for a "
            "running one, not {value}.",
            "finished_by",
            value=quote(by),
        )
    if by == "table":
        return "table"
    if over:
        return "game"
    if by == "game":
        raise MalformedInput(
            "invalid_value",
            "The export says the game ended, but its rounds, replayed, do not end it.",
            "finished_by",
        )
    return None


def check_summary(body: Mapping[str, Any], totals: Mapping[str, int], by: str | None) -> None:
    """Refuse totals or winners (each only when given) that differ from the replay's."""
    if body.get("totals") is not None:
        compare_scores(body["totals"], totals, "totals")
    if body.get("winners") is not None:
        compare_winners(body["winners"], leaders(totals) if by else [], "winners")


def compare_scores(given: Any, wanted: Mapping[str, int], where: str) -> None:
    """Refuse points per player (totals, a round's deltas) that differ from the replay's."""
    given = mapping(given, where)
    for name in [*wanted, *(name for name in given if name not in wanted)]:
        value = given.get(name)
        if isinstance(value, bool) or value != wanted.get(name):
            raise disagrees(f"{where}.{name}", value, wanted.get(name))


def compare_winners(given: Any, wanted: list[str], where: str) -> None:
    """Refuse a list of winners that names other players than the replay's (in any order)."""
    names = sequence(given, where)
    if not all(isinstance(name, str) for name in names) or sorted(names) != sorted(wanted):
        raise disagrees(where, names, wanted)


def disagrees(where: str, given: Any, wanted: Any) -> MalformedInput:
    """Return the refusal of a value in the export that the replay contradicts."""
    return MalformedInput(
        "import_disagrees",
        "The export says {where} is {given}, but its rounds, replayed, give {wanted}.",
        where,
        where=where,
        given=excerpt(given),
        wanted=excerpt(wanted),
    )


def moment(raw: Any, where: str) -> datetime | None:
    """Return an ISO 8601 time as UTC (a time without a zone is taken as UTC), or None.

    The time must lie between EARLIEST and now (with CLOCK_SKEW): a time near year 1 or 9999
    cannot even be converted to UTC, and no session happened before 1970 or in the future.
    """
    if raw is None:
        return None
    try:
        if not isinstance(raw, str) or len(raw) > 40:
            raise ValueError(raw)
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise MalformedInput(
            "invalid_value",
            "{where} must be an ISO 8601 time, not {value}.",
            where,
            where=where,
            value=excerpt(raw),
        ) from None
    try:
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00: the year before 1 in UTC
        raise out_of_range(raw, where) from None
    if not EARLIEST <= value <= utcnow() + CLOCK_SKEW:
        raise out_of_range(raw, where)
    return value


def out_of_range(raw: str, where: str) -> MalformedInput:
    """Return the refusal of a time before 1970 or in the future."""
    return MalformedInput(
        "invalid_value",
        "{where} must be a time between {earliest} and now, not {value}.",
        where,
        where=where,
        earliest=EARLIEST.date().isoformat(),
        value=quote(raw),
    )


def missing(path: str) -> MalformedInput:
    """Return the error for a required field that is absent."""
    return MalformedInput("missing_field", "The field {path} is required.", path, path=path)
