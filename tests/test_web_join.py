"""Join in one scan: which address the session page's QR code carries, and how the page shows it.

A request to this computer (127.0.0.1, localhost) gets the LAN address when the server listens
beyond it; a request by any other host (a LAN address, a proxy's name) gets its own host; a
configured REFAPP_JOIN_URL wins; a server answering only this computer says so instead of a code.
"""

from __future__ import annotations

import ipaddress
import re
import socket

import pytest
import zxingcpp
from PIL import Image

from refapp.serving import serve
from refapp.web import join
from refapp.web.join import Address, choose_address, split_host

LAN = "192.168.1.23"


@pytest.mark.parametrize(
    ("scheme", "host", "served", "configured", "lan", "expected"),
    [
        # a configured address wins over everything
        ("http", "127.0.0.1:8000", "0.0.0.0", "https://club.example/refapp", LAN,
         Address("https://club.example/refapp", True)),
        # a phone that came by the LAN address, a proxy's public name: the request's own host
        ("http", "192.168.1.5:8000", None, None, None, Address("http://192.168.1.5:8000", True)),
        ("https", "refapp.club.example", "127.0.0.1", None, LAN,
         Address("https://refapp.club.example", True)),
        ("http", "tablepc.lan:8000", "0.0.0.0", None, LAN,
         Address("http://tablepc.lan:8000", True)),
        # this computer, the server on every interface: the LAN address, with the request's port
        ("http", "127.0.0.1:8000", "0.0.0.0", None, LAN, Address(f"http://{LAN}:8000", True)),
        ("http", "localhost:8000", "::", None, LAN, Address(f"http://{LAN}:8000", True)),
        ("http", "[::1]:8000", "", None, LAN, Address(f"http://{LAN}:8000", True)),
        ("http", "0.0.0.0:8000", "0.0.0.0", None, LAN, Address(f"http://{LAN}:8000", True)),
        ("http", "localhost", "0.0.0.0", None, LAN, Address(f"http://{LAN}", True)),
        # the server on one LAN address: that address
        ("http", "127.0.0.1:8000", "192.168.1.5", None, LAN,
         Address("http://192.168.1.5:8000", True)),
        ("http", "[::1]:8000", "fd00::5", None, None, Address("http://[fd00::5]:8000", True)),
        # only this computer can open it: its own address, marked unreachable
        ("http", "127.0.0.1:8000", "127.0.0.1", None, LAN, Address("http://127.0.0.1:8000", False)),
        ("http", "localhost:8000", "localhost", None, LAN, Address("http://localhost:8000", False)),
        ("http", "127.0.0.1:8000", None, None, LAN, Address("http://127.0.0.1:8000", False)),
        ("http", "127.0.0.1:8000", "0.0.0.0", None, None, Address("http://127.0.0.1:8000", False)),
    ],
)  # fmt: skip
def test_the_address_other_phones_open(scheme, host, served, configured, lan, expected):
    assert choose_address(scheme, host, served, configured, lambda: lan) == expected


def test_the_lan_address_is_looked_for_only_for_a_request_to_this_computer():
    asked = []

    def lan() -> str:
        asked.append(True)
        return LAN

    choose_address("http", "tablepc.lan:8000", "0.0.0.0", None, lan)
    choose_address("http", "127.0.0.1:8000", "127.0.0.1", None, lan)
    assert asked == []
    choose_address("http", "127.0.0.1:8000", "0.0.0.0", None, lan)
    assert asked == [True]


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1:8000", ("127.0.0.1", ":8000")),
        ("localhost", ("localhost", "")),
        ("[::1]:8000", ("::1", ":8000")),
        ("[fd00::5]", ("fd00::5", "")),
        ("::1", ("::1", "")),
    ],
)
def test_a_host_header_splits_into_name_and_port(host, expected):
    assert split_host(host) == expected


@pytest.mark.parametrize("raw", ["club.example", "ftp://club.example", "https://", " "])
def test_a_configured_address_that_is_not_http_is_ignored(raw):
    assert join.configured_base(raw) is None


def test_a_configured_address_loses_its_trailing_slash():
    assert join.configured_base(" https://club.example/refapp/ ") == "https://club.example/refapp"


