"""How large a request body each route takes, and the refusals both the app and the server send.

One function, ``body_limit(method, path)``, names the limit: MAX_BODY (256 KiB) everywhere, the
import's own limit (``imports.IMPORT_MAX_BYTES``) only for ``POST /api/sessions/import``. The app
reads it for every request (``LimitedRequest``), and waitress's front (refapp/serving/serve.py)
reads it from the headers, before a body byte is kept. For a route that takes a large body the
front first asks the app, with the headers alone, whether the request may go on (``PROBE``):
the app's own password guard answers, with its throttle, so a stranger's 270 MB is never read.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Flask, Request, Response, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from .games.codes import status_of
from .games.errors import MalformedInput, Refusal

#: the largest request body, in bytes, every route but the import takes
MAX_BODY = 256 * 1024
#: the one route whose body may be larger than MAX_BODY: a session's export brought back
IMPORT_ROUTE = ("POST", "/api/sessions/import")
#: the environ key of a headers-only request the server front sends the app before it reads a
#: large body: the app sets it True when every guard let the request through
PROBE = "refapp.body_welcome"
#: the app's extension holding the password guard (``access.require_sign_in``, put there by
#: ``access.init_app``) that answers a probe: this module never imports the guard's
SIGN_IN_GUARD = "refapp_sign_in_guard"
#: the API's message for each of them (English templates, as a Refusal's)
FRONT_MESSAGES = {
    "too_large": "The request body ({size}) is larger than the {limit} bytes {route} accepts.",
    "headers_too_large": "The request's headers are larger than the {limit} bytes accepted.",
    "request_timeout": "The request did not arrive in time: it was {phase} for {seconds} s.",
    "not_implemented": "This server does not take that transfer encoding: {detail}.",
    "bad_request": "The request is not well-formed HTTP: {detail}.",
    "server_error": "Something went wrong on the server.",
    "busy": (
        "The server is receiving as many large bodies as it keeps at once ({limit} bytes); "
        "try again in a moment."
    ),
}


def body_limit(method: str, path: str) -> int:
    """Return the largest body, in bytes, a request with this method and path may carry."""
    if (method.upper(), path) == IMPORT_ROUTE:
        # read at each call: the limit is the import module's, and tests lower it
        from .services.archive import imports

        return max(imports.IMPORT_MAX_BYTES, MAX_BODY)
    return MAX_BODY


def takes_large_body(method: str, path: str) -> bool:
    """Return True for a route whose body is checked by the app's guards before it is read."""
    return body_limit(method, path) > MAX_BODY


def is_api(path: str) -> bool:
    """Return True for a path the API answers, in its JSON error shape."""
    return path == "/api" or path.startswith("/api/")


def error_body(code: str, message: str, field: str | None = None, **extra: object) -> bytes:
    """Return the API's error body {"error": {"code", "message", "field"}} as JSON bytes."""
    body = {"code": code, "message": message, "field": field, **extra}
    return json.dumps({"error": body}).encode()


def error_response(code: str, message: str, field: str | None = None, **extra: object) -> Response:
    """Return the API's error body with the status its code carries in ``codes.CODES``.

    A code missing from the registry raises ``codes.UnknownCode``: never a guessed status.
    """
    status = status_of(code)
    body = {"code": code, "message": message, "field": field, **extra}
    response = jsonify({"error": body})
    response.status_code = status
    return response


def violation_response(error: Refusal) -> Response:
    """Return a refusal as the API's error body."""
    body = error.as_dict()
    return error_response(body.pop("code"), body.pop("message"), body.pop("field"), **body)


def front_message(code: str, **params: object) -> str:
    """Return the English message of one of the front's own refusals, its values filled in."""
    return FRONT_MESSAGES[code].format(**params)


class LimitedRequest(Request):
    """A request whose body limit is its route's (``body_limit``), unless a view set its own."""

    @property
    def max_content_length(self) -> int | None:
        """Return the body limit of this request's route (or what the view set)."""
        if self._max_content_length is not None:
            return self._max_content_length
        return body_limit(self.method, self.path)

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        """Let a view set its own limit, as Flask allows."""
        self._max_content_length = value


def welcome_probe() -> Response | None:
    """Answer the front's headers-only question: the password guard's refusal, or welcome."""
    if PROBE not in request.environ:
        return None
    # the guard is asked here too, so the answer never depends on the order hooks were added in
    guard: Callable[[], Response | None] | None = current_app.extensions.get(SIGN_IN_GUARD)
    refusal = guard() if guard is not None else None
    if refusal is not None:
        return refusal
    request.environ[PROBE] = True
    return Response(status=204)


def refuse_declared_size() -> None:
    """Refuse a body declared larger than its route takes, before anything reads it."""
    length = request.content_length
    limit = body_limit(request.method, request.path)
    if length is not None and length > limit:
        raise RequestEntityTooLarge()
    return None


def init_app(app: Flask) -> None:
    """Give every request its route's body limit and answer the server front's probe (once)."""
    if app.extensions.get("refapp_bodies"):
        return
    app.extensions["refapp_bodies"] = True
    if not issubclass(app.request_class, LimitedRequest):
        app.request_class = LimitedRequest
    # a probe is welcome only if the password guard lets it by; a declared size past the limit
    # is refused before any view reads it
    app.before_request(welcome_probe)
    app.before_request(refuse_declared_size)


def json_body() -> dict[str, object]:
    """Return the request's JSON object or raise ``invalid_json``."""
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # brackets nested deeper than any round: not a usable body
        body = None
    if not isinstance(body, dict):
        raise MalformedInput("invalid_json", "The request body must be a JSON object.")
    return body
