"""A correction in place: the session page's history asks for the form alone (?in=history), its
fields named apart from the page's own round form; it saves, refuses and pairs with the next
round as the correction page does. Without JavaScript the history's links lead to that page."""

from __future__ import annotations

import re

from .conftest import shown
from .test_web_corrections import form_of, hand, two_hands

IN_PLACE = "?in=history"


def test_the_history_links_each_round_to_its_correction_both_ways(client, api):
    sid = two_hands(api)
    page = shown(client.get(f"/sessions/{sid}"))
    item = page.split('id="round-1"')[1].split("</ol>")[0]  # the last item (the list is reversed)
    assert f'href="/sessions/{sid}/rounds/1/edit"' in item  # the page, without JavaScript
    assert f'data-correct="/sessions/{sid}/rounds/1/edit?in=history"' in item
    last = page.split('id="round-2"')[1].split('id="round-1"')[0]
    undo = re.search(r"<form[^>]*delete[^>]*>", last)
    assert undo and "data-in-place" in undo.group(0) and "data-confirm" in undo.group(0)


def test_the_form_alone_comes_with_its_fields_named_apart(client, api):
    sid = two_hands(api)
    response = client.get(f"/sessions/{sid}/rounds/1/edit{IN_PLACE}")
    part = shown(response)
    assert response.status_code == 200
    assert "<html" not in part and 'id="main"' not in part and "<h1" not in part
    assert part.lstrip().startswith("<form") and part.rstrip().endswith("</form>")
    assert f'action="/sessions/{sid}/rounds/1/edit?in=history"' in part
    assert 'name="fix-dealer"' in part and 'name="fix-next-dealer"' in part
    assert 'id="fix-next-round"' in part and 'id="fix-also_next"' in part
    names = set(re.findall(r'name="([^"]+)"', part))
    assert not {name for name in names if name.startswith(("dealer", "friend", "boss"))}
    assert 'selected value="Cy"' in part.split('name="fix-friend_player"')[1].split("</select>")[0]
    bar = part.split('class="buttons record-bar"')[1].split("</div>")[0]
    assert 'value="record"' in bar and "data-close" in bar and 'value="check"' not in bar
    assert f'href="/sessions/{sid}/rounds/1/edit"' in part  # the whole page, a tap away


def test_the_page_itself_keeps_its_plain_names(client, api):
    sid = two_hands(api)
    page = shown(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert 'name="dealer"' in page and 'name="next-dealer"' in page
    assert 'name="fix-' not in page and 'id="fix-' not in page
    assert "<h1>Correct round 1</h1>" in page and 'id="next-round"' in page


def test_a_friend_corrected_alone_in_place_is_refused_by_the_next_dealer(client, api):
    sid = two_hands(api)
    before = api.session(sid)["rounds"]
    fields = {**form_of(hand("Ann", "Dee"), "fix-"), "action": "record"}
    response = client.post(f"/sessions/{sid}/rounds/1/edit{IN_PLACE}", data=fields)
    part = shown(response)
    assert response.status_code == 422 and "<html" not in part
    assert "Round 2 would break a rule" in part
    assert 'id="fix-next-round" open' in part and 'id="fix-also_next" checked' in part
    assert 'id="refused-fix-next"' in part
    assert 'selected value="Dee"' in part.split('name="fix-friend_player"')[1].split("</select>")[0]
    assert api.session(sid)["rounds"] == before


def test_both_rounds_saved_in_place(client, api):
    sid = two_hands(api)
    fields = {
        **form_of(hand("Ann", "Dee"), "fix-"),
        **form_of(hand("Dee", "Ben"), "fix-next-"),
        "also_next": "1",
        "action": "record",
    }
    response = client.post(f"/sessions/{sid}/rounds/1/edit{IN_PLACE}", data=fields)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/sessions/{sid}?just=1"
    rounds = api.session(sid)["rounds"]
    assert rounds[0]["input"]["friend"]["player"] == "Dee"
    assert rounds[1]["input"]["dealer"] == "Dee"
    page = shown(client.get(response.headers["Location"]))
    assert "Rounds 1 and 2 corrected; later rounds were rescored." in page


def test_a_check_in_place_stores_nothing_and_answers_the_form(client, api):
    sid = two_hands(api)
    before = api.session(sid)["rounds"]
    fields = {**form_of(hand("Ann", "Cy", opposition=9)), "action": "check"}
    fields = {f"fix-{name}": value for name, value in fields.items() if name != "action"}
    response = client.post(
        f"/sessions/{sid}/rounds/1/edit{IN_PLACE}", data={**fields, "action": "check"}
    )
    part = shown(response)
    assert response.status_code == 200 and "<html" not in part
    assert "Checked: nothing wrong." in part
    assert api.session(sid)["rounds"] == before


def test_the_page_s_plain_fields_sent_in_place_are_refused_not_a_crash(client, api):
    sid = two_hands(api)
    before = api.session(sid)["rounds"]
    fields = {**form_of(hand("Ann", "Dee")), "action": "record"}  # named as on the page
    response = client.post(f"/sessions/{sid}/rounds/1/edit{IN_PLACE}", data=fields)
    assert response.status_code == 422
    assert 'class="refused"' in shown(response)
    assert api.session(sid)["rounds"] == before


def test_no_such_round_in_place_is_404(client, api):
    sid = two_hands(api)
    assert client.get(f"/sessions/{sid}/rounds/3/edit{IN_PLACE}").status_code == 404
    assert client.get(f"/sessions/{sid + 1}/rounds/1/edit{IN_PLACE}").status_code == 404
