"""A group's backup: its organizer downloads it, ``flask backup --group`` writes it and
``flask restore --group`` brings it back into a group; no other group's rows are in it."""

from __future__ import annotations

import json

from .groups_support import two_groups


def test_the_organizer_downloads_the_groups_backup_and_nobody_else(app, client):
    alpha, beta = two_groups(app, client)
    refused = client.get(f"{alpha.prefix}/api/backup", headers=alpha.headers(organizer=False))
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "organizer_required"
    wrong = client.get(f"{alpha.prefix}/api/backup", headers={"X-Organizer-Password": "nope"})
    assert wrong.status_code == 403
    answer = client.get(f"{alpha.prefix}/api/backup", headers=alpha.headers())
    assert answer.status_code == 200
    assert "refapp-alpha-backup.json" in answer.headers["Content-Disposition"]
    backup = json.loads(answer.get_data())
    assert {session["id"] for session in backup["sessions"]} == set(alpha.sessions.values())
    assert {player["name"] for player in backup["players"]} == set(alpha.players)
    assert [saved["name"] for saved in backup["rule_sets"]] == [alpha.rule_set]
    assert not set(beta.players) & {player["name"] for player in backup["players"]}


def test_the_groups_page_offers_the_backup_to_its_organizer_alone(app, client):
    alpha, _beta = two_groups(app, client)
    assert client.get(f"{alpha.prefix}/backup").status_code == 403
    page = client.get(f"{alpha.prefix}/group").get_data(as_text=True)
    assert f"{alpha.prefix}/backup" not in page
    signed = client.post(f"{alpha.prefix}/signin", data={"password": alpha.organizer})
    assert signed.status_code == 302
    page = client.get(f"{alpha.prefix}/group").get_data(as_text=True)
    assert f"{alpha.prefix}/backup" in page
    downloaded = client.get(f"{alpha.prefix}/backup")
    assert downloaded.status_code == 200
    names = {player["name"] for player in json.loads(downloaded.get_data())["players"]}
    assert names == set(alpha.players)


def test_a_command_backs_up_and_restores_one_group(app, client, tmp_path):
    alpha, beta = two_groups(app, client)
    runner = app.test_cli_runner()
    path = tmp_path / "beta.json"
    written = runner.invoke(args=["backup", str(path), "--group", "beta"])
    assert written.exit_code == 0, written.output
    backup = json.loads(path.read_text(encoding="utf-8"))
    assert {player["name"] for player in backup["players"]} == set(beta.players)
    assert len(backup["sessions"]) == len(beta.sessions)
    made = client.post(
        "/api/groups",
        json={"name": "Gamma", "slug": "gamma", "organizer_password": "gamma organizer"},
        headers={"X-Server-Password": "server pw"},
    )
    assert made.status_code == 201
    restored = runner.invoke(args=["restore", str(path), "--group", "gamma"])
    assert restored.exit_code == 0, restored.output
    players = client.get("/g/gamma/api/players").get_json()["players"]
    assert {player["name"] for player in players} == set(beta.players)
    sessions = client.get("/g/gamma/api/sessions").get_json()["sessions"]
    assert len(sessions) == len(beta.sessions)
    assert {player["name"] for player in client.get("/api/players").get_json()["players"]} == set()
    again = runner.invoke(args=["restore", str(path), "--group", "gamma"])
    assert again.exit_code != 0 and "Nothing was restored" in again.output
    unknown = runner.invoke(args=["backup", str(path), "--group", "nobody"])
    assert unknown.exit_code != 0 and "no group" in unknown.output
    assert alpha.sessions  # alpha's sessions are untouched by any of it
    assert len(client.get(f"{alpha.prefix}/api/sessions").get_json()["sessions"]) == 3
