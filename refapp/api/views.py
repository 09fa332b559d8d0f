"""API routes: sessions, rounds (record, dry run, replace, undo), finish and the audit trail."""

from typing import Any

from flask import request, url_for

from .. import services
from ..extensions import db
from ..games.base import RuleViolation
from . import bp
from .errors import violation_response


@bp.errorhandler(RuleViolation)
def rule_violation(error: RuleViolation):
    """Answer a broken rule with its code, message and field; nothing was written."""
    db.session.rollback()
    return violation_response(error)


def json_body() -> dict[str, Any]:
    """Return the request's JSON object or raise ``invalid_json``."""
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # brackets nested deeper than any round: not a usable body
        body = None
    if not isinstance(body, dict):
        raise RuleViolation("invalid_json", "The request body must be a JSON object.")
    return body


def session_payload(session) -> dict[str, Any]:
    """Return the API's session object for a stored session."""
    return services.session_dict(services.describe(session))


@bp.get("/sessions")
def list_sessions():
    """List sessions, latest activity first; filter by game, player, status, dates; paged."""
    wanted = services.SessionFilter.from_args(request.args)
    sessions, total = services.list_sessions(wanted)
    pages = max(1, -(-total // wanted.per_page))
    return {"sessions": sessions, "total": total, "page": wanted.page, "pages": pages}


@bp.post("/sessions")
def create_session():
    """Create a session: game, players in seat order, house rules."""
    session = services.create_session(json_body())
    payload = session_payload(session)
    return payload, 201, {"Location": url_for("api.get_session", session_id=session.id)}


@bp.get("/sessions/<int:session_id>")
def get_session(session_id: int):
    """Show a session: players, rules, rounds, totals, state and winners."""
    return session_payload(services.load_session(session_id, with_rounds=False))


@bp.post("/sessions/<int:session_id>/finish")
def finish_session(session_id: int):
    """End a session by the table's decision; winners are the highest totals."""
    return session_payload(services.finish_session(session_id))


@bp.post("/sessions/<int:session_id>/rounds")
def record_round(session_id: int):
    """Record a round, or with ?dry_run=1 check and score it without storing."""
    body = json_body()
    if request.args.get("dry_run", "").lower() in ("1", "true", "yes"):
        return {"round": services.check_round(session_id, body), "dry_run": True}, 200
    played, session = services.record_round(session_id, body)
    return {"round": services.round_dict(played), "session": session_payload(session)}, 201


@bp.put("/sessions/<int:session_id>/rounds/<int:number>")
def replace_round(session_id: int, number: int):
    """Replace a round's input; later rounds are replayed through the rules."""
    return session_payload(services.replace_round(session_id, number, json_body()))


@bp.delete("/sessions/<int:session_id>/rounds/<int:number>")
def delete_round(session_id: int, number: int):
    """Undo the last round (it stays in the audit trail)."""
    return session_payload(services.delete_round(session_id, number))


@bp.get("/sessions/<int:session_id>/audit")
def audit(session_id: int):
    """List every change to the session, oldest first."""
    return {"entries": services.audit_entries(session_id)}
