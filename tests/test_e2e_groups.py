"""The groups' pages on a phone (390x844), in English, Korean and Hungarian: no sideways
scrolling, and every link, button and summary at least 44 px high and wide (as
tests/test_e2e_targets.py measures them): the server's groups page, a group's sessions, its
page with the join code and the organizer's forms, and its sign-in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import browser_support
from .test_e2e_targets import LANGUAGES, count_targets, small_targets, speak

pytestmark = pytest.mark.layout

chromium = browser_support.chromium


@pytest.fixture(scope="module")
def club_live(tmp_path_factory) -> Iterator[tuple[str, object]]:
    """A live server with groups on (a server password) and a public address for the codes."""
    yield from browser_support.serve(
        tmp_path_factory.mktemp("club"),
        WTF_CSRF_ENABLED=False,
        SERVER_PASSWORD="server pw",
        PUBLIC_URL="https://club.example",
    )


def made_group(phone) -> None:
    """Make the group "club" (once) with a session in it, through the API."""
    request = phone.page.request
    listed = request.get(phone.base + "/api/groups", headers={"X-Server-Password": "server pw"})
    assert listed.ok, listed.text()
    if any(group["slug"] == "club" for group in listed.json()["groups"]):
        return
    body = {"name": "Thursday Club", "slug": "club", "organizer_password": "boss"}
    made = request.post(
        phone.base + "/api/groups", data=body, headers={"X-Server-Password": "server pw"}
    )
    assert made.status == 201, made.text()
    session = {"game": "dixit", "players": ["Ann", "Ben", "Cy", "Dee"]}
    started = request.post(
        phone.base + "/g/club/api/sessions", data=session, headers={"X-Organizer-Password": "boss"}
    )
    assert started.status == 201, started.text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_groups_pages_fit_a_phone_with_44_px_targets(chromium, club_live, language):
    phone = browser_support.Phone(chromium, club_live[0])
    try:
        made_group(phone)
        speak(phone, language)
        found = {}
        for path in ["/groups", "/g/club/", "/g/club/group", "/g/club/signin", "/g/club/players"]:
            page = phone.open(path)
            assert page.evaluate("document.documentElement.lang") == language
            assert count_targets(page) >= 5, path
            found[path] = small_targets(page)
        signed = phone.page.request.post(
            phone.base + "/g/club/signin", form={"password": "boss"}, max_redirects=0
        )
        assert signed.status == 302
        for path in ["/g/club/group", "/g/club/players/Ann", "/g/club/sessions/1"]:
            page = phone.open(path)
            found[f"{path} (organizer)"] = small_targets(page)
        assert phone.page.locator("#archive button").count() == 1
        assert not any(found.values()), "\n".join(f"{p}: {s}" for p, s in found.items() if s)
    finally:
        phone.page.close()
