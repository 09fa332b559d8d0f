"""An import's audit trail: each entry checked alone, then the whole replayed to its rounds.

A forged trail is refused: replayed from its create_session, each entry in order (times never
going backwards), it must give exactly the rounds imported; each entry's round must have existed
when it was written, each correction and undo must say what the round was, and each finish must
name its leaders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...games.errors import MalformedInput, quote
from ...games.inputs import mapping
from .. import limits, values
from .checks import compare_scores, excerpt, moment
from .staging import Spool
from .trail_steps import Start, TrailReplay, fields, finish_totals

#: every action the app writes into an audit trail
ACTIONS = (
    "create_session",
    "record_round",
    "replace_round",
    "delete_round",
    "finish_session",
    "rename_player",
    "import_session",
    "set_location",
)


def audit_entry(item: Any, where: str) -> dict[str, Any]:
    """Return one exported audit entry checked: a known action, a round in range, a time."""
    entry = mapping(item, where)
    action = entry.get("action")
    if action not in ACTIONS:
        raise MalformedInput(
            "missing_field" if action is None else "invalid_value",
            "An audit entry's action is one of {known}, not {value}.",
            f"{where}.action",
            known=", ".join(ACTIONS),
            value=excerpt(action),
        )
    number = entry.get("round")
    if number is not None and (type(number) is not int or not 1 <= number <= values.MAX_ROUNDS):
        raise MalformedInput(
            "invalid_value",
            "An audit entry's round is a round number or null, not {value}.",
            f"{where}.round",
            value=excerpt(number),
        )
    return {
        "at": moment(entry.get("at"), f"{where}.at"),
        "action": action,
        "round_number": number,
        "before": entry.get("before"),
        "after": entry.get("after"),
    }


@dataclass
class Outline:
    """What the replay needs to know of the whole trail before it applies its first entry."""

    count: int = 0
    first: str | None = None
    created: Any = None
    first_time: datetime | None = None
    last: str | None = None
    #: each rename's index and its names before and after (as written, checked when applied)
    renames: list[tuple[int, Any, Any]] = field(default_factory=list)


@dataclass
class Trail:
    """A trail that replays to the export's rounds: the entries an import keeps, spooled."""

    rows: Spool
    count: int = 0
    size: int = 0
    #: the trail's latest time (the import's own entry is never dated before it)
    latest: datetime | None = None
    #: how many entries the export's trail has (a restore's version goes past it)
    given: int = 0


def outline_of(entries: Iterable[Any]) -> Outline:
    """Check each entry alone (a first pass) and note what the replay needs of the whole."""
    outline = Outline()
    for index, raw in enumerate(entries):
        entry = audit_entry(raw, f"audit.{index}")
        action = entry["action"]
        if index == 0:
            outline.first = action
            outline.created = fields(entry["after"]).get("players")
        if outline.first_time is None:
            outline.first_time = entry["at"]
        if action == "rename_player":
            before, after = (fields(entry[side]).get("name") for side in ("before", "after"))
            outline.renames.append((index, before, after))
        outline.last = action
        outline.count = index + 1
    return outline


def check_trail(
    entries: Callable[[], Iterable[Any]],
    start: Start,
    totals: Mapping[str, int],
    by: str | None,
) -> Trail:
    """Refuse a trail that, replayed from its start, does not give exactly the export's rounds.

    A trail starts with create_session (the export's game, rules, setup and players, renamed as
    its rename_player entries say), or with the import_session of an export that carried none
    (its rounds then are known only from there on). Each entry is applied in order, its time
    never before the one above it: a round recorded is the next, one corrected or undone was
    there with the input its entry says, a later import came when the trail had its rounds.
    The rounds it ends with must be the export's, their inputs as the rules normalise them.
    An empty trail (an older or hand-made export) proves nothing and is accepted as such.

    ``entries`` reads the exported entries afresh each time it is called: a first pass checks
    each alone and outlines the trail, the second applies them one at a time, so the trail is
    never held whole. Returns the entries an import keeps (all but a last import_session, which
    its own replaces), spooled.
    """
    outline = outline_of(entries())
    trail = Trail(Spool(), given=outline.count)
    try:
        follow_trail(entries, outline, trail, start, totals, by)
    except BaseException:
        trail.rows.close()
        raise
    return trail


