"""Groups over the API: made and listed with the server password, each with its own players,
sessions, saved rules, password and organizer; the organizer's actions refused to anyone else."""

from __future__ import annotations

from sqlalchemy import select

from refapp import access, club
from refapp.extensions import db
from refapp.models import GameSession, Player, SignIn

from .conftest import turn
from .groups_support import SERVER, create, two_groups


def test_groups_are_off_without_a_server_password(client):
    made = client.post("/api/groups", json={"name": "Club", "organizer_password": "o"})
    assert made.status_code == 403
    assert made.get_json()["error"]["code"] == "groups_off"
    listed = client.get("/api/groups", headers=SERVER)
    assert listed.status_code == 403 and listed.get_json()["error"]["code"] == "groups_off"


def test_the_server_password_makes_and_lists_groups(app, client):
    app.config["SERVER_PASSWORD"] = "server pw"
    body = {"name": "Friday Club", "organizer_password": "boss"}
    for headers in ({}, {"X-Server-Password": "wrong"}):
        refused = client.post("/api/groups", json=body, headers=headers)
        assert refused.status_code == 401
        assert refused.get_json()["error"]["code"] == "password_required"
        assert client.get("/api/groups", headers=headers).status_code == 401
    made = client.post("/api/groups", json=body, headers=SERVER)
    assert made.status_code == 201
    group = made.get_json()["group"]
    assert group["slug"] == "friday-club" and group["name"] == "Friday Club"
    assert "/join/" in group["join_url"] and group["join_url"].startswith("http")
    again = client.post("/api/groups", json=body, headers=SERVER)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "group_exists"
    sid = create_in(client, "/g/friday-club", {"X-Organizer-Password": "boss"})
    assert sid
    listed = client.get("/api/groups", headers=SERVER).get_json()["groups"]
    assert listed == [
        {"slug": "default", "name": "Default", "sessions": 0, "players": 0},
        {"slug": "friday-club", "name": "Friday Club", "sessions": 1, "players": 4},
    ]


def create_in(client, prefix: str, headers: dict[str, str]) -> int:
    """Create a Dixit session under a prefix and return its id."""
    players = ["Ann", "Ben", "Cy", "Dee"]
    made = client.post(
        f"{prefix}/api/sessions", json={"game": "dixit", "players": players}, headers=headers
    )
    assert made.status_code == 201, made.get_json()
    session_id: int = made.get_json()["id"]
    return session_id


def test_a_bad_slug_or_name_is_refused_naming_the_field(app, client):
    app.config["SERVER_PASSWORD"] = "server pw"
    for body, field, shown in (
        ({"name": "Club", "slug": "Big Club", "organizer_password": "o"}, "slug", "Big Club"),
        ({"name": "Club", "slug": "x" * 41, "organizer_password": "o"}, "slug", "x" * 41),
        ({"name": "  ", "organizer_password": "o"}, "name", "  "),
        # a name drawn as nothing, or with a filler after it; lone accents
        ({"name": "\u3164", "organizer_password": "o"}, "name", "HANGUL FILLER"),
        ({"name": "Club\u115f", "organizer_password": "o"}, "name", "HANGUL CHOSEONG FILLER"),
        ({"name": "\u0301\u0301", "organizer_password": "o"}, "name", "shows; "),
        ({"name": "Club", "organizer_password": ""}, "organizer_password", ""),
    ):
        refused = client.post("/api/groups", json=body, headers=SERVER)
        assert refused.status_code == 422, body
        error = refused.get_json()["error"]
        assert error["code"] == "invalid_value" and error["field"] == field
        assert repr(shown)[1:-1] in error["message"] or shown in error["message"]
    missing = client.post("/api/groups", json={"name": "Club"}, headers=SERVER)
    assert missing.get_json()["error"]["code"] == "missing_field"


def test_wrong_server_passwords_are_held_back(app, client):
    app.config["SERVER_PASSWORD"] = "server pw"
    codes = [
        client.get("/api/groups", headers={"X-Server-Password": f"guess {n}"}).status_code
        for n in range(30)
    ]
    assert codes[0] == 401 and 429 in codes


def test_an_unknown_group_is_not_found(client):
    for path in ("/g/nobody/api/sessions", "/g/nobody/", "/g/nobody/api/players"):
        response = client.get(path)
        assert response.status_code == 404, path
    assert client.get("/g/nobody/api/sessions").get_json()["error"]["code"] == "not_found"


