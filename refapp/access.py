"""The optional table password: anyone on the Wi-Fi may read; writing needs the password.

With no password configured (REFAPP_PASSWORD or PASSWORD in instance/config.py) everything is
open, as on a laptop nobody else can reach. The pages remember a sign-in in the session cookie:
a keyed digest of the password (a new password ends every sign-in) and a random id whose digest
the server keeps in the ``sign_in`` table with the sign-in's time (signing out deletes it, so a
copy of the cookie stops writing too; it lasts PERMANENT_SESSION_LIFETIME, aged by the
database's clock on PostgreSQL, so a sign-in made on one host ages the same on another). The
API never reads that cookie (its writes carry no CSRF token, so another page in the browser
could send it): it takes the password only from the ``X-Table-Password`` header,
percent-encoded when it is not ASCII. Wrong passwords are slowed per client address and for the
whole table (``Throttle``'s rules, counted in the database by ``SharedThrottle``, so every host
and process shares them); behind reverse proxies (TRUSTED_PROXIES) the address is the one they
forward. Each right password (a sign-in or an API write) also gives the device a pass
(``passes``): a signed cookie that grants nothing but this - the password checks of a device
that shows one are counted by its pass alone, so guessers sharing its address (a cafe's Wi-Fi)
never hold it back. Also here: ``safe_next``, the one check of a redirect target.
"""

from __future__ import annotations

import math
import os
import time
import unicodedata
from collections.abc import Callable
from contextlib import suppress
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from flask import Flask, Response, current_app, g, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.engine import Row
from werkzeug.middleware.proxy_fix import ProxyFix

from . import bodies, club, passes, sign_ins
from .games.errors import AccessDenied, Refusal
from .shared_throttle import SharedThrottle
from .sign_ins import SIGN_IN as SIGN_IN
from .sign_ins import forget_sign_in as forget_sign_in
from .sign_ins import sign_in_digest as sign_in_digest

READ_METHODS = {"GET", "HEAD", "OPTIONS"}
#: pages that are forms for writing, so even reading them asks for a sign-in
WRITE_PAGES = {"web.new_session", "web.edit_round"}
OPEN_PAGES = {"web.sign_in", "web.sign_out", "static"}
#: API posts that change nothing: a round's dry run (with a true flag, as the view reads it)
DRY_RUN_ENDPOINTS = {"api.record_round"}
DRY_RUN_FLAGS = ("1", "true", "yes")
HEADER = "X-Table-Password"
#: the routes of the server's groups: the server password guards them (server_access.py)
SERVER_ENDPOINTS = frozenset({"api.create_group", "api.list_groups", "web.groups_page"})
#: the environment variable and config key: how many reverse proxies stand in front of the app
PROXIES_ENV = "REFAPP_TRUSTED_PROXIES"
PROXIES = "TRUSTED_PROXIES"
#: the longest redirect target kept (longer ones go home)
NEXT_MAX = 2000
#: the app's extension that reads the API paths the games' pages declare open (they change
#: nothing); the factory puts it there once the pages are loaded, so the guard imports no page
OPEN_API_PATHS = "refapp_open_api_paths"
#: hex digits of the password's digest a device's pass holds: a new password ends every pass
PASS_KEY = 16


def now() -> float:
    """Return the time in seconds (ACCESS_CLOCK, a function, replaces the clock in tests)."""
    clock: Callable[[], float] = current_app.config.get("ACCESS_CLOCK", time.time)
    return clock()


def sign_in_row() -> Row[int, bool] | None:
    """Return this browser's sign-in to this group in force (``sign_ins.sign_in_row``)."""
    return sign_ins.sign_in_row(now())


def signed_in() -> bool:
    """Return True when this browser signed in to this group with today's password."""
    return sign_in_row() is not None


def remember_sign_in(organizer: bool = False) -> None:
    """Start a new sign-in to this group in this browser (``sign_ins.remember_sign_in``)."""
    sign_ins.remember_sign_in(now(), organizer)


def password_matches(given: str | None) -> bool:
    """Compare a given password with the group's table password in constant time."""
    return club.password_matches(given)


def header_readings(raw: str) -> list[str]:
    """Return what a password header may mean: as sent, percent-decoded, and raw UTF-8 bytes."""
    readings = [raw]
    with suppress(UnicodeError):
        readings.append(unquote(raw, errors="strict"))
    with suppress(UnicodeError):
        readings.append(raw.encode("latin-1").decode("utf-8"))
    return readings


def header_matches(raw: str) -> bool:
    """Compare every reading of the header with the password, all of them (no early exit)."""
    matched = False
    for reading in header_readings(raw):
        matched |= password_matches(reading)
    return matched


