"""Join in one scan: the session's address as a QR code (segno, inline SVG) for other phones.

The address is the one other phones at the table can open. In order:

1. ``REFAPP_JOIN_URL`` (or the config's ``JOIN_URL``), when the host knows it best (a proxy's
   public name, a port forwarded by the router), else ``REFAPP_PUBLIC_URL`` (``PUBLIC_URL``):
   the address of a server of several hosts behind one balancer, the same on every host;
2. the request's own host when it is not this computer's loopback: a phone that came by the LAN
   address, or a reverse proxy's host (nginx passes the phone's ``Host``, port included;
   ProxyFix gives the scheme); a Host that is not a host never gets here
   (``refapp.serving.hosts``);
3. a request to 127.0.0.1/localhost: the server's network address, when the server listens
   beyond this computer (``SERVED_HOST``, set by ``python -m refapp.serving.serve``): the
   address given to ``--host``, or for 0.0.0.0 / :: this computer's LAN address, found without
   sending a byte;
4. otherwise other phones cannot open the server: the page says so rather than show a code.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import segno
from flask import current_app, request, url_for
from markupsafe import Markup

from . import bp

#: the environment variable (first) and config key naming the address phones open
JOIN_ENV, JOIN_KEY = "REFAPP_JOIN_URL", "JOIN_URL"
#: the same for the server's public address (several hosts behind a balancer: its address)
PUBLIC_ENV, PUBLIC_KEY = "REFAPP_PUBLIC_URL", "PUBLIC_URL"
#: the config key holding the host the server listens on (``refapp.serving.serve`` sets it)
SERVED_KEY = "SERVED_HOST"
#: hosts that mean "every interface" when a server listens on them
EVERY_INTERFACE = frozenset({"", "0.0.0.0", "::", "*", "[::]"})
#: addresses "connected" to with UDP to learn the outgoing interface: connect() on a datagram
#: socket only picks a route, no packet leaves; a private and a documentation address, so that a
#: LAN without a way to the internet still answers from its own route
PROBES = ("10.254.254.254", "192.168.254.254", "198.51.100.1")
#: pixels a module of the code takes at most and at least; the code stays about 240 px wide
MODULE_PX, MIN_MODULE_PX, CODE_PX = 5, 2, 240

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Address:
    """Where other phones open the app: a base URL (no trailing slash), and whether they can."""

    base: str
    reachable: bool


@dataclass(frozen=True)
class JoinLink:
    """A session's join address, its QR code as inline SVG (None if it cannot be drawn)."""

    url: str
    reachable: bool
    svg: Markup | None


def split_host(host: str) -> tuple[str, str]:
    """Split a Host header into its name (IPv6 without brackets) and its ``:port`` part."""
    if host.startswith("["):
        name, _bracket, rest = host[1:].partition("]")
        return name, rest if rest.startswith(":") else ""
    name, colon, port = host.rpartition(":")
    if not colon or ":" in name:  # no port, or a bare IPv6 address
        return host, ""
    return name, ":" + port


def is_local(name: str) -> bool:
    """Return True for a name only this computer reaches: loopback, localhost, 0.0.0.0, and
    these written as IPv6 (``::ffff:127.0.0.1``)."""
    name = name.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


def with_brackets(name: str) -> str:
    """Return an address as a URL writes it (an IPv6 address in brackets)."""
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


@lru_cache(maxsize=8)
def configured_base(raw: str | None) -> str | None:
    """Return a configured join address without its trailing slash, or None if not an http URL."""
    if not raw:
        return None
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        log.warning("%s / %s is not an http(s) address, ignored: %r", JOIN_ENV, PUBLIC_ENV, raw)
        return None
    return raw.strip().rstrip("/")


def choose_address(
    scheme: str,
    host: str,
    served: str | None,
    configured: str | None,
    lan: Callable[[], str | None],
) -> Address:
    """Choose the address other phones open (``served`` None: the listening host is unknown)."""
    if configured:
        return Address(configured, True)
    name, port = split_host(host)
    own = f"{scheme}://{host}"
    if not name:  # no Host (HTTP/1.0) and no server name: nowhere another phone can go
        return Address(own, False)
    if not is_local(name):
        return Address(own, True)
    if served is None:
        return Address(own, False)
    served = served.strip()
    if served in EVERY_INTERFACE:
        found = lan()
        return (
            Address(f"{scheme}://{with_brackets(found)}{port}", True)
            if found
            else Address(own, False)
        )
    if is_local(served.strip("[]")):
        return Address(own, False)
    return Address(f"{scheme}://{with_brackets(served.strip('[]'))}{port}", True)


def lan_address() -> str | None:
    """Return this computer's IPv4 address on its network (None without one); nothing is sent."""
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
            try:
                probe_socket.connect((probe, 9))  # UDP: picks the route, sends nothing
                found = probe_socket.getsockname()[0]
            except OSError:
                continue
        if not is_local(found):
            return str(found)
    return None


@lru_cache(maxsize=64)
def qr_svg(text: str) -> Markup | None:
    """Return ``text`` as a QR code in inline SVG, dark on light (None: too long for a code)."""
    try:
        code = segno.make_qr(text, error="m", boost_error=True)
    except (segno.DataOverflowError, ValueError):
        return None
    width = code.symbol_size(scale=1)[0]
    scale = max(MIN_MODULE_PX, min(MODULE_PX, CODE_PX // width))
    svg = code.svg_inline(scale=scale, dark="#000", light="#fff", svgclass="qr", lineclass=None)
    return Markup(svg)  # segno's own markup: paths only, the text is not in it


@bp.app_template_global()
def join_link(session_id: int) -> JoinLink:
    """Return the address other phones open a session at, with its QR code."""
    return link_to(url_for("web.show_session", session_id=session_id))


def group_join_link(code: str) -> JoinLink:
    """Return a group's join link (``/join/<code>``), with its QR code."""
    return link_to(url_for("web.join_group", code=code))


def other_phones() -> Address:
    """Return the base address other phones open this server at (see the module's order)."""
    config = current_app.config
    configured = configured_base(
        os.environ.get(JOIN_ENV)
        or config.get(JOIN_KEY)
        or os.environ.get(PUBLIC_ENV)
        or config.get(PUBLIC_KEY)
    )
    return choose_address(
        request.scheme, request.host, config.get(SERVED_KEY), configured, lan_address
    )


def link_to(path: str) -> JoinLink:
    """Return the address other phones open ``path`` at (this server's), with its QR code."""
    address = other_phones()
    url = address.base + path
    return JoinLink(url, address.reachable, qr_svg(url) if address.reachable else None)
