"""One error shape for the API: {"error": {"code", "message", "field"}}, the contract's status."""

from typing import Any

from flask import jsonify

from ..extensions import db
from ..games.codes import status_of
from ..games.errors import Refusal


def error_response(code: str, message: str, field: str | None = None, **extra: Any):
    """Return the API's error body with the status its code carries in ``codes.CODES``.

    A code missing from the registry raises ``codes.UnknownCode``: never a guessed status.
    """
    status = status_of(code)
    body = {"code": code, "message": message, "field": field, **extra}
    response = jsonify({"error": body})
    response.status_code = status
    return response


def violation_response(error: Refusal):
    """Return a refusal as the API's error body."""
    body = error.as_dict()
    return error_response(body.pop("code"), body.pop("message"), body.pop("field"), **body)


def rule_violation(error: Refusal):
    """Answer a refusal no route answered itself: its code, message and field, after undoing
    whatever the request began (nothing of it was stored)."""
    db.session.rollback()
    return violation_response(error)
