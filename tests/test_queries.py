"""A page costs a fixed number of SQL queries whatever the session's length."""

from __future__ import annotations

import pytest

from .conftest import turn

SEATS = ("Ann", "Ben", "Cy", "Dee")


def session_with_rounds(api, rounds: int) -> int:
    """Create a Dixit session (no target) with the given number of turns and return its id."""
    sid = api.create(rules={"target_score": 10**6})["id"]
    for number in range(rounds):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    return sid


@pytest.mark.parametrize(
    "path",
    [
        "/api/sessions/{sid}",
        "/sessions/{sid}",
        "/sessions/{sid}/print",
        "/sessions/{sid}/changes",
        "/api/sessions",
        "/",
    ],
)
def test_reading_costs_the_same_for_3_and_30_rounds(api, client, count_queries, path):
    short = session_with_rounds(api, 3)
    long = session_with_rounds(api, 30)
    costs = []
    for sid in (short, long):
        with count_queries() as counter:
            assert client.get(path.format(sid=sid)).status_code == 200
        costs.append(counter.count)
    assert costs[0] == costs[1]
    assert costs[0] <= 5


def test_recording_costs_the_same_for_3_and_30_rounds(api, count_queries):
    costs = []
    for rounds in (3, 30):
        sid = session_with_rounds(api, rounds)
        with count_queries() as counter:
            assert api.record(sid, turn(SEATS[rounds % 4])).status_code == 201
        costs.append(counter.count)
    assert costs[0] == costs[1]
