"""Several hosts, one database: two club servers behind nginx's round robin (docs/nginx-hosts.conf).

Two gunicorns (``make serve-club``'s server, two processes each) on two ports share one
PostgreSQL, one secret (REFAPP_SECRET_KEY) and one public address (REFAPP_PUBLIC_URL); nginx
runs docs/nginx-hosts.conf, its listen and server lines replaced, and names the host that
answered in a header of the test's own. A phone's requests alternate between the hosts, and the
races (the very tests of test_races_http, the table password added), sign-in, live updates,
import and throttle come out as on one host. Needs PostgreSQL (TEST_DATABASE_URL: make test-pg)
and nginx (REFAPP_REQUIRE_NGINX=1 makes its absence a failure, as in CI).
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from functools import partial
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from refapp.extensions import db

from . import test_races_http
from .conftest import emptied, make_test_app, turn
from .test_races_http import (  # the same races, run here through the balancer
    test_a_rename_racing_a_multi_round_correction_is_never_a_500,
    test_a_rename_racing_new_sessions_leaves_every_session_exportable,
    test_three_phones_seating_the_same_new_players_all_start,
    together,
)
from .test_serve_club import MAIN, NGINX, REQUIRED, free_port, wait_for

__all__ = [
    "test_a_rename_racing_a_multi_round_correction_is_never_a_500",
    "test_a_rename_racing_new_sessions_leaves_every_session_exportable",
    "test_three_phones_seating_the_same_new_players_all_start",
]

#: hosts are started and timed together with nginx: alone, not beside a second test process
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "docs" / "nginx-hosts.conf"
CLUB_CONF = ROOT / "docs" / "nginx-refapp.conf"
PASSWORD = "owl"
SECRET = "one-secret-every-host-shares"
PUBLIC = "https://club.example"
#: make serve-club's gunicorn, two processes a host (four on the two cores, beside nginx)
GUNICORN = ["--workers=2", "--worker-class=gthread", "--threads=4", "--keep-alive=5"]
#: the header the test's nginx adds: which host answered
UPSTREAM = "X-Test-Upstream"
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


class Hosts(NamedTuple):
    """The two hosts' ports, nginx's port in front, and their one database."""

    ports: tuple[int, int]
    nginx: int
    database: str


def upstream_block(text: str) -> str:
    """Return an nginx file's ``upstream refapp`` block."""
    found = re.search(r"upstream refapp \{.*?\n\}\n", text, re.DOTALL)
    assert found, "no upstream refapp block"
    return found.group(0)


def site(ports: tuple[int, int], nginx_port: int) -> str:
    """Return docs/nginx-hosts.conf listening on nginx_port, passing to the two hosts."""
    text = CONF.read_text()
    assert "listen 80;" in text and "server_name _;" in text
    text = text.replace("listen 80;", f"listen 127.0.0.1:{nginx_port};")
    for documented, port in zip(("127.0.0.1:8001", "127.0.0.1:8002"), ports, strict=True):
        assert f"server {documented};" in text
        text = text.replace(f"server {documented};", f"server 127.0.0.1:{port};")
    return text.replace(
        "server_name _;", f"server_name _;\n    add_header {UPSTREAM} $upstream_addr always;"
    )


def host_env(database: str) -> dict[str, str]:
    """Return the environment every host is started with: the same settings on each."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FLASK_APP": "refapp", "DATABASE_URL": database}
    env.update(
        REFAPP_SECRET_KEY=SECRET,
        REFAPP_PASSWORD=PASSWORD,
        REFAPP_TRUSTED_PROXIES="1",
        REFAPP_PUBLIC_URL=PUBLIC,
    )
    for name in ("REFAPP_SINGLE_HOST", "REFAPP_JOIN_URL"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def hosts(tmp_path_factory, migrated) -> Iterator[Hosts]:
    """Start two hosts on the migrated PostgreSQL database and nginx before them."""
    if not migrated:
        pytest.skip("several hosts share one PostgreSQL: run with TEST_DATABASE_URL (make test-pg)")
    if not os.path.exists(NGINX):
        message = f"the hosts' tests need nginx at {NGINX} (apt-get install nginx-light)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    cleaner = make_test_app(migrated)
    emptied(cleaner)
    with cleaner.app_context():
        db.engine.dispose()
    folder = tmp_path_factory.mktemp("hosts")
    env = host_env(migrated)
    flask = str(Path(sys.executable).with_name("flask"))
    told = subprocess.run([flask, "hosts"], env=env, cwd=ROOT, capture_output=True, text=True)
    assert told.stdout.strip() == "several", told.stderr  # make serve-club: no migration at start
    ports = (free_port(), free_port())
    nginx_port = free_port()
    user = "user root;" if os.geteuid() == 0 else ""
    main = MAIN.format(user=user, prefix=str(folder), site=site(ports, nginx_port))
    (folder / "nginx.conf").write_text(main)
    children = []
    for number, port in enumerate(ports):
        with (folder / f"host{number}.log").open("w") as log:
            gunicorn = [str(Path(sys.executable).with_name("gunicorn")), *GUNICORN]
            gunicorn += [f"--bind=127.0.0.1:{port}", "refapp:served_app()"]
            children.append(subprocess.Popen(gunicorn, env=env, cwd=ROOT, stderr=log))
    nginx = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    nginx += ["-e", str(folder / "error.log"), "-g", "daemon off;"]
    with (folder / "nginx.log").open("w") as log:
        children.append(subprocess.Popen(nginx, stderr=log))
    try:
        for port in (*ports, nginx_port):
            wait_for(port)
        with pytest.MonkeyPatch.context() as patch:
            # the races of test_races_http, sent as a phone with the table password sends them
            patch.setattr(test_races_http, "http", with_password(test_races_http.http))
            yield Hosts(ports, nginx_port, migrated)
    finally:
        for child in children:
            child.terminate()
        for child in children:
            child.wait(timeout=15)
    for number in range(2):
        log = (folder / f"host{number}.log").read_text()
        assert "Traceback" not in log, log[-3000:]


def with_password(send):
    """Return test_races_http's ``http`` sending the table password with every request."""

    def sent(method: str, url: str, body: Any = None, headers: dict | None = None):
        return send(method, url, body, {"X-Table-Password": PASSWORD, **(headers or {})})

    return sent