def organizer_header_matches(raw: str) -> bool:
    """Compare every reading of the organizer's header with the organizer password."""
    matched = False
    for reading in header_readings(raw):
        matched |= club.organizer_matches(reading)
    return matched


def can_write() -> bool:
    """Return True when this page request may change things (the pages' sign-in)."""
    return not club.has_password() or signed_in()


def throttle() -> SharedThrottle:
    """Return this app's throttle (its counts in the database, shared by every host)."""
    kept: SharedThrottle = current_app.extensions["refapp_throttle"]
    return kept


def client_address() -> str:
    """Return the address attempts are counted by (TRUSTED_PROXIES' ProxyFix has set it)."""
    return request.remote_addr or "unknown"


def pass_key() -> str:
    """Return what a device's pass holds of today's password."""
    return club.password_key()[:PASS_KEY]


def device_pass() -> dict[str, Any] | None:
    """Return the pass this device shows, if it is in force for today's password (else None)."""
    return passes.shown(pass_key(), now()) if club.has_password() else None


def device() -> str | None:
    """Return the id of the pass this device shows, if it holds one in force."""
    held = device_pass()
    return held["id"] if held else None


def retry_after() -> int:
    """Return the whole seconds this client must wait before trying a password (0: may try)."""
    return math.ceil(throttle().wait(client_address(), now(), device()))


def attempt(given: str, check: Callable[[str], bool]) -> bool:
    """Check a password the client gave, counting a failure or forgetting past ones."""
    if check(given):
        held = device_pass()
        throttle().succeeded(client_address(), now(), held["id"] if held else None)
        passes.earned(held, pass_key(), now())
        return True
    throttle().failed(client_address(), now(), device())
    return False


def api_refusal(violation: Refusal) -> Response:
    """Return the API's error body for a refused password, with its code's status."""
    return bodies.violation_response(violation)


def password_refusal() -> Response:
    """Return the API's 401 for a missing or wrong password."""
    return api_refusal(
        AccessDenied(
            "sign_in_required",
            "This table has a password: send it in the X-Table-Password header "
            "(percent-encoded if it is not ASCII).",
        )
    )


def too_many_attempts(wait: int) -> AccessDenied:
    """Return the refusal of a client that must wait ``wait`` seconds before trying again."""
    return AccessDenied(
        "too_many_attempts",
        "Too many wrong passwords from this device: try again in {seconds} seconds.",
        seconds=wait,
    )


def held_back(wait: int) -> Response:
    """Return the API's 429 for a client that must wait before trying a password again."""
    response = api_refusal(too_many_attempts(wait))
    response.headers["Retry-After"] = str(wait)
    return response


def throttled(
    given: str, check: Callable[[str], bool], refused: Callable[[], Response]
) -> Response | None:
    """Check a password header held to the throttle: a client held back gets 429, a wrong
    password ``refused()`` (counted), a right one None."""
    wait = retry_after()
    if wait:
        return held_back(wait)
    return None if attempt(given, check) else refused()


def api_changes_nothing() -> bool:
    """Return True for an API request that changes nothing: a read, a dry run, a trick check."""
    if request.method in READ_METHODS:
        return True
    if request.method == "POST" and request.path in open_api_paths():
        return True
    dry_run = request.args.get("dry_run", "").lower() in DRY_RUN_FLAGS
    return request.method == "POST" and dry_run and request.endpoint in DRY_RUN_ENDPOINTS


def open_api_paths() -> set[str]:
    """Return the API paths that change nothing, as the games' pages declare them (the app
    puts the reader of their declarations in ``OPEN_API_PATHS`` once it has loaded them)."""
    read: Callable[[], set[str]] | None = current_app.extensions.get(OPEN_API_PATHS)
    return read() if read is not None else set()


def guard_api(password: bool | None = None) -> Response | None:
    """Refuse an API write without the password in its header; hold back a guessing client. An
    organizer's header (when the group has an organizer password) stands for both passwords.
    ``password``: whether the group has a table password, when the caller knows already."""
    organizer = request.headers.get(club.ORGANIZER_HEADER)
    if organizer and club.has_organizer():
        return guard_organizer(organizer)
    if password is None:
        password = club.has_password()
    if not password or api_changes_nothing():
        return None
    given = request.headers.get(HEADER)
    if not given:
        return password_refusal()
    refused = throttled(given, header_matches, password_refusal)
    if refused is None:
        g.can_write, g.organizer = True, not club.has_organizer()
    return refused


def organizer_refusal() -> Response:
    """Return the API's 403 for an organizer action without the organizer's password."""
    return api_refusal(organizer_required())


