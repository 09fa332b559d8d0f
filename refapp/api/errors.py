"""One error shape for the API: {"error": {"code", "message", "field"}}, the contract's status."""

from typing import Any

from flask import jsonify

from ..games.errors import RuleViolation

STATUS = {
    "invalid_json": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "too_large": 413,
    "session_finished": 409,
    "stale_round": 409,
    "not_last_round": 409,
    "player_conflict": 409,
    "sign_in_required": 401,
    "too_many_attempts": 429,
    "busy": 503,
    # the server front's own refusals (refapp/front.py), in the same shape
    "bad_request": 400,
    "request_timeout": 408,
    "headers_too_large": 431,
    "not_implemented": 501,
    "unavailable": 503,
    "server_error": 500,
}


def error_response(code: str, message: str, field: str | None = None, **extra: Any):
    """Return the API's error body with the status its code carries (422 unless listed)."""
    body = {"code": code, "message": message, "field": field, **extra}
    response = jsonify({"error": body})
    response.status_code = STATUS.get(code, 422)
    return response


def violation_response(error: RuleViolation):
    """Return a broken rule as the API's error body."""
    body = error.as_dict()
    return error_response(body.pop("code"), body.pop("message"), body.pop("field"), **body)
