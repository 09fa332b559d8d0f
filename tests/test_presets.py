"""Presets and a table's saved house rules, through the API: explicit rules win, sets are copied."""

from __future__ import annotations

MIGHTY = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def create(client, **body):
    """Create a session and return (status, JSON)."""
    response = client.post("/api/sessions", json=body)
    return response.status_code, response.get_json()


def test_a_session_reports_its_preset_and_what_differs_from_it(client):
    status, session = create(client, game="mighty", players=MIGHTY, preset="online",
                             rules={"critic": "draw"})  # fmt: skip
    assert status == 201, session
    assert session["preset"] == "online"
    assert session["rules"]["win_formula"] == "pagat"
    assert session["rules"]["critic"] == "draw"
    assert session["rules_changed"] == ["critic"]


def test_without_a_preset_the_default_one_is_named(client):
    status, session = create(client, game="dixit", players=["Ann", "Ben", "Cy"])
    assert (status, session["preset"], session["rules_changed"]) == (201, "classic", [])
    status, session = create(client, game="dixit", players=["Ann", "Ben", "Cy"],
                             rules={"target_score": 20})  # fmt: skip
    assert session["rules_changed"] == ["target_score"]


def test_an_unknown_preset_is_invalid_rules(client):
    status, body = create(client, game="dalmuti", players=["A", "B", "C", "D"], preset="nope")
    assert status == 422
    assert (body["error"]["code"], body["error"]["field"]) == ("invalid_rules", "preset")


def test_a_saved_set_makes_sessions_and_later_changes_never_touch_them(client):
    body = {"game": "mighty", "preset": "online", "rules": {"min_bid": 12}}
    saved = client.put("/api/rule-sets/Friday club", json=body)
    assert saved.status_code == 200, saved.get_json()
    assert client.get("/api/rule-sets").get_json()["rule_sets"] == [{"name": "Friday club", **body}]
    status, session = create(client, game="mighty", players=MIGHTY, rule_set="Friday club",
                             rules={"critic": "draw"})  # fmt: skip
    assert status == 201, session
    assert (session["preset"], session["rules"]["min_bid"]) == ("online", 12)
    assert sorted(session["rules_changed"]) == ["critic", "min_bid"]
    client.put("/api/rule-sets/Friday club", json={**body, "rules": {"min_bid": 15}})
    again = client.get(f"/api/sessions/{session['id']}").get_json()
    assert again["rules"]["min_bid"] == 12
    assert client.delete("/api/rule-sets/Friday club").status_code == 200
    assert client.get("/api/rule-sets").get_json()["rule_sets"] == []
    status, body = create(client, game="mighty", players=MIGHTY, rule_set="Friday club")
    assert (status, body["error"]["code"]) == (404, "not_found")


def test_a_saved_set_with_a_bad_option_is_refused(client):
    response = client.put("/api/rule-sets/x", json={"game": "mighty", "rules": {"min_bid": 99}})
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "invalid_rules"
    assert client.get("/api/rule-sets").get_json()["rule_sets"] == []


def test_a_saved_set_of_another_game_is_refused(client):
    client.put("/api/rule-sets/Dixit night", json={"game": "dixit", "rules": {}})
    status, body = create(client, game="mighty", players=MIGHTY, rule_set="Dixit night")
    assert (status, body["error"]["field"]) == (422, "rule_set")


def test_backup_and_export_keep_presets_and_saved_sets(app, client):
    from refapp.services.archive import backups

    client.put("/api/rule-sets/Friday club", json={"game": "mighty", "preset": "online"})
    _status, session = create(client, game="mighty", players=MIGHTY, preset="online")
    exported = client.get(f"/api/sessions/{session['id']}/export").get_json()
    assert exported["preset"] == "online"
    copy = client.post("/api/sessions/import", json=exported).get_json()
    assert (copy["preset"], copy["rules_changed"]) == ("online", [])
    with app.app_context():
        data = backups.backup()
    assert data["rule_sets"] == [
        {"name": "Friday club", "game": "mighty", "preset": "online", "rules": {}}
    ]


def test_restore_brings_saved_sets_back_and_refuses_a_bad_one(app, client):
    from refapp.services.archive import backups

    client.put("/api/rule-sets/Friday club", json={"game": "dixit", "rules": {"target_score": 20}})
    with app.app_context():
        data = backups.backup()
    client.delete("/api/rule-sets/Friday club")
    bad = {**data, "rule_sets": [{"name": "x", "game": "dixit", "rules": {"nope": 1}}]}
    with app.app_context():
        try:
            backups.restore(bad)
        except backups.RestoreRefused as refused:
            assert refused.error.code == "invalid_rules"
        else:
            raise AssertionError("a bad saved set was restored")
        backups.restore(data)
    assert client.get("/api/rule-sets").get_json()["rule_sets"][0]["rules"] == {"target_score": 20}
