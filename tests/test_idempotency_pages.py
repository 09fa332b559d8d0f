"""The pages honour the entry's key: a plain double submit, a resend after the session moved on,
a correction saved twice and an undo sent twice are each stored once."""

from __future__ import annotations

import re

from refapp.models import AuditEntry, Round

from .conftest import turn
from .test_web import count, new_session, shown, turn_form

LIVE = {"X-Refapp-Live": "1"}


def key_of(page: str, name: str = "idempotency_key") -> str:
    """Return the key a page's form carries."""
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
    assert found, page
    return found.group(1)


def test_a_plain_page_gives_each_load_its_own_key_and_a_live_page_none(client):
    sid = new_session(client)
    first, second = (key_of(shown(client.get(f"/sessions/{sid}"))) for _ in range(2))
    assert len(first) >= 16 and first != second
    live = shown(client.get(f"/sessions/{sid}", headers=LIVE))  # live.js makes the entry's key
    assert key_of(live) == ""


def test_a_double_submit_without_a_script_is_stored_once(client, app):
    sid = new_session(client)
    key = key_of(shown(client.get(f"/sessions/{sid}")))
    entry = turn_form(expected_round="1", idempotency_key=key)
    first = client.post(f"/sessions/{sid}/rounds", data=entry)
    second = client.post(f"/sessions/{sid}/rounds", data=entry)
    assert first.status_code == second.status_code == 302
    assert second.headers["Location"].endswith(f"/sessions/{sid}?just=1")
    assert count(app, Round) == 1


def test_a_resend_after_other_rounds_goes_to_its_own_round_not_the_stale_choice(client, api, app):
    sid = new_session(client)
    entry = turn_form(expected_round="1", idempotency_key="phone-a-entry-1")
    assert client.post(f"/sessions/{sid}/rounds", data=entry, headers=LIVE).status_code == 302
    api.record(sid, turn("Ben"))  # another phone's round 2
    again = client.post(f"/sessions/{sid}/rounds", data=entry, headers=LIVE)
    assert again.status_code == 302 and again.headers["Location"].endswith("?just=1")
    page = shown(client.get(again.headers["Location"]))
    assert "recorded by another phone" not in page.lower() and 'id="stale"' not in page
    # the key from the script's header counts as the field does
    header = {**LIVE, "Idempotency-Key": "phone-a-entry-1"}
    bare = turn_form(expected_round="3")
    assert client.post(f"/sessions/{sid}/rounds", data=bare, headers=header).status_code == 302
    assert count(app, Round) == 2


def test_the_kept_entry_keeps_its_key_through_a_refusal_and_the_stale_choice(client, api, app):
    sid = new_session(client)
    api.record(sid, turn("Dee"))
    entry = turn_form(expected_round="1", idempotency_key="kept-entry")
    page = shown(client.post(f"/sessions/{sid}/rounds", data=entry))
    assert 'id="stale"' in page and key_of(page) == "kept-entry"
    mine = {**entry, "expected_round": "2"}
    assert client.post(f"/sessions/{sid}/rounds", data=mine).status_code == 302
    assert client.post(f"/sessions/{sid}/rounds", data=mine).status_code == 302  # second tap
    assert count(app, Round) == 2


def test_a_correction_saved_twice_is_one_correction(client, api, app):
    sid = new_session(client)
    api.record(sid, turn("Ann"))
    page = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    key = key_of(page)
    votes = {"Ben": "1", "Cy": "1", "Dee": "2"}
    fixed = turn_form(storyteller="Ann", positions=("Ann", "Ben", "Cy", "Dee"), votes=votes)
    fixed.update(action="record", idempotency_key=key)
    fixed.pop("expected_round", None)
    entries = count(app, AuditEntry)
    for _ in range(2):
        response = client.post(f"/sessions/{sid}/rounds/1/edit", data=fixed)
        assert response.status_code == 302, shown(response)
    assert count(app, AuditEntry) == entries + 1


def test_an_undo_sent_twice_undoes_one_round(client, api, app):
    sid = new_session(client)
    api.record(sid, turn("Ann"))
    api.record(sid, turn("Ben"))
    headers = {"Idempotency-Key": "undo-2"}
    for _ in range(2):
        response = client.post(f"/sessions/{sid}/rounds/2/delete", headers=headers)
        assert response.status_code == 302
    assert count(app, Round) == 1
    api.record(sid, turn("Ben"))  # a new round 2: the same undo resent leaves it
    assert client.post(f"/sessions/{sid}/rounds/2/delete", headers=headers).status_code == 302
    assert count(app, Round) == 2
