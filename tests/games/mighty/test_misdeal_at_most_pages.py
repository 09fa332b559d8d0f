"""The table's own throw-in limit through the pages and the API: form, saved set, card, export."""

from __future__ import annotations

from refapp.games import get_game

MIGHTY = ["Ann", "Ben", "Cy", "Dee", "Eve"]
KEY = "misdeal_at_most"


def form_data(**fields: str) -> dict:
    """Return the new-session form as the page fills it for the default preset, some changed."""
    data: dict = {"game": "mighty", "name": "Friday", "players": "\n".join(MIGHTY)}
    data.update(preset="korean_wiki", filled_from="korean_wiki")
    for option in get_game("mighty").options:
        if option.kind == "bool":
            if option.default:
                data[f"rule_{option.key}"] = "y"
        elif option.kind == "choices":
            data[f"rule_{option.key}"] = list(option.default)
        else:
            data[f"rule_{option.key}"] = "" if option.default is None else str(option.default)
    return {**data, **fields}


def test_the_new_session_form_offers_the_limit(client):
    page = client.get("/sessions/new?game=mighty").get_data(as_text=True)
    assert 'name="rule_misdeal_at_most"' in page
    assert "Most a hand may be worth for a throw-in (파토)" in page


def posted(client, text: str):
    """Post the new-session form with the limit written as text; return the response."""
    data = form_data(rule_misdeal="half_ten", **{f"rule_{KEY}": text})
    return client.post("/sessions/new?game=mighty", data=data)


def test_the_form_reads_a_half_with_a_point_or_a_comma(client, api):
    for text, stored in (("2.5", 2.5), ("1,5", 1.5), ("2", 2), ("", None)):
        response = posted(client, text)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        sid = int(response.headers["Location"].rsplit("/", 1)[1])
        assert client.get(f"/api/sessions/{sid}").get_json()["rules"][KEY] == stored


def test_the_form_refuses_a_number_off_the_steps_in_words(client):
    response = posted(client, "0.3")
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "must be a number in steps of 0.5" in text


def test_the_rules_card_writes_the_half_as_the_reader_does(client, api):
    created = api.create(MIGHTY, game="mighty", rules={"misdeal": "half_ten", KEY: 2.5})
    english = client.get(f"/sessions/{created['id']}").get_data(as_text=True)
    assert "2.5" in english
    magyar = client.get(f"/sessions/{created['id']}", headers={"Accept-Language": "hu"})
    assert "2,5" in magyar.get_data(as_text=True)


def test_a_saved_set_and_an_export_keep_the_limit(client):
    body = {"game": "mighty", "preset": "korean_wiki", "rules": {KEY: 1.5}}
    assert client.put("/api/rule-sets/Halves", json=body).status_code == 200
    made = client.post(
        "/api/sessions", json={"game": "mighty", "players": MIGHTY, "rule_set": "Halves"}
    ).get_json()
    assert made["rules"][KEY] == 1.5
    assert made["rules_changed"] == [KEY]
    exported = client.get(f"/api/sessions/{made['id']}/export").get_json()
    copy = client.post("/api/sessions/import", json=exported).get_json()
    assert client.get(f"/api/sessions/{copy['id']}").get_json()["rules"][KEY] == 1.5
    bad = client.put("/api/rule-sets/Bad", json={**body, "rules": {KEY: "1"}})
    assert bad.status_code == 422
    assert bad.get_json()["error"]["field"] == f"rules.{KEY}"
