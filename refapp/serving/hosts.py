"""The Host a request names must be a host: a request naming anything else is answered 400.

A session page's join link and QR code carry the request's host (``web.join``); a Host that is
not a host name or address with an optional port would give a link to nowhere. So before any
page is built, a Host header must be a DNS name, an IPv4 address or a bracketed IPv6 address,
with an optional port from 1 to 65535; anything else is ``400 bad_request`` (the API's JSON
under /api, plain text elsewhere). A request without a Host header (HTTP/1.0) goes on.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask

from ..bodies import error_body

#: a WSGI application, as the standard library's types name it
WSGIApp = WSGIApplication

#: a DNS label: letters, digits and inner hyphens, 63 characters at most (RFC 1123)
LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
#: a DNS name: labels joined by dots, perhaps with the root's trailing dot
NAME = re.compile(rf"{LABEL}(?:\.{LABEL})*\.?", re.IGNORECASE | re.ASCII)
#: the longest DNS name, its trailing dot left out
NAME_MAX = 253
#: a port: up to five digits, from 1 to 65535
PORT = re.compile(r"[0-9]{1,5}")
PORT_MAX = 65535
MESSAGE = "The Host header is not a host name, IPv4 or [IPv6] address with an optional port."


def host_parts(host: str) -> tuple[str, int | None] | None:
    """Return a Host header's name (an IPv6 address without brackets) and port, or None when
    it is not a host."""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or "%" in name or not is_ipv6(name):
            return None
        if rest and not rest.startswith(":"):
            return None
        port = rest[1:] if rest else None
    else:
        name, colon, port = host.partition(":")
        if not is_name(name):
            return None
        port = port if colon else None
    if port is None:
        return name, None
    if not PORT.fullmatch(port) or not 1 <= int(port) <= PORT_MAX:
        return None
    return name, int(port)


def is_ipv6(text: str) -> bool:
    """Return True for an IPv6 address as written between a URL's brackets."""
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def is_name(text: str) -> bool:
    """Return True for a DNS name or an IPv4 address (a name ending in digits must be one)."""
    if not NAME.fullmatch(text) or len(text.rstrip(".")) > NAME_MAX:
        return False
    if not text.rstrip(".").rpartition(".")[2].isdigit():
        return True  # no top-level name is all digits: this is a name, not an address
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


class HostCheck:
    """WSGI middleware answering a request whose Host is not a host with 400 ``bad_request``."""

    def __init__(self, wrapped: WSGIApp) -> None:
        self.wrapped = wrapped

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Pass a request with a readable Host (or none) on; refuse any other."""
        host = environ.get("HTTP_HOST")
        if host is None or host_parts(host) is not None:
            return self.wrapped(environ, start_response)
        headers = [("X-Content-Type-Options", "nosniff")]
        if environ.get("PATH_INFO", "").startswith("/api/"):
            body = error_body("bad_request", MESSAGE)
            headers.append(("Content-Type", "application/json"))
        else:
            body = f"400 Bad Request: {MESSAGE}\n".encode()
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
        headers.append(("Content-Length", str(len(body))))
        start_response("400 BAD REQUEST", headers)
        return [body]


def init_app(app: Flask) -> None:
    """Check each request's Host before the app reads it (inside the proxies' fix-ups)."""
    app.wsgi_app = HostCheck(app.wsgi_app)  # type: ignore[method-assign]  # Flask's documented way
