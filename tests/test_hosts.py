"""A request's Host must be a host (refapp/serving/hosts.py): else 400 before any page is built.

A DNS name, an IPv4 address or a bracketed IPv6 address, with an optional port from 1 to
65535; anything else would give a join link to nowhere (``http:///sessions/N``).
"""

from __future__ import annotations

import pytest
from flask import template_rendered

from refapp.serving.hosts import HostCheck, host_parts

#: Hosts that are not a host: spaces, markup, a port past 65535, a user part, non-ASCII
#: letters (a name is sent in its ASCII form), a numeric name that is no IPv4 address, a zone
BAD = [
    "a b",
    'x"><x-inj1>',
    "evil.example:99999",
    "user:pw@evil.example",
    "пример.рф",
    "",
    "host:",
    "host:0",
    "host:+80",
    "127.1",
    "2130706433",
    "256.1.1.1",
    "a..b",
    "-a.example",
    "a_b.example",
    "::1",
    "[::1",
    "[::1]x",
    "[fe80::1%25eth0]:80",
    "[example.com]",
    "a" * 64 + ".example",
    ".".join(["a" * 63] * 4),
]
GOOD = {
    "192.168.1.10:6123": ("192.168.1.10", 6123),
    "tablepc.lan": ("tablepc.lan", None),
    "Refapp.Club.Example.:443": ("Refapp.Club.Example.", 443),
    "localhost:1": ("localhost", 1),
    "[fd00::5]:65535": ("fd00::5", 65535),
    "[::ffff:127.0.0.1]:6120": ("::ffff:127.0.0.1", 6120),
    "xn--e1afmkfd.xn--p1ai": ("xn--e1afmkfd.xn--p1ai", None),
}


def as_sent(host: str) -> str:
    """Return a Host as a WSGI server puts it in the environ (its bytes read as Latin-1)."""
    return host.encode().decode("latin-1")


@pytest.mark.parametrize("host", BAD)
def test_a_host_that_is_not_one_is_refused(host):
    assert host_parts(as_sent(host)) is None


@pytest.mark.parametrize(("host", "parts"), GOOD.items())
def test_a_host_gives_its_name_and_port(host, parts):
    assert host_parts(host) == parts


@pytest.fixture
def rendered(app):
    """Record the templates rendered while a test runs."""
    names: list[str] = []

    def note(_sender, template, **_extra) -> None:
        names.append(template.name)

    template_rendered.connect(note, app)
    yield names
    template_rendered.disconnect(note, app)


@pytest.mark.parametrize("host", BAD)
def test_a_page_for_a_host_that_is_not_one_is_400_before_it_is_built(client, api, rendered, host):
    sid = api.create()["id"]
    response = client.get(f"/sessions/{sid}", environ_overrides={"HTTP_HOST": as_sent(host)})
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    assert "/sessions/" not in response.get_data(as_text=True)
    assert rendered == []


@pytest.mark.parametrize("host", ["a b", "evil.example:99999", "user:pw@evil.example"])
def test_the_api_answers_a_host_that_is_not_one_in_its_error_shape(client, api, host):
    sid = api.create()["id"]
    for method, path in (("GET", f"/api/sessions/{sid}/export"), ("POST", "/api/sessions")):
        response = client.open(path, method=method, environ_overrides={"HTTP_HOST": host})
        assert response.status_code == 400
        assert response.get_json()["error"]["code"] == "bad_request"


def test_a_good_host_is_served_and_this_computer_as_ipv6_draws_no_code(client, api, rendered):
    sid = api.create()["id"]
    page = client.get(f"/sessions/{sid}", environ_overrides={"HTTP_HOST": "192.168.1.10:6123"})
    assert page.status_code == 200 and rendered
    text = page.get_data(as_text=True)
    assert f"http://192.168.1.10:6123/sessions/{sid}</p>" in text and 'class="qr"' in text
    local = client.get(
        f"/sessions/{sid}", environ_overrides={"HTTP_HOST": "[::ffff:127.0.0.1]:6120"}
    )
    text = local.get_data(as_text=True)
    assert local.status_code == 200 and 'class="qr"' not in text
    assert f"http://[::ffff:127.0.0.1]:6120/sessions/{sid}</p>" in text


def test_a_request_without_a_host_goes_on():
    def app(environ, start_response):
        start_response("200 OK", [])
        return [b"on"]

    started: list[str] = []
    answer = HostCheck(app)({"PATH_INFO": "/"}, lambda status, headers: started.append(status))
    assert list(answer) == [b"on"] and started == ["200 OK"]