def organizer_required() -> AccessDenied:
    """Return the refusal of an organizer action to a request that is not the organizer's."""
    return AccessDenied(
        "organizer_required",
        "Only the group's organizer may do this: send the organizer password in the "
        "X-Organizer-Password header (percent-encoded if it is not ASCII).",
    )


def guard_organizer(given: str) -> Response | None:
    """Check an organizer's header (throttled as the table password): right, the request may
    write and act as the organizer; wrong, 403 organizer_required."""
    refused = throttled(given, organizer_header_matches, organizer_refusal)
    if refused is None:
        g.can_write = g.organizer = True
    return refused


def guard_page() -> ResponseReturnValue | None:
    """Send someone who has not signed in from a write (or a form page) to the sign-in."""
    row = sign_in_row()
    g.can_write = not club.has_password() or row is not None
    g.organizer = bool(row is not None and row.organizer) if club.has_organizer() else g.can_write
    if g.can_write or request.endpoint in OPEN_PAGES:
        return None
    if request.method in READ_METHODS and request.endpoint not in WRITE_PAGES:
        return None
    return redirect(url_for("web.sign_in", next=here()))


def require_sign_in() -> ResponseReturnValue | None:
    """Guard every request: the API by its header, the pages by their sign-in."""
    if request.endpoint in SERVER_ENDPOINTS:
        g.can_write = g.organizer = False
        return None  # the server password guards these (server_access.py)
    if request.path.startswith("/api/"):
        password = club.has_password()
        g.can_write = not password
        g.organizer = not password and not club.has_organizer()
        return guard_api(password)
    return guard_page()


def unsafe_character(character: str) -> bool:
    """Return True for a character browsers strip or that a Location header must not hold."""
    return (
        character.isspace()
        or character == "\\"
        or unicodedata.category(character)[0] in "CZ"  # controls, format (bidi), separators
    )


def safe_next(target: object, fallback: str | None = None) -> str:
    """Return target if it is a plain path of this site, else fallback (the sessions page)."""
    # The one check for every redirect to a target a user gave (?next=, a form's next): no
    # control, format or white-space character (browsers strip some, turning /<tab>/x into //x),
    # no backslash (browsers read it as /), one leading /, and no scheme or host.
    if (
        isinstance(target, str)
        and 0 < len(target) <= NEXT_MAX
        and target.startswith("/")
        and not target.startswith("//")
        and not any(unsafe_character(character) for character in target)
    ):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return fallback or url_for("web.index")


def here() -> str:
    """Return this request's path and query as a percent-encoded target to come back to."""
    path = quote(request.script_root + request.path, safe="/!$&'()*+,;=:@~")
    query = request.query_string.decode("latin-1")
    return path + ("?" + query if query else "")


#: what every answer carries unless its view set the header itself
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
    ),
)


def security_headers(response: Response) -> Response:
    """Add headers that keep pages from being framed, sniffed or fed other sites' scripts."""
    present = {name.lower() for name, _value in response.headers}
    response.headers.extend(
        [(name, value) for name, value in SECURITY_HEADERS if name.lower() not in present]
    )
    return response


def trusted_proxies(app: Flask) -> int:
    """Return how many reverse proxies stand in front of the app (environment first; 0: none)."""
    raw = os.environ.get(PROXIES_ENV) or app.config.get(PROXIES) or 0
    try:
        count = int(str(raw).strip())
    except ValueError:
        count = -1
    if not 0 <= count <= 10:
        raise ValueError(
            f"{PROXIES_ENV} / {PROXIES} must be a whole number from 0 to 10 (the reverse "
            f"proxies in front of the app), not {raw!r}"
        )
    return count


def init_app(app: Flask) -> None:
    """Read the password and proxies (environment first), make the throttle, guard requests."""
    if os.environ.get("REFAPP_PASSWORD"):
        app.config["PASSWORD"] = os.environ["REFAPP_PASSWORD"]
    app.config[PROXIES] = proxies = trusted_proxies(app)
    if proxies:
        # each phone's own address (and https) as the proxies saw it; with none, a client's
        # X-Forwarded-For is ignored, so it cannot pick its own throttle address
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's documented way
            app.wsgi_app, x_for=proxies, x_proto=proxies
        )
    app.extensions["refapp_throttle"] = SharedThrottle()
    app.extensions[bodies.SIGN_IN_GUARD] = require_sign_in
    app.before_request(require_sign_in)
    app.after_request(security_headers)
    app.after_request(passes.give)
    app.context_processor(
        lambda: {
            "can_write": g.get("can_write", True),
            "has_password": club.has_password() or club.has_organizer(),
            "here": here,
        }
    )
