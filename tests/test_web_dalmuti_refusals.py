"""The Dalmuti hand form's refusals about the whole order or the whole tax are links to the
control that mends them: the place that names a player twice (or the first place left empty),
"Tax paid as due" or the tribute typed after a revolution; the tax part's one-tap greater
revolution is offered to the Greater Peasant alone."""

from __future__ import annotations

import re

from refapp.games.dalmuti.web.refusals import place_refused, tax_refused

from .conftest import shown

SIX = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
FIRST = {"tribute": {"paid": True}, "finish_order": list(SIX)}


class Field:
    """A form field's data, as the helpers read it."""

    def __init__(self, data: object) -> None:
        self.data = data


def start(api, hands=(FIRST,)) -> int:
    """Create a session of six, record the given hands through the API; return its id."""
    sid = api.create(players=list(SIX), game="dalmuti")["id"]
    for body in hands:
        assert api.record(sid, body).status_code == 201
    return sid


def order(*names: str) -> dict[str, str]:
    """Return the finishing places' fields for the names, first out first."""
    return {f"finish_{place}": name for place, name in enumerate(names, 1)}


def links(page: str) -> dict[str, str]:
    """Return the refusals' links at the form's top: field id -> words."""
    box = page.split('class="refused"', 1)[1].split("</div>", 1)[0]
    return dict(re.findall(r'<a href="#[^"]+" data-field="([^"]+)">([^<]+)</a>', box))


def test_a_name_listed_twice_links_to_the_place_that_repeats_it(client, api):
    sid = start(api, ())
    data = {**order("Cy", "Ann", "Dee", "Cy", "Ben"), "tribute_paid": "y", "action": "record"}
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    page = shown(response)
    assert links(page) == {
        "finish_4": "&#39;Cy&#39; is listed twice in the finishing order; name every player once."
    }
    # the message stands by the fourth place's select, not above the whole order
    after = page.split('id="finish_4"', 1)[1].split("</select>", 1)[1]
    assert after.lstrip().startswith('<p class="error"') and "listed twice" in after[:300]
    assert api.session(sid)["rounds"] == []


def test_a_tax_paid_after_a_revolution_links_to_paid_as_due(client, api):
    sid = start(api)
    data = {
        "revolution_player": "Fay",
        "revolution_kind": "greater",
        "tribute_paid": "y",
        **order("Cy", "Ann", "Fay", "Ben", "Dee"),
        "action": "record",
    }
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    words = "No tax is paid this hand (Fay declared a revolution), so no tribute."
    assert links(shown(response)) == {"tribute_paid": words}
    assert len(api.session(sid)["rounds"]) == 1


def test_the_tax_part_offers_the_greater_revolution_to_the_greater_peasant(client, api):
    sid = start(api)
    page = shown(client.get(f"/sessions/{sid}"))
    tax = page.split('id="dal-tax"', 1)[1].split("</fieldset>", 1)[0]
    assert re.findall(r'data-revolt="([^"]+)" data-kind="([^"]+)"', tax) == [("Fay", "greater")]
    assert 'data-for="tribute_greater_peasant"' in page  # a refused tribute leads to its pad


def test_which_place_and_which_tax_control():
    places = [Field("Cy"), Field("Ann"), Field("Cy"), Field(""), Field("")]
    assert place_refused(places) is places[2]
    gap = [Field("Cy"), Field(""), Field("Ann")]
    assert place_refused(gap) is gap[1]
    paid, typed = Field(True), [Field(""), Field("5 6")]
    assert tax_refused(paid, typed) is paid
    assert tax_refused(Field(False), typed) is typed[1]
    unpaid = Field(False)
    assert tax_refused(unpaid, [Field("")]) is unpaid