@pytest.fixture(scope="module")
def server(hosts) -> str:
    """The balancer's address, where test_races_http's races are run."""
    return f"http://127.0.0.1:{hosts.nginx}"


class Answer(NamedTuple):
    """A response through the balancer: status, headers (lower-case), body, the host's port."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def host(self) -> str:
        """The port of the host that answered (nginx's header)."""
        return self.headers.get(UPSTREAM.lower(), "").rpartition(":")[2]

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


def ask(
    port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1", **headers: str
) -> Answer:
    """Send one request to the balancer from a loopback address; return the answer."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        sent = None if body is None else json.dumps(body)
        if sent is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=sent, headers=headers)
        response = connection.getresponse()
        answer = {name.lower(): value for name, value in response.getheaders()}
        return Answer(response.status, answer, response.read())
    finally:
        connection.close()


def write(port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1") -> Answer:
    """Send an API write with the table password."""
    return ask(port, method, path, body, source, **{"X-Table-Password": PASSWORD})


def test_beside_the_one_host_file_only_the_upstream_differs():
    hosts_file, club_file = CONF.read_text(), CLUB_CONF.read_text()
    assert hosts_file.count("\n    server ") == 2
    own = hosts_file[hosts_file.index("upstream refapp {") :].replace(
        upstream_block(hosts_file), ""
    )
    club = club_file[club_file.index("upstream refapp {") :].replace(upstream_block(club_file), "")
    assert own == club  # every limit and location of the club server, line for line


def test_a_phones_requests_alternate_between_the_hosts(hosts):
    answered = [ask(hosts.nginx, "GET", "/api/sessions") for _ in range(6)]
    assert all(answer.status == 200 for answer in answered)
    ports = [answer.host for answer in answered]
    assert set(ports) == {str(port) for port in hosts.ports}
    assert all(first != second for first, second in itertools.pairwise(ports))


class Browser:
    """A phone's browser: its cookies, every request through the balancer, no redirect followed."""

    class Stay(urllib.request.HTTPRedirectHandler):
        """Answer a redirect as it is."""

        def redirect_request(self, *args: Any) -> None:
            return None

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = CookieJar()
        cookies = urllib.request.HTTPCookieProcessor(self.jar)
        self.opener = urllib.request.build_opener(cookies, self.Stay())

    def open(self, path: str, form: dict[str, str] | None = None) -> Answer:
        """GET a page, or POST a form; return the answer."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(self.base + path, data=data, timeout=30) as response:
                headers = {name.lower(): value for name, value in response.getheaders()}
                return Answer(response.status, headers, response.read())
        except urllib.error.HTTPError as error:
            headers = {name.lower(): value for name, value in error.headers.items()}
            return Answer(error.code, headers, error.read())

    def token(self, path: str) -> tuple[str, str]:
        """Return a page's CSRF token and the host that made it."""
        page = self.open(path)
        found = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
        assert found, page.body[:500]
        return found.group(1).decode(), page.host


def test_a_sign_in_made_on_one_host_holds_on_the_other_and_so_does_signing_out(hosts):
    phone = Browser(hosts.nginx)
    token, made_by = phone.token("/signin")
    signed = phone.open("/signin", {"password": PASSWORD, "csrf_token": token})
    assert signed.status == 302 and signed.host != made_by  # the other host took its token
    pages = [phone.open("/sessions/new?game=dixit") for _ in range(4)]
    assert [page.status for page in pages] == [200] * 4
    assert {page.host for page in pages} == {str(port) for port in hosts.ports}
    token, _ = phone.token("/sessions/new?game=dixit")
    assert phone.open("/signout", {"csrf_token": token}).status == 302
    pages = [phone.open("/sessions/new?game=dixit") for _ in range(2)]
    assert [page.status for page in pages] == [302, 302]  # signed out on both hosts
    assert pages[0].host != pages[1].host


def test_the_join_address_is_the_public_one_on_every_host(hosts):
    made = write(hosts.nginx, "POST", "/api/sessions", {"game": "dixit", "players": PLAYERS})
    assert made.status == 201, made.body
    pages = [ask(hosts.nginx, "GET", f"/sessions/{made.json()['id']}") for _ in range(2)]
    assert {page.host for page in pages} == {str(port) for port in hosts.ports}
    for page in pages:
        assert f"{PUBLIC}/sessions/{made.json()['id']}</p>".encode() in page.body


def test_a_round_recorded_through_one_host_reaches_a_phone_polling_the_other(hosts):
    made = write(hosts.nginx, "POST", "/api/sessions", {"game": "dixit", "players": PLAYERS})
    sid = made.json()["id"]
    page = ask(hosts.nginx, "GET", f"/sessions/{sid}")
    poll = re.search(rb'data-poll="([^"]+)"', page.body)
    version = re.search(rb'data-version="(\d+)"', page.body)
    assert poll and version and b"data-stream" not in page.body  # gunicorn: the page polls
    path, tag = poll.group(1).decode().replace("&amp;", "&"), f'"{version.group(1).decode()}"'
    polls = [ask(hosts.nginx, "GET", path, **{"If-None-Match": tag}) for _ in range(2)]
    assert [answer.status for answer in polls] == [304, 304]
    events = [ask(hosts.nginx, "GET", f"/api/sessions/{sid}/events") for _ in range(2)]
    assert [answer.status for answer in events] == [204, 204]  # no stream under gunicorn
    recorded = write(hosts.nginx, "POST", f"/api/sessions/{sid}/rounds", turn("Ann"))
    assert recorded.status == 201, recorded.body
    for _ in range(2):  # whichever host the next poll reaches, it shows the new version
        answer = ask(hosts.nginx, "GET", path, **{"If-None-Match": tag})
        assert answer.status == 200 and answer.json()["version"] == int(version.group(1)) + 1
    assert ask(hosts.nginx, "GET", path, **{"If-None-Match": answer.headers["etag"]}).status == 304


def test_imports_through_both_hosts_at_once_each_store_the_whole_session(hosts):
    made = write(hosts.nginx, "POST", "/api/sessions", {"game": "dixit", "players": PLAYERS})
    sid = made.json()["id"]
    for teller in PLAYERS * 2:
        assert write(hosts.nginx, "POST", f"/api/sessions/{sid}/rounds", turn(teller)).status == 201
    exported = ask(hosts.nginx, "GET", f"/api/sessions/{sid}/export").json()
    # two phones sending two each (nginx lets an address send two at once)
    answers = together(
        [
            partial(write, hosts.nginx, "POST", "/api/sessions/import", exported, source)
            for source in ("127.0.0.21", "127.0.0.21", "127.0.0.22", "127.0.0.22")
        ]
    )
    assert [answer.status for answer in answers] == [201] * 4, [a.body for a in answers]
    assert {answer.host for answer in answers} == {str(port) for port in hosts.ports}
    original = ask(hosts.nginx, "GET", f"/api/sessions/{sid}?rounds=all").json()
    copies = {answer.json()["id"] for answer in answers}
    assert len(copies) == 4 and sid not in copies
    for copy in copies:
        stored = ask(hosts.nginx, "GET", f"/api/sessions/{copy}?rounds=all").json()
        for key in ("players", "totals", "rounds_total", "rounds"):
            assert stored[key] == original[key], key


def test_a_guesser_alternating_between_the_hosts_is_held_back_as_by_one(hosts):
    guesser = "127.0.0.9"  # an address of its own (nginx forwards it, the hosts trust nginx)

    def guess(password: str) -> Answer:
        return ask(
            hosts.nginx, "POST", "/api/sessions", {"game": "dixit", "players": PLAYERS},
            source=guesser, **{"X-Table-Password": password},
        )  # fmt: skip

    wrong = [guess("cat") for _ in range(3)]
    assert [answer.status for answer in wrong] == [401, 401, 401]
    held = [guess(PASSWORD) for _ in range(2)]  # the third mistype made it wait, on both hosts
    assert [answer.status for answer in held] == [429, 429]
    assert {answer.host for answer in held} == {str(port) for port in hosts.ports}
    assert all(answer.headers["retry-after"] == "1" for answer in held)
    time.sleep(1.1)
    assert guess(PASSWORD).status == 201
    phone = ask(hosts.nginx, "POST", "/api/sessions", {"game": "dixit", "players": PLAYERS},
                source="127.0.0.10", **{"X-Table-Password": PASSWORD})  # fmt: skip
    assert phone.status == 201  # another address was never held back
