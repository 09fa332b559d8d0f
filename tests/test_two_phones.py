"""Two phones at one table recording the same round at once: exactly one is stored."""

from __future__ import annotations

import threading

from refapp.extensions import db
from refapp.models import AuditEntry, Round

from .conftest import SEED_TURN

PHONES = 6


def race(app, path: str, body: dict) -> list[tuple[int, dict]]:
    """Post the same body from several threads released together; return their answers."""
    start = threading.Barrier(PHONES)
    answers: list[tuple[int, dict]] = []
    lock = threading.Lock()

    def phone() -> None:
        client = app.test_client()
        start.wait()
        response = client.post(path, json=body)
        with lock:
            answers.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=phone) for _ in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_same_round_from_several_phones_is_stored_once(app, api):
    sid = api.create()["id"]
    answers = race(app, f"/api/sessions/{sid}/rounds", {**SEED_TURN, "expected_round": 1})
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * (PHONES - 1), answers
    assert {body["error"]["code"] for status, body in answers if status == 409} == {"stale_round"}
    with app.app_context():
        assert db.session.query(Round).count() == 1
        actions = [e.action for e in db.session.query(AuditEntry)]
    assert actions.count("record_round") == 1


def test_racing_without_expected_round_never_doubles_a_number(app, api):
    sid = api.create(players=["Ann", "Ben", "Cy"], rules={"target_score": 10**6})["id"]
    body = {
        "storyteller": "Ann",
        "positions": ["Ann", "Ben", "Cy", "Ben", "Cy"],
        "votes": {"Ben": 1, "Cy": 2},
    }
    answers = race(app, f"/api/sessions/{sid}/rounds", body)
    assert all(status in (201, 409, 422) for status, _ in answers), answers
    assert [status for status, _ in answers].count(201) == 1  # round 2 needs Ben to tell
    with app.app_context():
        numbers = [r.number for r in db.session.query(Round).order_by(Round.number)]
    assert numbers == [1]