def test_the_lan_address_is_one_of_this_computers_own():
    found = join.lan_address()
    if found is None:  # a computer without a network: nothing to find
        return
    assert not ipaddress.ip_address(found).is_loopback
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as own:
        own.bind((found, 0))  # only an address of this computer's own interfaces binds


class Probe:
    """A stand-in UDP socket: records what is done with it, answers from ``answers``."""

    done: list[str] = []
    answers: list[str | None] = []

    def __init__(self, *args) -> None:
        self.answer = Probe.answers.pop(0)

    def __enter__(self) -> Probe:
        return self

    def __exit__(self, *exc) -> None:
        Probe.done.append("close")

    def connect(self, target) -> None:
        Probe.done.append(f"connect {target[0]}")
        if self.answer is None:
            raise OSError("Network is unreachable")

    def getsockname(self):
        return (self.answer, 40000)

    def __getattr__(self, name):
        raise AssertionError(f"the probe must only connect, not {name}")


def test_the_lan_address_is_found_without_sending_and_never_loopback(monkeypatch):
    monkeypatch.setattr(join.socket, "socket", Probe)
    Probe.done, Probe.answers = [], [None, "127.0.0.1", "10.1.2.3"]
    assert join.lan_address() == "10.1.2.3"
    assert Probe.done == [
        "connect 10.254.254.254", "close", "connect 192.168.254.254", "close",
        "connect 198.51.100.1", "close",
    ]  # fmt: skip
    Probe.done, Probe.answers = [], [None, None, None]
    assert join.lan_address() is None


def decode(svg: str) -> str:
    """Draw an inline SVG QR code of segno's (one path of horizontal runs) and decode it."""
    size = int(re.search(r'width="(\d+)"', svg).group(1))
    scale = int(re.search(r"scale\((\d+)\)", svg).group(1))
    image = Image.new("L", (size // scale, size // scale), 255)
    path = re.search(r'stroke="#000" d="([^"]+)"', svg).group(1)
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmhv])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if command in "Mm":
            x, y = (float(a), float(b)) if command == "M" else (x + float(a), y + float(b))
        elif command == "h":
            for step in range(int(float(a))):
                image.putpixel((int(x) + step, int(y)), 0)
            x += float(a)
    found = zxingcpp.read_barcodes(image.resize((image.width * 8, image.height * 8)))
    assert len(found) == 1
    return found[0].text


def join_part(response) -> str:
    """Return the join section of a session page."""
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    return page[page.index('<section class="card no-print" id="join">') :]


@pytest.fixture
def sid(api) -> int:
    return api.create()["id"]


def test_on_this_computer_with_the_server_on_the_network_the_code_is_the_lan_address(
    app, client, sid, monkeypatch
):
    app.config["SERVED_HOST"] = "0.0.0.0"
    monkeypatch.setattr(join, "lan_address", lambda: LAN)
    part = join_part(client.get(f"/sessions/{sid}", base_url="http://127.0.0.1:8000"))
    url = f"http://{LAN}:8000/sessions/{sid}"
    assert f'<p class="join-address">{url}</p>' in part
    assert decode(part) == url
    assert (
        '<details class="join" id="join-details">' in part
    )  # closed until tapped: it takes one line
    assert "sign in" not in part  # an open table: nothing to sign in to


def test_a_phone_that_came_by_a_name_gets_that_name(app, client, sid, monkeypatch):
    app.config["SERVED_HOST"] = "0.0.0.0"
    monkeypatch.setattr(join, "lan_address", lambda: pytest.fail("no LAN address is needed"))
    part = join_part(client.get(f"/sessions/{sid}", base_url="https://tablepc.lan:8443"))
    assert decode(part) == f"https://tablepc.lan:8443/sessions/{sid}"


def test_a_server_only_this_computer_reaches_says_so_instead_of_a_code(app, client, sid):
    app.config["SERVED_HOST"] = "127.0.0.1"
    part = join_part(client.get(f"/sessions/{sid}", base_url="http://127.0.0.1:8000"))
    assert "<svg" not in part
    assert "the server answers only this computer" in part
    assert "<code>HOST=0.0.0.0 make run</code>" in part
    assert f"http://127.0.0.1:8000/sessions/{sid}</p>" in part


