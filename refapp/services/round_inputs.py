"""A round's input as the rounds service reads it: its body, where a phone meant it to go, and
the round numbers a correction names."""

from __future__ import annotations

from collections.abc import Mapping

from ..games.errors import Conflict, MalformedInput, NotFound, quote
from ..games.inputs import digits_number, whole_number
from . import values


def expected_round(raw: Mapping[str, object], next_number: int) -> None:
    """Refuse a round meant for another point in the session (two phones at one table)."""
    if raw.get("expected_round") is None:
        return
    expected = whole_number(raw["expected_round"], "expected_round")
    if expected != next_number:
        raise Conflict(
            "stale_round",
            "This device was recording round {value}, but the session is at round {next}; "
            "reload to see what changed.",
            "expected_round",
            value=expected,
            next=next_number,
        )


def round_input(raw: object) -> dict[str, object]:
    """Return the round body without the service's own keys."""
    if not isinstance(raw, Mapping):
        raise MalformedInput("invalid_json", "The round must be a JSON object.")
    body: dict[str, object] = dict(raw)
    return values.without_expected(body)


def correction_numbers(raw: object, count: int) -> dict[int, object]:
    """Read ``{"3": input, "4": input}`` (keys may be numbers) into existing round numbers."""
    if not isinstance(raw, Mapping) or not raw:
        raise MalformedInput(
            "missing_field" if raw is None else "invalid_value",
            "rounds must map round numbers to their corrected inputs, not {value}.",
            "rounds",
            value=quote(raw),
        )
    wanted: dict[int, object] = {}
    for key, given in raw.items():
        text = str(key)
        number = digits_number(text)
        value = key if number is None else number
        wanted[round_number(value, count)] = given
    return dict(sorted(wanted.items()))


def round_number(value: object, count: int) -> int:
    """Return value as an existing round number or raise ``not_found``."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= count:
        return value
    raise NotFound(
        "There is no round {value} (this session has {count}).",
        None,
        value=quote(value),
        count=count,
    )
