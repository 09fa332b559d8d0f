"""A write committed while a multi-round correction is worked out before its lock.

``corrections.replace_rounds`` replays a long correction before it takes the session's write
lock; its reads may then straddle another write's commit (PostgreSQL's READ COMMITTED, SQLite
between statements). Here that other write is made to land at the worst moment every time - between
the rounds' states and the seats - by a thread with its own connection: the correction is then
worked out again under the lock (200) or refused with its code, never a 500. The same race over
real HTTP, by chance, is in tests/test_races_http.py. Both run on SQLite and, with
TEST_DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest

from refapp import services
from refapp.extensions import db
from refapp.services import corrections, later_rounds, replays, sessions
from refapp.services import players as roster

from .conftest import shown, turn

PLAYERS = ("Ann", "Ben", "Cy", "Dee")


@pytest.fixture(autouse=True)
def worked_out_before_the_lock(monkeypatch):
    """Every correction here is worked out before the lock, as a long one is (a short one,
    ``corrections.SHORT_REPLAY``, is worked out under it and no other write can land meanwhile)."""
    monkeypatch.setattr(corrections, "SHORT_REPLAY", 0)


def other_write(app, write: Callable[[], Any]) -> None:
    """Run a write to completion on its own connection (another request), in another thread."""

    def run() -> None:
        with app.app_context():
            write()
            db.session.remove()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "the other write did not finish"


def landing_after(app, monkeypatch, module, name: str, write: Callable[[], Any]) -> None:
    """Make ``write`` commit just after the first call of ``module.name`` (once)."""
    original = getattr(module, name)
    done: list[bool] = []

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        if not done:
            done.append(True)
            other_write(app, write)
        return found

    monkeypatch.setattr(module, name, wrapped)


def four_rounds(api) -> int:
    """Start a session of four that never ends, with four rounds; return its id."""
    sid = api.create(PLAYERS, rules={"target_score": 1000})["id"]
    for teller in PLAYERS:
        assert api.record(sid, turn(teller)).status_code == 201
    return sid


def correction() -> dict[str, Any]:
    """Return a correction of rounds 2 and 3: in each, one finder voted wrong after all."""
    return {
        "rounds": {
            "2": {**turn("Ben"), "votes": {"Ann": 1, "Cy": 1, "Dee": 3}},
            "3": {**turn("Cy"), "votes": {"Ann": 1, "Ben": 4, "Dee": 1}},
        }
    }


def stored(app, sid: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Return a session's players and every round's input, as stored."""
    with app.app_context():
        view = services.describe(services.load_session(sid, with_rounds=False))
        inputs = [dict(row.input) for row in services.round_rows(sid, 0, 100)]
        players = list(view.table.players)
        db.session.remove()
    return players, inputs


def test_a_rename_landing_between_the_states_and_the_seats_is_refused_not_a_500(
    app, client, api, monkeypatch
):
    sid = four_rounds(api)
    _, before = stored(app, sid)
    rename = lambda: roster.rename_player("Ann", "Anna")  # noqa: E731
    landing_after(app, monkeypatch, later_rounds, "read_whole", rename)
    response = client.put(f"/api/sessions/{sid}/rounds", json=correction())
    # the correction names Ann, who is Anna now: refused with its code, as if sent just after
    assert response.status_code == 422, response.get_data(as_text=True)
    error = response.get_json()["error"]
    assert (error["code"], error["round"]) == ("unknown_player", 2)
    players, after = stored(app, sid)
    assert players == ["Anna", "Ben", "Cy", "Dee"]
    renamed = [roster.renamed(entry, "Ann", "Anna") for entry in before]
    assert after == renamed  # the rename whole, nothing of the correction
    actions = [entry["action"] for entry in api.audit(sid)]
    assert actions.count("replace_round") == 0 and actions.count("rename_player") == 1
    exported = client.get(f"/api/sessions/{sid}/export").get_json()
    assert client.post("/api/sessions/import", json=exported).status_code == 201


def test_a_round_landing_while_a_correction_is_worked_out_is_worked_out_again(
    app, client, api, monkeypatch
):
    sid = four_rounds(api)
    fifth = lambda: services.record_round(sid, turn("Ann"))  # noqa: E731
    landing_after(app, monkeypatch, later_rounds, "read_whole", fifth)
    response = client.put(f"/api/sessions/{sid}/rounds?rounds=all", json=correction())
    assert response.status_code == 200, response.get_data(as_text=True)
    session = response.get_json()
    assert session["rounds_total"] == 5 and session["version"] == 7
    _, inputs = stored(app, sid)
    assert inputs[1]["votes"] == {"Ann": 1, "Cy": 1, "Dee": 3}
    assert inputs[2]["votes"] == {"Ann": 1, "Ben": 4, "Dee": 1}
    assert inputs[4]["storyteller"] == "Ann"  # the round that landed meanwhile, replayed
    assert session["totals"] == api.session(sid)["totals"]
    actions = [entry["action"] for entry in api.audit(sid)]
    assert actions[-3:] == ["record_round", "replace_round", "replace_round"]


@pytest.mark.parametrize("live", [False, True], ids=["page", "live-main"])
def test_a_page_read_racing_a_rename_reads_one_moment_not_a_500(
    app, client, api, monkeypatch, live
):
    sid = four_rounds(api)
    rename = lambda: roster.rename_player("Dee", "Deb")  # noqa: E731 - who told the last story
    original = sessions.state_before
    done: list[bool] = []

    def state_after_the_rename(*args: Any, **kwargs: Any) -> Any:
        if not done:  # the seats are read: the rename lands before the state is
            done.append(True)
            other_write(app, rename)
        return original(*args, **kwargs)

    monkeypatch.setattr(sessions, "state_before", state_after_the_rename)
    headers = {"X-Refapp-Live": "1"} if live else {}
    response = client.get(f"/sessions/{sid}", headers=headers)
    assert done and response.status_code == 200, response.get_data(as_text=True)[-2000:]
    page = shown(response)
    # the page reads the session as of one moment: before the rename, whole
    assert "Dee" in page and "Deb" not in page
    again = shown(client.get(f"/sessions/{sid}", headers=headers))
    assert "Deb" in again and "Dee" not in again  # and the next read, after it


def test_any_other_failure_before_the_lock_is_worked_out_again_under_it(
    client, api, monkeypatch, caplog
):
    sid = four_rounds(api)
    original = replays.replay_changes
    calls: list[bool] = []

    def torn_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(True)
        if len(calls) == 1:  # what a torn read can raise in a game's rules
            raise KeyError("last_storyteller")
        return original(*args, **kwargs)

    monkeypatch.setattr(replays, "replay_changes", torn_once)
    with caplog.at_level(logging.WARNING, logger="refapp"):
        response = client.put(f"/api/sessions/{sid}/rounds", json=correction())
    assert response.status_code == 200, response.get_data(as_text=True)
    assert len(calls) == 2 and response.get_json()["version"] == 6
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("refapp")]
    assert lines == [
        f"session {sid}: a correction worked out before the lock failed (KeyError); "
        "worked out again under the lock"
    ]
