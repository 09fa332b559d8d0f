"""API routes: sessions, rounds (record, dry run, replace, undo), finish and the audit trail."""

from typing import Any

from flask import Response, request, url_for
from sqlalchemy import select

from .. import services
from ..extensions import db
from ..games.errors import RuleViolation, quote
from ..models import GameSession
from ..services import rule_sets
from ..web.filters import SessionFilterForm
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


def rounds_wanted(raw: Any) -> int | None:
    """Read ``?rounds=``: ``all`` (None: every round), ``none`` (0) or ``last:N`` (N)."""
    text = "all" if raw is None else str(raw).strip().lower()
    if text == "all":
        return services.ALL_ROUNDS
    if text == "none":
        return 0
    head, _, tail = text.partition(":")
    if head == "last" and tail.isascii() and tail.isdigit() and len(tail) <= 6:
        return int(tail)
    raise RuleViolation(
        "invalid_value",
        "rounds must be all, none or last:N (a whole number), not {value}.",
        "rounds",
        value=quote(raw),
    )


def session_payload(session) -> dict[str, Any]:
    """Return the API's session object for a stored session, with the rounds ``?rounds=`` asks."""
    last = rounds_wanted(request.args.get("rounds"))
    return services.session_dict(services.describe(session, last))


def etag(version: int) -> str:
    """Return a session version as the strong entity tag the API sends and compares."""
    return f'"{version}"'


def with_etag(payload: dict[str, Any], status: int = 200, headers: dict | None = None):
    """Answer a session object (or a write's answer holding one) with its version as ETag."""
    session = payload.get("session", payload)
    return payload, status, {**(headers or {}), "ETag": etag(session["version"])}


def if_match() -> int | None:
    """Read the optional ``If-Match: "<version>"`` of a write (None when absent or ``*``)."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    text = raw.strip().removeprefix("W/").strip().strip('"')
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise RuleViolation(
            "invalid_value",
            'If-Match must be the session\'s version in quotes, like "12", not {value}.',
            "If-Match",
            value=quote(raw),
        )
    return int(text)


def not_modified(session_id: int) -> Response | None:
    """Answer 304 when ``If-None-Match`` names the session's current version: one small query."""
    wanted = request.headers.get("If-None-Match")
    if not wanted or session_id > services.ID_MAX:
        return None
    version = db.session.scalar(select(GameSession.version).where(GameSession.id == session_id))
    if version is None:
        return None
    tags = {tag.strip().removeprefix("W/") for tag in wanted.split(",")}
    if etag(version) in tags or "*" in tags:
        return Response(status=304, headers={"ETag": etag(version)})
    return None


@bp.get("/sessions")
def list_sessions():
    """List sessions, latest activity first; filter by game, player, status, dates; paged."""
    wanted = SessionFilterForm(formdata=request.args).session_filter()
    found = services.list_sessions(wanted)
    return {
        "sessions": found.sessions,
        "total": found.total,
        "page": wanted.page,
        "pages": found.pages,
    }


@bp.post("/sessions")
def create_session():
    """Create a session: game, players in seat order, house rules."""
    session = services.create_session(json_body())
    location = url_for("api.get_session", session_id=session.id)
    return with_etag(session_payload(session), 201, {"Location": location})


@bp.get("/sessions/<int:session_id>")
def get_session(session_id: int):
    """Show a session: players, rules, rounds, totals, state, winners; 304 if unchanged."""
    rounds_wanted(request.args.get("rounds"))  # a bad ?rounds= is refused first
    unchanged = not_modified(session_id)
    if unchanged is not None:
        return unchanged
    return with_etag(session_payload(services.load_session(session_id, with_rounds=False)))


@bp.post("/sessions/<int:session_id>/finish")
def finish_session(session_id: int):
    """End a session by the table's decision; winners are the highest totals."""
    return with_etag(session_payload(services.finish_session(session_id, version=if_match())))


@bp.post("/sessions/<int:session_id>/rounds")
def record_round(session_id: int):
    """Record a round, or with ?dry_run=1 check and score it without storing."""
    body = json_body()
    if request.args.get("dry_run", "").lower() in ("1", "true", "yes"):
        return {"round": services.check_round(session_id, body), "dry_run": True}, 200
    rounds_wanted(request.args.get("rounds"))
    played, session = services.record_round(session_id, body, version=if_match())
    answer = {"round": services.round_dict(played), "session": session_payload(session)}
    return with_etag(answer, 201)


@bp.put("/sessions/<int:session_id>/rounds/<int:number>")
def replace_round(session_id: int, number: int):
    """Replace a round's input; later rounds are replayed through the rules."""
    rounds_wanted(request.args.get("rounds"))
    session = services.replace_round(session_id, number, json_body(), version=if_match())
    return with_etag(session_payload(session))


@bp.put("/sessions/<int:session_id>/rounds")
def replace_rounds(session_id: int):
    """Replace several rounds at once (a hand and the next one's dealer); all or nothing."""
    rounds_wanted(request.args.get("rounds"))
    body = json_body()
    session = services.replace_rounds(session_id, body.get("rounds"), version=if_match())
    return with_etag(session_payload(session))


@bp.delete("/sessions/<int:session_id>/rounds/<int:number>")
def delete_round(session_id: int, number: int):
    """Undo the last round (it stays in the audit trail)."""
    rounds_wanted(request.args.get("rounds"))
    return with_etag(session_payload(services.delete_round(session_id, number, version=if_match())))


@bp.get("/sessions/<int:session_id>/audit")
def audit(session_id: int):
    """List every change to the session, oldest first."""
    return {"entries": services.audit_entries(session_id)}


@bp.get("/rule-sets")
def list_rule_sets():
    """List the table's saved house rules."""
    return {"rule_sets": rule_sets.list_rule_sets()}


@bp.put("/rule-sets/<path:name>")
def save_rule_set(name: str):
    """Create or replace a saved set of house rules: a game, a preset and its changes."""
    return rule_sets.rule_set_dict(rule_sets.save_rule_set(name, json_body()))


@bp.delete("/rule-sets/<path:name>")
def delete_rule_set(name: str):
    """Delete a saved set; sessions made from it keep their rules."""
    rule_sets.delete_rule_set(name)
    return {"deleted": name}
