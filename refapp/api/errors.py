"""One error shape for the API: {"error": {"code", "message", "field"}}, the contract's status."""

from flask import Response

from ..bodies import error_response, violation_response
from ..extensions import db
from ..games.codes import status_of
from ..games.errors import Refusal
from ..services.writes import Busy

__all__ = [
    "HTTP_CODES",
    "error_response",
    "http_code",
    "retry_headers",
    "rule_violation",
    "violation_response",
]

#: the codes a werkzeug HTTP error (not a refusal: that carries its own) is answered with
HTTP_ERROR_CODES = ("not_found", "method_not_allowed", "too_large", "invalid_json", "busy")
#: each of them by its status in ``codes.CODES``; any other status is ``http_error``
HTTP_CODES = {status_of(code): code for code in HTTP_ERROR_CODES}


def rule_violation(error: Refusal) -> Response:
    """Answer a refusal no route answered itself: its code, message and field (and the wait of
    a ``busy`` one), after undoing whatever the request began (nothing of it was stored)."""
    db.session.rollback()
    response = violation_response(error)
    response.headers.extend(retry_headers(error))
    return response


def retry_headers(error: Refusal) -> list[tuple[str, str]]:
    """Return the ``Retry-After`` a refusal names (a busy write's wait), or none."""
    return [("Retry-After", str(error.retry_after))] if isinstance(error, Busy) else []


def http_code(status: int) -> str:
    """Return the code an HTTP error of this status is answered with (``codes.CODES``)."""
    return HTTP_CODES.get(status, "http_error")
