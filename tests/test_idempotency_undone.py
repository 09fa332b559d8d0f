"""A round resent after another phone undid it is never recorded again, by any path that sends it.

The first answer of a round was lost; another phone undid that round; the resend finds its round
free. With the entry's key (the API's header, a page form's hidden field, the offline queue's
header and field) the key says it was stored and undone: nothing is recorded again, and the
table's undo stands. Every such case, a plain replay and a key sent with another write are each
logged in one line naming the session and the round, never what was sent. A resend with no key
is told apart only by its ``expected_round``, and after an undo that round is free again.
"""

from __future__ import annotations

import logging

import pytest

from refapp.models import Round

from .conftest import turn
from .test_web import count, new_session, turn_form

LIVE = {"X-Refapp-Live": "1"}
#: the round the lost answer stored: Ben tells, and every word of it must stay out of the log
BEN = turn("Ben")
BEN_FORM = turn_form("Ben", ("Ben", "Ann", "Cy", "Dee"), {"Ann": "1", "Cy": "1", "Dee": "1"})


def logged(caplog) -> list[str]:
    """Return the lines logged under refapp.* at WARNING or above."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.name.startswith("refapp") and record.levelno >= logging.WARNING
    ]


def quiet(lines: list[str]) -> None:
    """Assert no line repeats what was sent (names, votes, the key)."""
    for line in lines:
        for word in ("Ben", "Cy", "Dee", "votes", "storyteller", "entry-"):
            assert word not in line, line


@pytest.fixture
def one_round(api) -> int:
    """Return a session of Ann, Ben, Cy and Dee with Ann's round 1 recorded."""
    sid = api.create()["id"]
    assert api.record(sid, turn("Ann")).status_code == 201
    return sid


def test_an_api_resend_after_an_undo_records_nothing(api, app, one_round, caplog):
    sid, key = one_round, {"Idempotency-Key": "entry-ben-2"}
    body = {**BEN, "expected_round": 2}
    first = api.client.post(f"/api/sessions/{sid}/rounds", json=body, headers=key)
    assert first.status_code == 201  # ... and its answer was lost
    assert api.client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200  # another phone
    with caplog.at_level(logging.WARNING, logger="refapp"):
        again = api.client.post(f"/api/sessions/{sid}/rounds", json=body, headers=key)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["round"] is None
    assert again.get_json()["session"]["rounds_total"] == 1
    assert count(app, Round) == 1
    lines = logged(caplog)
    assert len(lines) == 1 and f"session {sid}:" in lines[0] and "undone" in lines[0]
    assert "round 1" in lines[0]
    quiet(lines)
    # round 2 is another round now; the same resend still records nothing
    assert api.record(sid, turn("Ben")).status_code == 201
    again = api.client.post(f"/api/sessions/{sid}/rounds", json=body, headers=key)
    assert again.status_code == 200 and again.get_json()["round"] is None
    assert count(app, Round) == 2


def test_a_page_form_resent_after_an_undo_records_nothing(client, app, caplog):
    sid = new_session(client)
    first = turn_form(expected_round="1", idempotency_key="entry-form-1")
    assert client.post(f"/sessions/{sid}/rounds", data=first).status_code == 302
    entry = {**BEN_FORM, "expected_round": "2", "idempotency_key": "entry-form-2"}
    recorded = client.post(f"/sessions/{sid}/rounds", data=entry)
    assert recorded.status_code == 302 and recorded.headers["Location"].endswith("?just=2")
    undone = client.post(f"/sessions/{sid}/rounds/2/delete")  # the other phone's undo button
    assert undone.status_code == 302 and count(app, Round) == 1
    with caplog.at_level(logging.WARNING, logger="refapp"):
        again = client.post(f"/sessions/{sid}/rounds", data=entry)  # a reload's resend
    assert again.status_code == 302
    assert again.headers["Location"].endswith(f"/sessions/{sid}")  # no round to show
    assert count(app, Round) == 1
    lines = logged(caplog)
    assert len(lines) == 1 and f"session {sid}:" in lines[0] and "undone" in lines[0]
    quiet(lines)


def test_the_offline_queues_resend_after_an_undo_records_nothing(client, app, caplog):
    """The queue posts the kept form's fields with its key as a header too (static/live.js)."""
    sid = new_session(client)
    first = turn_form(expected_round="1", idempotency_key="entry-queue-1")
    assert client.post(f"/sessions/{sid}/rounds", data=first, headers=LIVE).status_code == 302
    entry = {**BEN_FORM, "expected_round": "2", "idempotency_key": "entry-queue-2"}
    headers = {**LIVE, "Idempotency-Key": "entry-queue-2"}
    assert client.post(f"/sessions/{sid}/rounds", data=entry, headers=headers).status_code == 302
    undo = {"idempotency_key": "entry-undo-2"}
    assert client.post(f"/sessions/{sid}/rounds/2/delete", data=undo).status_code == 302
    client.get(f"/sessions/{sid}")  # the messages so far are shown
    with caplog.at_level(logging.WARNING, logger="refapp"):
        again = client.post(f"/sessions/{sid}/rounds", data=entry, headers=headers)
    # answered 302 as a stored round is: the queue lets the entry go (static/queue.js)
    assert again.status_code == 302 and "just=" not in again.headers["Location"]
    assert count(app, Round) == 1
    page = client.get(again.headers["Location"], headers=LIVE).get_data(as_text=True)
    assert "Round 2 recorded" not in page
    lines = logged(caplog)
    assert len(lines) == 1 and "undone" in lines[0]
    quiet(lines)


def test_a_replay_and_a_key_reused_are_each_logged_once(api, app, one_round, caplog):
    sid, key = one_round, {"Idempotency-Key": "entry-ben-2"}
    assert api.client.post(f"/api/sessions/{sid}/rounds", json=BEN, headers=key).status_code == 201
    with caplog.at_level(logging.WARNING, logger="refapp"):
        again = api.client.post(f"/api/sessions/{sid}/rounds", json=BEN, headers=key)
        assert again.status_code == 200 and again.get_json()["round"]["number"] == 2
        replayed = logged(caplog)
        caplog.clear()
        other = {**turn("Cy"), "expected_round": 3}
        reused = api.client.post(f"/api/sessions/{sid}/rounds", json=other, headers=key)
        assert reused.status_code == 422
        assert reused.get_json()["error"]["code"] == "idempotency_key_reused"
        refused = logged(caplog)
    assert len(replayed) == 1 and f"session {sid}:" in replayed[0]
    assert "round 2" in replayed[0] and "record_round" in replayed[0]
    assert len(refused) == 1 and f"session {sid}:" in refused[0] and "round 2" in refused[0]
    quiet(replayed + refused)
    assert count(app, Round) == 2


def test_a_resend_without_a_key_after_an_undo_cannot_be_told_apart(api, app, one_round):
    """docs/API.md: ``expected_round`` says where a round goes; after an undo it is free again,
    so a keyless resend is recorded as a new round 2 (send an Idempotency-Key to prevent it)."""
    sid = one_round
    body = {**BEN, "expected_round": 2}
    assert api.record(sid, body).status_code == 201
    assert api.client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    again = api.record(sid, body)
    assert again.status_code == 201 and again.get_json()["round"]["number"] == 2
    assert count(app, Round) == 2
