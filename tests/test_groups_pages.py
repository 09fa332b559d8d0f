"""Groups over the pages: the server's groups page, the join link that sends a device to its
group and remembers it, a group's links, files and redirects under its prefix, sign-ins per
group, and the organizer's page actions refused to anyone else."""

from __future__ import annotations

import re

from sqlalchemy import select

from refapp.extensions import db
from refapp.group_models import Group as GroupRow

from .groups_support import two_groups


def test_the_groups_page_takes_the_server_password(app, client):
    assert client.get("/groups").status_code == 200
    off = client.post("/groups", data={"server_password": "x"})
    assert off.status_code == 403
    app.config["SERVER_PASSWORD"] = "server pw"
    wrong = client.post("/groups", data={"server_password": "x", "name": "Club"})
    assert wrong.status_code == 401
    made = client.post(
        "/groups",
        data={"server_password": "server pw", "name": "Tuesday Club", "organizer_password": "o"},
    )
    assert made.status_code == 200
    page = made.get_data(as_text=True)
    assert "Tuesday Club" in page and 'href="/g/tuesday-club/"' in page
    taken = client.post(
        "/groups",
        data={"server_password": "server pw", "name": "Tuesday Club", "organizer_password": "o"},
    )
    assert taken.status_code == 422


def test_a_join_link_sends_the_device_to_its_group_and_remembers_it(app, client):
    alpha, _beta = two_groups(app, client)
    with app.app_context():
        code = db.session.scalar(select(GroupRow.join_code).where(GroupRow.slug == "alpha"))
    joined = client.get(f"/join/{code}")
    assert joined.status_code == 302 and joined.headers["Location"] == "/g/alpha/"
    home = client.get("/")
    assert home.status_code == 302 and home.headers["Location"] == "/g/alpha/"
    assert client.get("/g/alpha/").status_code == 200
    assert client.get("/join/nosuchcode").status_code == 404
    back = client.get("/join/default")  # the default group's own link: / is the server's again
    assert back.status_code == 302 and client.get("/").status_code == 200
    assert alpha.slug == "alpha"


def test_a_groups_pages_link_files_and_redirects_under_its_prefix(app, client):
    alpha, _beta = two_groups(app, client)
    page = client.get(f"{alpha.prefix}/").get_data(as_text=True)
    assert 'href="/g/alpha/players"' in page and 'href="/g/alpha/stats"' in page
    sheet = re.search(r'href="(/g/alpha/static/style\.css[^"]*)"', page)
    assert sheet is not None
    served = client.get(sheet.group(1))
    assert served.status_code == 200 and b"{" in served.data
    served.close()
    sid = alpha.sessions["dixit"]
    session_page = client.get(f"{alpha.prefix}/sessions/{sid}").get_data(as_text=True)
    assert f"/g/alpha/api/sessions/{sid}" in session_page  # the live poll stays in the group
    signed = client.post(
        f"{alpha.prefix}/signin",
        data={"password": alpha.password, "next": f"{alpha.prefix}/players"},
    )
    assert signed.status_code == 302 and signed.headers["Location"] == "/g/alpha/players"
    events = client.get(f"{alpha.prefix}/api/sessions/{sid}/events")
    assert events.status_code == 204  # answered (streams are held by refapp's own server)


def test_a_sign_in_to_one_group_does_not_write_in_another(app, client):
    alpha, beta = two_groups(app, client)
    assert (
        client.post(f"{alpha.prefix}/signin", data={"password": alpha.password}).status_code == 302
    )
    mine = client.post(f"{alpha.prefix}/sessions/{alpha.sessions['dixit']}/finish")
    assert mine.status_code == 302 and "/signin" not in mine.headers["Location"]
    theirs = client.post(f"{beta.prefix}/sessions/{beta.sessions['dixit']}/finish")
    assert theirs.status_code == 302 and theirs.headers["Location"].startswith("/g/beta/signin")
    wrong = client.post(f"{beta.prefix}/signin", data={"password": alpha.password})
    assert wrong.status_code == 401


def test_the_organizers_page_actions_are_refused_to_a_table_sign_in(app, client):
    alpha, _beta = two_groups(app, client)
    sid = alpha.sessions["dixit"]
    actions = (
        (f"{alpha.prefix}/players/Ann/rename", {"name": "Anna"}),
        (f"{alpha.prefix}/player/QW5u/rename", {"name": "Anna"}),
        (f"{alpha.prefix}/group/password", {"password": "new"}),
        (f"{alpha.prefix}/sessions/{sid}/archive", {"archived": "1"}),
    )
    assert (
        client.post(f"{alpha.prefix}/signin", data={"password": alpha.password}).status_code == 302
    )
    for url, form in actions:
        assert client.post(url, data=form).status_code == 403, url
    player = client.get(f"{alpha.prefix}/players/Ann").get_data(as_text=True)
    assert "organizer renames players." in player and "Sign in as the organizer" in player
    assert 'id="archive"' not in client.get(f"{alpha.prefix}/sessions/{sid}").get_data(as_text=True)
    app.config["PUBLIC_URL"] = "https://club.example"  # where phones open the server
    group = client.get(f"{alpha.prefix}/group").get_data(as_text=True)
    assert "Sign in as the organizer" in group and "<svg" in group
    assert re.search(r"https://club\.example/g/alpha/join/[a-z0-9]{10}<", group)
    assert (
        client.post(f"{alpha.prefix}/signin", data={"password": alpha.organizer}).status_code == 302
    )
    assert 'id="archive"' in client.get(f"{alpha.prefix}/sessions/{sid}").get_data(as_text=True)
    for url, form in (actions[3], actions[0], actions[2]):  # the password last: it signs out
        answered = client.post(url, data=form)
        assert answered.status_code == 302 and "/signin" not in answered.headers["Location"], url
    listed = client.get(f"{alpha.prefix}/api/sessions").get_json()["sessions"]
    assert sid not in {item["id"] for item in listed}
    assert client.get(f"{alpha.prefix}/api/players/Anna").status_code == 200
    refused = client.post(f"{alpha.prefix}/sessions/{sid}/archive", data={"archived": "0"})
    assert refused.status_code == 302 and "/signin" in refused.headers["Location"]
