"""API routes: sessions, rounds (record, dry run, replace, undo), finish and the audit trail."""

import re
from collections.abc import Mapping

from flask import Response, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from .. import services
from ..bodies import json_body
from ..club import current_group_id
from ..extensions import db
from ..games.errors import MalformedInput, Refusal, quote
from ..models import GameSession
from ..services import answers, idempotency, location, rule_sets, writes
from ..services.listing import read_filter
from . import bp
from .errors import rule_violation

bp.register_error_handler(Refusal, rule_violation)


def rounds_wanted(raw: object) -> int | None:
    """Read ``?rounds=``: ``all`` (None: every round), ``none`` (0) or ``last:N`` (N); without
    it, the last ``answers.DEFAULT_ROUNDS``."""
    try:
        return answers.rounds_wanted(None if raw is None else str(raw))
    except ValueError:
        raise MalformedInput(
            "invalid_value",
            "rounds must be all, none or last:N (a whole number), not {value}.",
            "rounds",
            value=quote(raw),
        ) from None


def session_payload(
    session: GameSession, state: dict[str, object] | None = None
) -> dict[str, object]:
    """Return the API's session object for a stored session, with the rounds ``?rounds=`` asks
    (``state``: the state after its last round, when the write has just made it)."""
    last = rounds_wanted(request.args.get("rounds"))
    return services.session_dict(services.describe(session, last, state))


def written_payload(
    session: services.SessionRow, state: dict[str, object] | None = None
) -> dict[str, object]:
    """Return the API's session object for a session a hot write (record, correct, undo) just
    stored below the ORM, as ``session_payload`` gives it."""
    return services.written_dict(session, rounds_wanted(request.args.get("rounds")), state)


def etag(version: object) -> str:
    """Return a session version as the strong entity tag the API sends and compares."""
    return f'"{version}"'


def with_etag(
    payload: Mapping[str, object], status: int = 200, headers: dict[str, str] | None = None
) -> ResponseReturnValue:
    """Answer a session object (or a write's answer holding one) with its version as ETag."""
    held = payload.get("session", payload)
    session = held if isinstance(held, Mapping) else payload
    return payload, status, {**(headers or {}), "ETag": etag(session["version"])}


#: one entity tag of an If-Match list: optionally weak (W/), its opaque text in double quotes
ENTITY_TAG = re.compile(r'\s*(W/)?"([\x21\x23-\x7e\x80-\U0010ffff]*)"\s*')
#: the longest If-Match read: a few tags a phone kept, far past any honest list
IF_MATCH_MAX = 1000


def if_match() -> writes.Precondition | None:
    """Read a write's optional ``If-Match`` (RFC 9110); None when absent or ``*``.

    A list of tags may match by any of its strong tags; a weak tag (``W/"3"``) never matches a
    write, so a list of weak tags only is a precondition nothing meets (409 ``stale_round``;
    ``stale_tag`` for a player or saved house rules). Anything else is refused before the write
    starts.
    """
    headers = request.headers.getlist("If-Match")
    if not headers:
        return None
    raw = ", ".join(headers)
    if raw.strip() == "*":
        return None
    tags = entity_tags(raw)
    if tags is None:
        raise MalformedInput(
            "invalid_value",
            'If-Match must be the session\'s version in quotes, like "12", or a list of such '
            "tags, not {value}.",
            "If-Match",
            value=quote(raw[:100]),
        )
    return writes.Precondition(frozenset(text for weak, text in tags if not weak))


def entity_tags(raw: str) -> list[tuple[bool, str]] | None:
    """Return a list of entity tags as (weak, opaque text), or None when it is not one."""
    if len(raw) > IF_MATCH_MAX:
        return None
    tags: list[tuple[bool, str]] = []
    at = 0
    while at < len(raw):
        if raw[at] in ", \t":  # empty list elements are allowed (RFC 9110 section 5.6.1)
            at += 1
            continue
        found = ENTITY_TAG.match(raw, at)
        if found is None:
            return None
        tags.append((found.group(1) is not None, found.group(2)))
        at = found.end()
        if at < len(raw) and raw[at] != ",":
            return None
    return tags or None


def write_params() -> writes.Precondition | None:
    """Check a write's ``?rounds=`` and read its ``If-Match`` before anything is written.

    Every write route calls this first, so a bad parameter answers 422 with nothing stored (the
    answer's ``session_payload`` reads ``?rounds=`` again, already known good).
    """
    rounds_wanted(request.args.get("rounds"))
    return if_match()


def not_modified(session_id: int) -> Response | None:
    """Answer 304 when ``If-None-Match`` names the session's current version: one small query."""
    wanted = request.headers.get("If-None-Match")
    if not wanted or session_id > services.ID_MAX:
        return None
    version = db.session.scalar(
        select(GameSession.version).where(
            GameSession.id == session_id, GameSession.group_id == current_group_id()
        )
    )
    if version is not None and answers.poll_matches(wanted, version):
        return Response(status=304, headers={"ETag": etag(version)})
    return None


@bp.get("/sessions")
def list_sessions() -> ResponseReturnValue:
    """List sessions, latest activity first; filter by game, player, status, dates; paged."""
    wanted = read_filter(request.args)
    found = services.list_sessions(wanted)
    return {
        "sessions": found.sessions,
        "total": found.total,
        "page": wanted.page,
        "pages": found.pages,
    }


@bp.post("/sessions")
def create_session() -> ResponseReturnValue:
    """Create a session: game, players in seat order, house rules."""
    write_params()
    session = services.create_session(json_body())
    location = url_for("api.get_session", session_id=session.id)
    return with_etag(session_payload(session), 201, {"Location": location})