def test_the_configured_address_wins_and_the_environment_over_the_config(
    app, client, sid, monkeypatch
):
    app.config["JOIN_URL"] = "https://club.example/refapp/"
    part = join_part(client.get(f"/sessions/{sid}"))
    assert decode(part) == f"https://club.example/refapp/sessions/{sid}"
    monkeypatch.setenv("REFAPP_JOIN_URL", "http://10.0.0.9:8000")
    assert (
        decode(join_part(client.get(f"/sessions/{sid}"))) == f"http://10.0.0.9:8000/sessions/{sid}"
    )


def test_the_public_address_of_several_hosts_is_every_hosts_join_address(
    app, client, sid, monkeypatch
):
    monkeypatch.delenv("REFAPP_JOIN_URL", raising=False)
    monkeypatch.setenv("REFAPP_PUBLIC_URL", "https://club.example")
    for host in ("10.0.0.1:8001", "10.0.0.2:8002", "127.0.0.1:8000"):  # two hosts and this one
        part = join_part(client.get(f"/sessions/{sid}", base_url=f"http://{host}"))
        assert decode(part) == f"https://club.example/sessions/{sid}"
    app.config["JOIN_URL"] = "http://10.0.0.9:8000"  # a join address of its own still wins
    assert (
        decode(join_part(client.get(f"/sessions/{sid}"))) == f"http://10.0.0.9:8000/sessions/{sid}"
    )
    monkeypatch.delenv("REFAPP_PUBLIC_URL")
    del app.config["JOIN_URL"]
    app.config["PUBLIC_URL"] = "https://club.example/"
    assert (
        decode(join_part(client.get(f"/sessions/{sid}"))) == f"https://club.example/sessions/{sid}"
    )


def test_a_configured_address_that_is_no_url_falls_back(app, client, sid, monkeypatch):
    monkeypatch.setenv("REFAPP_JOIN_URL", "club.example")
    part = join_part(client.get(f"/sessions/{sid}", base_url="http://192.168.1.5:8000"))
    assert decode(part) == f"http://192.168.1.5:8000/sessions/{sid}"


def test_an_address_too_long_for_a_code_is_shown_alone(app, client, sid):
    # a Host is at most a DNS name's 253 characters (refapp.serving.hosts), which a code holds; a
    # configured address may be longer
    base = "http://club.example/" + "/".join(["a" * 60] * 60)  # more than a QR code holds
    app.config["JOIN_URL"] = base
    part = join_part(client.get(f"/sessions/{sid}"))
    assert "<svg" not in part
    assert f"{base}/sessions/{sid}</p>" in part
    del app.config["JOIN_URL"]
    longest = ".".join(["a" * 63] * 3 + ["a" * 61])  # 253 characters
    part = join_part(client.get(f"/sessions/{sid}", base_url=f"http://{longest}:65535"))
    assert decode(part) == f"http://{longest}:65535/sessions/{sid}"


def test_the_join_part_closes_the_page_after_the_session_end(client, sid):
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert page.index('id="finish"') < page.index('id="join"') < page.index("</main>")
    assert page.count('id="join"') == 1


def test_serve_tells_the_app_its_host(monkeypatch):
    served = {}

    class Server:
        def print_listen(self, pattern) -> None:
            served["listen"] = pattern

        def run(self) -> None:
            served["ran"] = True

    def create_server(app, host, port, **chosen):
        served.update(app=app, host=host)
        return Server()

    monkeypatch.setattr(serve.front, "create_server", create_server)
    serve.main(["--host", "0.0.0.0", "--port", "0"])
    assert served["ran"] and served["host"] == "0.0.0.0"
    assert served["app"].config["SERVED_HOST"] == "0.0.0.0"


def test_with_a_table_password_the_joining_phone_is_told_it_signs_in(guarded, monkeypatch):
    client = guarded.test_client()
    created = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": ["A", "B", "C"]},
        headers={"X-Table-Password": "owl"},
    )
    part = join_part(client.get(f"/sessions/{created.get_json()['id']}"))
    assert "They sign in with the table password first." in part
