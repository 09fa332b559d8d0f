"""The bench's requests are the ones it means: each timed correction is legal and a real change,
and the club night's port is the one asked for."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture
def bench(monkeypatch) -> tuple[ModuleType, ModuleType]:
    """Return bench/read_session.py and bench/club_night.py as modules."""
    monkeypatch.syspath_prepend(str(BENCH))
    import club_night
    import read_session

    return read_session, club_night


def test_each_timed_correction_is_accepted_and_changes_round_1(client, bench):
    read_session, _ = bench
    created = client.post(
        "/api/sessions?rounds=none",
        json={"game": "dixit", "players": list(read_session.SEATS),
              "rules": read_session.NEVER_ENDING},
    )  # fmt: skip
    api = f"/api/sessions/{created.get_json()['id']}"
    assert client.post(f"{api}/rounds", json=read_session.turn(0)).status_code == 201
    fixes = read_session.corrections()
    tags, totals = [], []
    for _ in range(4):
        fix = next(fixes)
        answer = client.put(f"{api}/rounds/1?rounds=none", json=fix)
        assert answer.status_code == 200, answer.get_json()
        tags.append(answer.headers["ETag"])
        stored = client.get(f"{api}?rounds=all").get_json()
        assert stored["rounds"][0]["input"]["votes"] == fix["votes"]
        totals.append(stored["totals"])
    assert len(set(tags)) == 4  # every correction moved the session on
    assert totals[0] != totals[1] and totals[0] == totals[2]  # another vote, then back


def test_the_club_night_serves_on_the_port_asked_for(bench):
    _, club_night = bench
    assert club_night.parse_port([]) is None
    assert club_night.parse_port(["--port", "6157"]) == 6157
    assert club_night.parse_port(["--port=6158"]) == 6158
    with pytest.raises(SystemExit):
        club_night.parse_port(["--port", "0"])
