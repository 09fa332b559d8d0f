"""API routes for exporting a session as JSON and importing one by replaying its rounds."""

from flask import jsonify, request, url_for

from ..services.archive import exports, imports
from . import bp
from .views import json_body, session_payload


@bp.get("/sessions/<int:session_id>/export")
def export_session(session_id: int):
    """Export a session: game, players, rules, setup, every round's input and the audit trail."""
    body = exports.export(session_id)
    response = jsonify(body)
    filename = f"refapp-{body['game']}-session-{session_id}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.post("/sessions/import")
def import_session():
    """Recreate a session from an export, replaying every round; refused whole on a broken rule.

    Its body may be as large as the largest session's export (``imports.IMPORT_MAX_BYTES``),
    past the app-wide limit: the limit is raised for this request before the body is read.
    """
    request.max_content_length = imports.IMPORT_MAX_BYTES
    session = imports.import_session(json_body())
    payload = session_payload(session)
    return payload, 201, {"Location": url_for("api.get_session", session_id=session.id)}
