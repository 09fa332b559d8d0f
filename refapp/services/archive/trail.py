"""An import's audit trail: each entry checked alone, then the whole one the app could write.

A forged trail is refused: its round count must follow the entries to the rounds imported, each
entry's round must have existed when it was written, and each finish must name its leaders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...games.errors import RuleViolation, quote
from ...games.game import leaders
from ...games.inputs import mapping, sequence
from .. import values
from .checks import compare_scores, excerpt, moment

#: every action the app writes into an audit trail
ACTIONS = (
    "create_session",
    "record_round",
    "replace_round",
    "delete_round",
    "finish_session",
    "rename_player",
    "import_session",
)
#: the actions that concern no single round (their ``round`` is null)
ROUNDLESS = ("create_session", "finish_session", "rename_player", "import_session")
#: the most audit entries an import may carry: ten changes per round of the largest session
AUDIT_MAX = 10 * values.MAX_ROUNDS


def audit_of(raw: Any) -> list[dict[str, Any]]:
    """Return the exported audit entries, each checked alone, oldest first ([] when absent)."""
    if raw is None:
        return []
    items = sequence(raw, "audit")
    if len(items) > AUDIT_MAX:
        raise RuleViolation(
            "invalid_value",
            "An audit trail holds at most {most} entries; this export has {value}.",
            "audit",
            most=AUDIT_MAX,
            value=len(items),
        )
    return [audit_entry(item, f"audit.{index}") for index, item in enumerate(items)]


def audit_entry(item: Any, where: str) -> dict[str, Any]:
    """Return one exported audit entry checked: a known action, a round in range, a time."""
    entry = mapping(item, where)
    action = entry.get("action")
    if action not in ACTIONS:
        raise RuleViolation(
            "missing_field" if action is None else "invalid_value",
            "An audit entry's action is one of {known}, not {value}.",
            f"{where}.action",
            known=", ".join(ACTIONS),
            value=excerpt(action),
        )
    number = entry.get("round")
    if number is not None and (type(number) is not int or not 1 <= number <= values.MAX_ROUNDS):
        raise RuleViolation(
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


def check_trail(
    entries: Sequence[dict[str, Any]], count: int, totals: Mapping[str, int], by: str | None
) -> None:
    """Refuse a trail the app could not have written for these rounds.

    The round count is followed from the last import_session entry (what came before it was
    checked by that import) or from the start; it must end at the rounds imported. Every
    finish_session entry must name the leaders of its own totals.
    """
    if not entries:
        return
    start = 0
    for index, entry in enumerate(entries):
        where = f"audit.{index}"
        if entry["action"] == "import_session":
            imported_rounds(entry, where)
            start = index + 1
        elif entry["action"] == "finish_session":
            finish_totals(entry, where)
    count_from = imported_rounds(entries[start - 1], f"audit.{start - 1}") if start else 0
    finished = follow_rounds(entries, start, count_from)
    if finished is not None and by != "table":
        raise RuleViolation(
            "import_disagrees",
            "Audit entry {entry} says the table ended the session, but the export says "
            "finished_by is {value}.",
            "finished_by",
            entry=f"audit.{finished}",
            value=quote(by),
        )
    trail_count = trail_rounds(entries, start, count_from)
    if trail_count != count:
        raise RuleViolation(
            "import_disagrees",
            "The audit trail ends with {trail} round(s), but the export has {count}.",
            "audit",
            trail=trail_count,
            count=count,
        )
    if by == "table":
        check_last_finish(entries, totals)


def imported_rounds(entry: Mapping[str, Any], where: str) -> int:
    """Return how many rounds an import_session entry says were imported."""
    after = entry["after"] if isinstance(entry["after"], Mapping) else {}
    rounds = after.get("rounds")
    if type(rounds) is not int or not 0 <= rounds <= values.MAX_ROUNDS:
        raise RuleViolation(
            "invalid_value",
            "An import_session audit entry says how many rounds were imported (0 to {most}), "
            "not {value}.",
            f"{where}.after.rounds",
            most=values.MAX_ROUNDS,
            value=excerpt(rounds),
        )
    return rounds


def follow_rounds(entries: Sequence[dict[str, Any]], start: int, count: int) -> int | None:
    """Follow the round count along the trail from ``start``; return the table's finish entry.

    Each entry's round must have existed when it was written: record_round n is the next
    round, replace_round n an existing one, delete_round n the last one; the others name none.
    After the table's finish_session no round is recorded or undone.
    """
    finished = None
    for index in range(start, len(entries)):
        action, number = entries[index]["action"], entries[index]["round_number"]
        where = f"audit.{index}"
        if (action == "create_session" and index != 0) or (
            finished is not None and action in ("record_round", "delete_round", "finish_session")
        ):
            raise out_of_place(action, where)
        if action in ROUNDLESS:
            if number is not None:
                raise RuleViolation(
                    "invalid_value",
                    "A {action} audit entry names no round, not {value}.",
                    f"{where}.round",
                    action=action,
                    value=quote(number),
                )
            finished = index if action == "finish_session" else finished
            continue
        if not round_existed(action, number, count):
            raise RuleViolation(
                "invalid_value",
                "A {action} audit entry cannot name round {value} when the session had "
                "{count} round(s).",
                f"{where}.round",
                action=action,
                value=quote(number),
                count=count,
            )
        count += {"record_round": 1, "delete_round": -1}.get(action, 0)
    return finished


def round_existed(action: str, number: int | None, count: int) -> bool:
    """Return True if a round's audit entry fits a session that had ``count`` rounds.

    record_round names the next round, replace_round an existing one, delete_round the last one.
    """
    if number is None:
        return False
    if action == "record_round":
        return number == count + 1
    if action == "delete_round":
        return number == count
    return number <= count


def trail_rounds(entries: Sequence[dict[str, Any]], start: int, count: int) -> int:
    """Return the round count the trail ends with (its entries already checked)."""
    for entry in entries[start:]:
        count += {"record_round": 1, "delete_round": -1}.get(entry["action"], 0)
    return count


def out_of_place(action: str, where: str) -> RuleViolation:
    """Return the refusal of an entry the app never writes at that point of a trail."""
    return RuleViolation(
        "invalid_value",
        "A {action} audit entry cannot come at this point of the trail: a session is created "
        "once, first, and the table's finish ends its rounds.",
        f"{where}.action",
        action=action,
    )


def finish_totals(entry: Mapping[str, Any], where: str) -> dict[str, int]:
    """Return a finish_session entry's totals, refusing winners that are not their leaders."""
    after = mapping(entry["after"], f"{where}.after")
    totals = mapping(after.get("totals"), f"{where}.after.totals")
    for name, value in totals.items():
        if type(value) is not int:
            raise RuleViolation(
                "invalid_value",
                "A total is a whole number, not {value}.",
                f"{where}.after.totals.{name}",
                value=excerpt(value),
            )
    winners = sequence(after.get("winners"), f"{where}.after.winners")
    wanted = leaders(totals)
    if not all(isinstance(name, str) for name in winners) or sorted(winners) != sorted(wanted):
        raise RuleViolation(
            "import_disagrees",
            "The export says {where} is {given}, but the entry's own totals make {wanted} the "
            "winners.",
            f"{where}.after.winners",
            where=f"{where}.after.winners",
            given=excerpt(winners),
            wanted=excerpt(wanted),
        )
    return dict(totals)


def check_last_finish(entries: Sequence[dict[str, Any]], totals: Mapping[str, int]) -> None:
    """Refuse a last finish_session whose totals differ from the replay's, unless explained.

    A correction or a rename after the finish may explain the difference.
    """
    for index in range(len(entries) - 1, -1, -1):
        action = entries[index]["action"]
        if action in ("replace_round", "rename_player"):
            return
        if action == "finish_session":
            where = f"audit.{index}"
            compare_scores(finish_totals(entries[index], where), totals, f"{where}.after.totals")
            return
