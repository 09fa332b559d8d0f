"""Undo stands by the banner of the round just recorded, and only there while it is the last."""

from __future__ import annotations

import re

from .conftest import SEED_TURN, turn


def banner(page: str) -> str:
    """Return the 'round recorded' banner of a session page ('' when there is none)."""
    found = re.search(r'<div class="just" id="just".*?</div>\n  ', page, re.S)
    return found.group(0) if found else ""


def test_the_banner_of_the_round_just_recorded_offers_its_undo(client, api):
    sid = api.create()["id"]
    assert api.record(sid, SEED_TURN).status_code == 201
    assert api.record(sid, turn("Ben")).status_code == 201
    page = client.get(f"/sessions/{sid}?just=2").get_data(as_text=True)
    shown = banner(page)
    assert f'action="/sessions/{sid}/rounds/2/delete"' in shown
    assert "Undo round 2" in shown
    undone = client.post(f"/sessions/{sid}/rounds/2/delete", data={})
    assert undone.status_code == 302 and api.session(sid)["totals"] == {
        name: delta for name, delta in api.session(sid)["rounds"][0]["result"]["deltas"].items()
    }


def test_an_earlier_round_or_a_finished_session_has_no_undo_in_the_banner(client, api):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    api.record(sid, turn("Ben"))
    assert "/delete" not in banner(client.get(f"/sessions/{sid}?just=1").get_data(as_text=True))
    client.post(f"/api/sessions/{sid}/finish")
    finished = client.get(f"/sessions/{sid}?just=2").get_data(as_text=True)
    assert "Undo round 2" not in finished