def follow_trail(
    entries: Callable[[], Iterable[Any]],
    outline: Outline,
    trail: Trail,
    start: Start,
    totals: Mapping[str, int],
    by: str | None,
) -> None:
    """Apply the trail's entries one at a time (the second pass), spooling those kept."""
    if not outline.count:
        return
    replay = replay_from(outline, start)
    finish = walk_trail(entries, outline, trail, replay)
    check_trail_end(replay, start, by)
    replay.check_rounds()
    replay.check_setup()
    if by == "table" and finish is not None:
        where = f"audit.{finish[0]}"
        compare_scores(finish_totals(finish[1], where), totals, f"{where}.after.totals")


def replay_from(outline: Outline, start: Start) -> TrailReplay:
    """Return the trail's replay from its first entry: a creation with the seats it names, or
    an import (the seats taken back from the export's through the trail's renames)."""
    if outline.first not in ("create_session", "import_session"):
        raise MalformedInput(
            "invalid_value",
            "An audit trail starts with the session's creation (create_session), or with the "
            "import of an export that had no trail (import_session), not with {value}.",
            "audit.0.action",
            value=quote(outline.first),
        )
    created = outline.created if outline.first == "create_session" else None
    if isinstance(created, list) and all(isinstance(name, str) for name in created):
        return TrailReplay(start, list(created), None)  # renames checked as they come
    return TrailReplay(start, *first_seats(outline.renames, start.table.players))


def walk_trail(
    entries: Callable[[], Iterable[Any]], outline: Outline, trail: Trail, replay: TrailReplay
) -> tuple[int, dict[str, Any]] | None:
    """Apply each entry and spool those kept; return the last finish, unless a change follows."""
    last_at = outline.first_time  # an entry without a time takes the one above it
    finish: tuple[int, dict[str, Any]] | None = None
    for index, raw in enumerate(entries()):
        entry = audit_entry(raw, f"audit.{index}")
        entry["at"] = last_at = entry["at"] or last_at
        replay.apply(index, entry)
        if entry["action"] == "finish_session":
            finish = (index, entry)
        elif entry["action"] in ("replace_round", "rename_player"):
            finish = None  # a correction or a rename after the finish may explain its totals
        if index < outline.count - 1 or entry["action"] != "import_session":
            trail.rows.add(entry)
            trail.count += 1
            trail.size += limits.entry_bytes(entry["before"], entry["after"])
    trail.latest = last_at
    return finish


def check_trail_end(replay: TrailReplay, start: Start, by: str | None) -> None:
    """Refuse a trail that ends unlike the export: who finished, the rounds, the players."""
    if replay.finished is not None and by != "table":
        raise MalformedInput(
            "import_disagrees",
            "Audit entry {entry} says the table ended the session, but the export says "
            "finished_by is {value}.",
            "finished_by",
            entry=f"audit.{replay.finished}",
            value=quote(by),
        )
    if len(replay.rounds) != len(start.inputs):
        raise MalformedInput(
            "import_disagrees",
            "The audit trail ends with {trail} round(s), but the export has {count}.",
            "audit",
            trail=len(replay.rounds),
            count=len(start.inputs),
        )
    if replay.names != list(start.table.players):
        raise MalformedInput(
            "invalid_value",
            "The audit trail's players, renamed as it says, are {value}, but the export's are "
            "{wanted}.",
            "audit.0.after.players",
            value=excerpt(replay.names),
            wanted=excerpt(list(start.table.players)),
        )


def first_seats(
    renames: Sequence[tuple[int, Any, Any]], players: Sequence[str]
) -> tuple[list[str], set[int]]:
    """Return the seats' names at the trail's start (the export's, its renames taken back) and
    the renames that do not fit: a rename names a seated player and a name nobody else has."""
    names, wrong = list(players), set()
    for index, old, new in reversed(renames):
        if isinstance(old, str) and new in names and old not in names:
            names[names.index(new)] = old
        else:
            wrong.add(index)
    return names, wrong