@bp.get("/sessions/<int:session_id>")
def get_session(session_id: int) -> ResponseReturnValue:
    """Show a session: players, rules, rounds, totals, state, winners; 304 if unchanged."""
    rounds_wanted(request.args.get("rounds"))  # a bad ?rounds= is refused first
    unchanged = not_modified(session_id)
    if unchanged is not None:
        return unchanged
    text, version = answers.session_json(session_id, rounds_wanted(request.args.get("rounds")))
    return Response(text, mimetype="application/json", headers={"ETag": etag(version)})


@bp.post("/sessions/<int:session_id>/finish")
def finish_session(session_id: int) -> ResponseReturnValue:
    """End a session by the table's decision; winners are the highest totals."""
    expected = write_params()
    session = services.finish_session(session_id, version=expected)
    return with_etag(session_payload(session))


@bp.put("/sessions/<int:session_id>/location")
def set_location(session_id: int) -> ResponseReturnValue:
    """Set or clear where a session was played (``{"location": str | null}``); audited."""
    expected = write_params()
    body = json_body()
    if "location" not in body:
        raise MalformedInput("missing_field", "Send the location, or null to clear it.", "location")
    session = location.set_location(session_id, body["location"], version=expected)
    return with_etag(session_payload(session))


def write_key() -> str | None:
    """Read a write's optional ``Idempotency-Key`` (refused ``invalid_value`` when malformed)."""
    return idempotency.sent_key(request.headers.getlist(idempotency.HEADER))


@bp.errorhandler(idempotency.Stored)
def stored_before(stored: idempotency.Stored) -> ResponseReturnValue:
    """Answer a write whose key was stored before: what it stored, and the session now (200)."""
    session_id = request.view_args.get("session_id") if request.view_args else None
    session = services.load_session(session_id, with_rounds=False)
    payload = session_payload(session)
    answer: dict[str, object] = payload
    if stored.replay.action == "record_round":
        answer = {"round": stored_round(session.id, stored.replay.number), "session": payload}
    return with_etag(answer, 200, {"Idempotent-Replayed": "true"})


def stored_round(session_id: int, number: int | None) -> dict[str, object] | None:
    """Return the round a key recorded, as stored (None once it was undone)."""
    if number is None:
        return None
    found = services.round_rows(session_id, number - 1, number)
    return services.round_dict(found[0]) if found else None


@bp.post("/sessions/<int:session_id>/rounds")
def record_round(session_id: int) -> ResponseReturnValue:
    """Record a round, or with ?dry_run=1 check and score it without storing."""
    body = json_body()
    args = request.args  # a missing key's get() raises and catches an HTTP error inside
    if "dry_run" in args and args["dry_run"].lower() in ("1", "true", "yes"):
        return {"round": services.check_round(session_id, body), "dry_run": True}, 200
    expected, key = write_params(), write_key()
    played, session = services.record_round(session_id, body, version=expected, key=key)
    answer = {
        "round": services.round_dict(played),
        "session": written_payload(session, played.state),
    }
    return with_etag(answer, 201)


@bp.put("/sessions/<int:session_id>/rounds/<int:number>")
def replace_round(session_id: int, number: int) -> ResponseReturnValue:
    """Replace a round's input; later rounds are replayed through the rules."""
    expected, key = write_params(), write_key()
    session = services.replace_round(session_id, number, json_body(), version=expected, key=key)
    return with_etag(written_payload(session, services.state_after(session)))


@bp.put("/sessions/<int:session_id>/rounds")
def replace_rounds(session_id: int) -> ResponseReturnValue:
    """Replace several rounds at once (a hand and the next one's dealer); all or nothing."""
    expected, key = write_params(), write_key()
    body = json_body()
    session = services.replace_rounds(session_id, body.get("rounds"), version=expected, key=key)
    return with_etag(written_payload(session, services.state_after(session)))


@bp.delete("/sessions/<int:session_id>/rounds/<int:number>")
def delete_round(session_id: int, number: int) -> ResponseReturnValue:
    """Undo the last round (it stays in the audit trail)."""
    expected, key = write_params(), write_key()
    session = services.delete_round(session_id, number, version=expected, key=key)
    return with_etag(written_payload(session, services.state_after(session)))


@bp.get("/sessions/<int:session_id>/audit")
def audit(session_id: int) -> ResponseReturnValue:
    """List every change to the session, oldest first."""
    return {"entries": services.audit_entries(session_id)}


@bp.get("/rule-sets")
def list_rule_sets() -> ResponseReturnValue:
    """List the table's saved house rules."""
    return {"rule_sets": rule_sets.list_rule_sets()}


@bp.get("/rule-sets/<path:name>")
def get_rule_set(name: str) -> ResponseReturnValue:
    """Show one saved set of house rules, with its ETag for If-Match."""
    saved = rule_sets.find_rule_set(name)
    return rule_sets.rule_set_dict(saved), 200, {"ETag": f'"{rule_sets.rule_set_tag(saved)}"'}


@bp.put("/rule-sets/<path:name>")
def save_rule_set(name: str) -> ResponseReturnValue:
    """Create or replace a saved set of house rules: a game, a preset and its changes."""
    expected = if_match()
    saved = rule_sets.save_rule_set(name, json_body(), expected=expected)
    return rule_sets.rule_set_dict(saved), 200, {"ETag": f'"{rule_sets.rule_set_tag(saved)}"'}


@bp.delete("/rule-sets/<path:name>")
def delete_rule_set(name: str) -> ResponseReturnValue:
    """Delete a saved set (If-Match: only the one this device saw); sessions keep their rules."""
    rule_sets.delete_rule_set(name, expected=if_match())
    return {"deleted": name}
