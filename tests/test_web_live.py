"""The session page at the table: refusals listed at the form's top, reloadable addresses,
retries stored once, and the part of a page a live request swaps in place."""

from refapp.models import Round

from .test_web import count, new_session, shown, turn_form


def test_a_retried_round_whose_answer_was_lost_is_stored_once(client, app):
    sid = new_session(client)
    first = client.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="1"))
    retry = client.post(f"/sessions/{sid}/rounds", data=turn_form(expected_round="1"))
    assert first.status_code == retry.status_code == 302
    assert retry.headers["Location"].endswith(f"/sessions/{sid}?just=1")
    assert count(app, Round) == 1


def test_form_addresses_reload_as_the_session_page(client):
    sid = new_session(client)
    for path in ("rounds", "finish", "rounds/1/delete"):
        response = client.get(f"/sessions/{sid}/{path}")
        assert response.status_code == 302, path
        assert response.headers["Location"].endswith(f"/sessions/{sid}")


def test_a_refusal_is_listed_at_the_top_of_the_form(client):
    sid = new_session(client)
    response = client.post(f"/sessions/{sid}/rounds", data=turn_form(storyteller="Zed"))
    page = shown(response)
    assert response.status_code == 422
    top = page.index('id="refused"')
    assert top < page.index('name="storyteller"')
    assert 'data-field="storyteller"' in page[top:]


def test_a_live_request_gets_only_the_main_part(client):
    sid = new_session(client)
    page = shown(client.get(f"/sessions/{sid}", headers={"X-Refapp-Live": "1"}))
    assert page.lstrip().startswith("<main") and "<head>" not in page
    assert 'data-version="1"' in page
