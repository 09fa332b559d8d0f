"""Typed numbers are ASCII digits: a superscript or another script's digit is text, never a 500.

``str.isdigit`` is true for '¹' and '²', which ``int`` refuses, and for '٣' or '１', which it
reads; every place that reads typed digits goes through ``inputs.digits_number`` instead.
"""

from __future__ import annotations

import pytest

from refapp.games.inputs import digits_number
from tests.test_hostile_forms import ROUNDS, post_form, snapshot, start

ODD_DIGITS = ["¹", "²", "¹²", "٣", "１", "𝟙", "3²"]


@pytest.mark.parametrize("text", ODD_DIGITS)
def test_odd_digits_are_no_number(text):
    assert digits_number(text) is None


@pytest.mark.parametrize(("text", "wanted"), [("0", 0), ("7", 7), ("123456789", 123456789)])
def test_ascii_digits_are_read(text, wanted):
    assert digits_number(text) == wanted


def test_too_many_digits_are_no_number():
    assert digits_number("1234567890") is None
    assert digits_number("12", most_digits=1) is None
    assert digits_number("") is None


@pytest.mark.parametrize("slug", ["dixit", "mighty", "dalmuti"])
@pytest.mark.parametrize("text", ["¹", "²", "٣"])
def test_an_odd_expected_round_records_or_is_refused_never_500(client, api, app, slug, text):
    sid = start(api, slug)
    body = {**ROUNDS[slug][0][0], "action": "record", "expected_round": text}
    before = snapshot(app)
    response = post_form(client, f"/sessions/{sid}/rounds", body)
    assert response.status_code in (302, 422), response.status_code
    if response.status_code == 422:
        assert snapshot(app) == before
    else:
        # not a number, so no round was claimed: the round is recorded as round 1
        assert api.session(sid)["rounds_total"] == 1


@pytest.mark.parametrize("text", ["¹", "²", "٣"])
def test_odd_digits_in_the_sessions_filter_are_refused(client, text):
    response = client.get(f"/api/sessions?page={text}")
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "page"


@pytest.mark.parametrize("text", ["¹", "٣"])
def test_an_odd_trick_number_is_refused_on_the_trick_page(client, text):
    response = client.get(f"/trick?trump=S&trick={text}&cards=H5,JK,HK,H2,C4")
    assert response.status_code in (200, 422)
    assert response.status_code < 500
