"""Every redirect to a target the user gave stays on this site: one check, safe_next."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from refapp.access import safe_next

from .test_access import csrf_token

OFF_SITE = [
    "/\t/evil.com",
    "/\n/x",
    "/\r\n/x",
    "/x\r\nSet-Cookie: a=b",
    "\t//evil.com",
    " /x",
    "/x y",
    "/\u3000/evil.com",
    "/\u2028/evil.com",
    "/\u202e/evil.com",
    "/\x00/x",
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "\\/evil.com",
    "\\\\evil.com",
    "/x\\y",
    "https://evil.com/",
    "https:evil.com",
    "http:/evil.com",
    "javascript:alert(1)",
    "evil.com",
    "",
]
ON_SITE = ["/", "/sessions/3?rounds=all", "/players/Ann%20B", "/player/YS8uLi9Bbm4?x=%2F"]


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_language_picker_never_leaves_the_site(client, target):
    response = client.get(f"/language/ko?next={quote(target, safe='')}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "lang=ko" in response.headers["Set-Cookie"]


@pytest.mark.parametrize("target", ON_SITE)
def test_the_language_picker_goes_back_to_the_page(client, target):
    response = client.get(f"/language/hu?next={quote(target, safe='')}")
    assert response.headers["Location"] == target


@pytest.mark.parametrize("target", OFF_SITE[:12])
def test_sign_in_never_leaves_the_site(app, target):
    app.config.update(PASSWORD="owl", WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = csrf_token(client, "/signin")
    response = client.post("/signin", data={"password": "owl", "csrf_token": token, "next": target})
    assert response.status_code == 302 and response.headers["Location"] == "/"


@pytest.mark.parametrize("target", OFF_SITE)
def test_safe_next_refuses_other_sites(app, target):
    with app.test_request_context("/"):
        assert safe_next(target) == "/"
        assert safe_next(target, "/players") == "/players"


@pytest.mark.parametrize("target", [None, 7, ["/x"], "/" + "x" * 5000])
def test_safe_next_refuses_what_is_not_a_short_path(app, target):
    with app.test_request_context("/"):
        assert safe_next(target) == "/"


@pytest.mark.parametrize("target", ON_SITE)
def test_safe_next_keeps_a_path_of_this_site(app, target):
    with app.test_request_context("/"):
        assert safe_next(target) == target


def test_the_sign_in_link_comes_back_to_a_page_with_a_space(app):
    app.config.update(PASSWORD="owl", WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/players/Ann%20B?x=1").get_data(as_text=True)
    assert 'href="/signin?next=/players/Ann%2520B?x%3D1"' in page
    picker = 'href="/language/ko?next=/players/Ann%2520B?x%3D1"'
    assert picker in page
    back = client.get("/language/ko?next=/players/Ann%2520B?x%3D1")
    assert back.headers["Location"] == "/players/Ann%20B?x=1"
