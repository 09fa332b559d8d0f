"""The hot writes (record, correct, undo) store and answer what they did through the ORM.

Every golden case is recorded, corrected and undone through the API (tests/hot_writes_scenario.py)
and each answer (status, entity tag, body byte for byte) and the rows stored after each write
(the session's round, session, seat, mark, rating, write key and audit rows, and every player's
figures and pairs) are compared with what the writes gave before they went below the ORM
(tests/hot_writes_expected.json, written by the scenario from that code).
"""

from __future__ import annotations

import json

from .hot_writes_scenario import EXPECTED, Scenario


def first_difference(expected: list[dict], found: list[dict]) -> str | None:
    """Return where the steps first differ (the request, and what of it), or None."""
    for index, (want, got) in enumerate(zip(expected, found, strict=False)):
        keys = [key for key in want if key != "tables" and want[key] != got.get(key)]
        tables = sorted(
            set(want["tables"]) ^ set(got["tables"])
            | {name for name in want["tables"] if want["tables"][name] != got["tables"].get(name)}
        )
        if keys or tables:
            return f"step {index} ({got['request']}): {keys} differ; tables {tables}"
    if len(expected) != len(found):
        return f"{len(found)} steps, not {len(expected)}"
    return None


def test_every_golden_case_stores_and_answers_the_same(app):
    """Every step's answer and stored rows, and the tables at the end, are as before."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    found = Scenario(app).run()
    assert first_difference(expected["steps"], found["steps"]) is None
    assert found["tables"] == expected["tables"]


def test_a_difference_is_found():
    """The comparison sees a changed body, a changed table and a missing step."""
    steps = [{"request": "POST /", "status": 201, "body": "a", "tables": {"round": "x"}}]
    assert first_difference(steps, steps) is None
    assert "body" in first_difference(steps, [{**steps[0], "body": "b"}])
    assert "round" in first_difference(steps, [{**steps[0], "tables": {"round": "y"}}])
    assert "mark" in first_difference(steps, [{**steps[0], "tables": {"round": "x", "mark": "z"}}])
    assert first_difference(steps, []) is not None