def test_the_same_name_in_two_groups_is_two_players(app, client):
    alpha, beta = two_groups(app, client)
    create(client, alpha, "dixit", ["Zoe", "Ben", "Cy", "Dee"])
    create(client, beta, "dixit", ["Zoe", "Fay", "Gus", "Hal"])
    with app.app_context():
        rows = db.session.execute(select(Player.id, Player.group_id).where(Player.name == "Zoe"))
        groups = sorted(group for _id, group in rows)
    assert len(groups) == 2 and groups[0] != groups[1]
    ann_alpha = client.get(f"{alpha.prefix}/api/players/Zoe").get_json()
    ann_beta = client.get(f"{beta.prefix}/api/players/Zoe").get_json()
    assert len(ann_alpha["sessions"]) == 1 and len(ann_beta["sessions"]) == 1
    assert ann_alpha["sessions"][0]["id"] != ann_beta["sessions"][0]["id"]


def test_a_groups_writes_take_its_own_password(app, client):
    alpha, beta = two_groups(app, client)
    body = {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    url = f"{alpha.prefix}/api/sessions"
    for headers in ({}, {"X-Table-Password": beta.password}, {"X-Table-Password": "owl"}):
        refused = client.post(url, json=body, headers=headers)
        assert refused.status_code == 401
        assert refused.get_json()["error"]["code"] == "sign_in_required"
    assert client.post(url, json=body, headers=alpha.headers(organizer=False)).status_code == 201
    # the default group has no password here: its writes stay open, as before groups
    assert client.post("/api/sessions", json=body).status_code == 201


def test_statistics_are_the_groups_own(app, client):
    alpha, beta = two_groups(app, client)
    sid = alpha.sessions["dixit"]
    finished = client.post(f"{alpha.prefix}/api/sessions/{sid}/finish", headers=alpha.headers())
    assert finished.status_code == 200
    mine = client.get(f"{alpha.prefix}/api/stats").get_json()
    theirs = client.get(f"{beta.prefix}/api/stats").get_json()
    assert "Ann" in str(mine) and "Ann" not in str(theirs)
    assert "Fay" not in str(mine)


def test_an_import_lands_in_the_group_that_asked(app, client):
    alpha, beta = two_groups(app, client)
    sid = alpha.sessions["dixit"]
    exported = client.get(f"{alpha.prefix}/api/sessions/{sid}/export").get_json()
    imported = client.post(
        f"{beta.prefix}/api/sessions/import", json=exported, headers=beta.headers()
    )
    assert imported.status_code == 201, imported.get_json()
    new = imported.get_json()["id"]
    assert client.get(f"{beta.prefix}/api/sessions/{new}").status_code == 200
    assert client.get(f"{alpha.prefix}/api/sessions/{new}").status_code == 404
    with app.app_context():
        stored = db.session.get(GameSession, new)
        assert stored is not None
        assert {seat.player.group_id for seat in stored.seats} == {stored.group_id}
        assert stored.group_id != db.session.get(GameSession, sid).group_id


def test_only_the_organizer_renames_and_merges_players(app, client):
    alpha, _beta = two_groups(app, client)
    url = f"{alpha.prefix}/api/players/Ann/rename"
    for headers in ({}, alpha.headers(organizer=False)):
        refused = client.post(url, json={"name": "Anna"}, headers=headers)
        assert refused.status_code in (401, 403)
    refused = client.post(url, json={"name": "Anna"}, headers=alpha.headers(organizer=False))
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "organizer_required"
    wrong = client.post(url, json={"name": "Anna"}, headers={"X-Organizer-Password": "no"})
    assert wrong.status_code == 403
    renamed = client.post(url, json={"name": "Anna"}, headers=alpha.headers())
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Anna"
    by_query = client.post(
        f"{alpha.prefix}/api/player/rename?name=Anna",
        json={"name": "Ann"},
        headers=alpha.headers(organizer=False),
    )
    assert by_query.status_code == 403


def test_the_organizer_archives_a_session_out_of_the_lists(app, client):
    alpha, _beta = two_groups(app, client)
    sid = alpha.sessions["dixit"]
    url = f"{alpha.prefix}/api/sessions/{sid}/archived"
    refused = client.put(url, json={"archived": True}, headers=alpha.headers(organizer=False))
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "organizer_required"
    archived = client.put(url, json={"archived": True}, headers=alpha.headers())
    assert archived.status_code == 200 and archived.get_json()["archived"] is True
    listed = client.get(f"{alpha.prefix}/api/sessions").get_json()["sessions"]
    assert sid not in {item["id"] for item in listed}
    assert client.get(f"{alpha.prefix}/api/sessions/{sid}").status_code == 200
    back = client.put(url, json={"archived": False}, headers=alpha.headers())
    assert back.status_code == 200
    listed = client.get(f"{alpha.prefix}/api/sessions").get_json()["sessions"]
    assert sid in {item["id"] for item in listed}
    bad = client.put(url, json={"archived": "yes"}, headers=alpha.headers())
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "archived"


def test_a_new_group_password_signs_its_devices_out(app, client):
    alpha, beta = two_groups(app, client)
    signed = client.post(f"{beta.prefix}/signin", data={"password": beta.password})
    assert signed.status_code == 302
    other = app.test_client()
    assert (
        other.post(f"{alpha.prefix}/signin", data={"password": alpha.password}).status_code == 302
    )
    url = f"{alpha.prefix}/api/group/password"
    refused = client.put(url, json={"password": "new"}, headers=alpha.headers(organizer=False))
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "organizer_required"
    changed = client.put(url, json={"password": "new"}, headers=alpha.headers())
    assert changed.status_code == 200
    with app.app_context():
        kept = db.session.scalars(select(SignIn.group_id)).all()
    assert len(kept) == 1  # beta's sign-in stays; alpha's ended
    body = {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    old = client.post(f"{alpha.prefix}/api/sessions", json=body, headers=alpha.headers(False))
    assert old.status_code == 401
    new = client.post(
        f"{alpha.prefix}/api/sessions", json=body, headers={"X-Table-Password": "new"}
    )
    assert new.status_code == 201
    page = other.post(f"{alpha.prefix}/sessions/{alpha.sessions['dixit']}/finish")
    assert page.status_code == 302 and "/signin" in page.headers["Location"]
    default = client.put("/api/group/password", json={"password": "x"})
    assert default.status_code == 422  # the default group's password is the configuration


def test_the_default_group_has_an_organizer_when_one_is_configured(app, client):
    sid = create_in(client, "", {})
    app.config["ORGANIZER_PASSWORD"] = "boss"
    refused = client.post("/api/players/Ann/rename", json={"name": "Anna"})
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "organizer_required"
    assert client.post(f"/api/sessions/{sid}/rounds", json=turn("Ann")).status_code == 201
    renamed = client.post(
        "/api/players/Ann/rename", json={"name": "Anna"}, headers={"X-Organizer-Password": "boss"}
    )
    assert renamed.status_code == 200


def test_a_group_tells_what_it_is_and_its_join_link_to_its_organizer(app, client):
    alpha, _beta = two_groups(app, client)
    seen = client.get(f"{alpha.prefix}/api/group").get_json()
    assert seen == {
        "slug": "alpha",
        "name": "Alpha",
        "password": True,
        "organizer_password": True,
        "join_url": None,
    }
    organizer = client.get(f"{alpha.prefix}/api/group", headers=alpha.headers()).get_json()
    assert "/g/alpha/join/" in organizer["join_url"]
    default = client.get("/api/group").get_json()
    assert default["slug"] == "default" and default["password"] is False


def pass_in_force(app, client, slug: str) -> bool:
    """Return whether the pass the client holds is in force in the group ``slug``."""
    held = client.get_cookie("refapp_pass", path=f"/g/{slug}")  # each group's pass: its path
    assert held is not None
    cookie = {"Cookie": f"refapp_pass={held.value}"}
    group = {club.ENVIRON_KEY: slug}  # as the prefix's layer leaves it
    with app.test_request_context("/api/sessions", headers=cookie, environ_overrides=group):
        app.preprocess_request()  # the group found, as for a request
        return access.device_pass() is not None


def test_a_new_group_password_ends_the_passes_kept_on_the_old_one(app, client):
    alpha, _beta = two_groups(app, client)
    body = {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    made = client.post(f"{alpha.prefix}/api/sessions", json=body, headers=alpha.headers(False))
    assert made.status_code == 201
    assert pass_in_force(app, client, alpha.slug)
    changed = client.put(
        f"{alpha.prefix}/api/group/password", json={"password": "new"}, headers=alpha.headers()
    )
    assert changed.status_code == 200
    assert not pass_in_force(app, client, alpha.slug)  # kept on the old password
