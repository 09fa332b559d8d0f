"""One error vocabulary: every code raised or answered is registered, documented, of its kind,
and answered with the status the API always gave it."""

from __future__ import annotations

import re

import pytest

from refapp.api.errors import HTTP_CODES, HTTP_ERROR_CODES, error_response
from refapp.error_docs import ROOT, all_sites, documents, errors_table, regenerate
from refapp.games import errors
from refapp.games.codes import CODES, Kind, UnknownCode, status_of
from refapp.serving.front import FrontRefusal

from .conftest import SEED_TURN, turn

#: the statuses the API answered before the registry (api/errors.STATUS; any other code 422)
STATUS_BEFORE = {
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
    "organizer_required": 403,
    "busy": 503,
    "bad_request": 400,
    "request_timeout": 408,
    "headers_too_large": 431,
    "not_implemented": 501,
    "unavailable": 503,
    "server_error": 500,
}
#: codes split from stale_round (409 as it was) and the HTTP errors' own-status fallback
NEW_CODES = {"stale_tag": 409, "lost_race": 409, "http_error": 400}
NGINX = ROOT / "docs" / "nginx-refapp.conf"
SITES = all_sites()


def nginx_codes() -> dict[str, int]:
    """Return the codes nginx answers itself (docs/nginx-refapp.conf) with their statuses."""
    found = re.findall(r"return (\d{3}) '\{\"error\": \{\"code\": \"(\w+)\"", NGINX.read_text())
    return {code: int(status) for status, code in found}


def test_the_scan_finds_codes_of_every_sort_of_site():
    hows = {site.how for site in SITES}
    assert {"RuleViolation", "MalformedInput", "NotFound", "Conflict", "AccessDenied"} <= hows
    assert {"error_response", "refusal", "listed", "compared", "Busy"} <= hows
    assert len({site.code for site in SITES}) > 80
    assert nginx_codes()["unavailable"] == 503


def test_every_code_raised_or_answered_is_registered():
    dynamic = [site for site in SITES if site.code == "<dynamic>"]
    assert dynamic == [], "a code must be a literal so it can be checked and documented"
    unknown = [site for site in SITES if site.code not in CODES]
    assert unknown == []
    assert set(nginx_codes()) <= set(CODES)


def test_every_registered_code_is_raised_or_answered_somewhere():
    used = {site.code for site in SITES} | set(nginx_codes())
    assert sorted(set(CODES) - used) == []


def test_every_code_is_raised_as_the_type_of_its_kind():
    wrong = []
    for site in SITES:
        kind_type = getattr(errors, site.how, None)
        if kind_type is None or not isinstance(kind_type, type):
            continue
        kind = getattr(kind_type, "kind", None)
        if kind is None or CODES[site.code].kind != kind:
            wrong.append((site.code, CODES[site.code].kind, site.how, site.path, site.line))
    assert wrong == []


def test_the_types_are_siblings_under_one_base():
    types = [errors.MalformedInput, errors.RuleViolation, errors.NotFound, errors.Conflict]
    for one in [*types, errors.AccessDenied]:
        assert issubclass(one, errors.Refusal)
        assert [other for other in types if other is not one and issubclass(one, other)] == []
    found = errors.NotFound("There is no session {value}.", None, value=7)
    assert (found.code, found.kind, found.message) == ("not_found", Kind.NOT_FOUND, found.message)
    assert "7" in found.message


def test_no_status_is_written_beside_a_code_the_registry_is_the_one_table():
    written = [(site.code, site.status, site.path) for site in SITES if site.status is not None]
    assert written == []  # the app's HTTP errors and the front's refusals read codes.CODES
    assert sorted(HTTP_CODES.values()) == sorted(HTTP_ERROR_CODES)  # one code per status
    assert [FrontRefusal(code, "", True).code for code in ("too_large", "busy")] == [413, 503]
    assert all(CODES[code].status == status for code, status in nginx_codes().items())


def test_the_registry_keeps_every_status_the_api_answered():
    for code, entry in CODES.items():
        before = NEW_CODES.get(code, STATUS_BEFORE.get(code, 422))
        assert entry.status == before, code
    assert all(CODES[code].kind == Kind.CONFLICT for code in NEW_CODES if code != "http_error")


def test_every_code_is_documented_and_the_documents_are_current():
    text = (ROOT / "docs" / "errors.md").read_text()
    assert errors_table() in text
    missing = [code for code in CODES if f"| `{code}` | {CODES[code].status} |" not in text]
    assert missing == []
    for path in documents():
        current = path.read_text(encoding="utf-8")
        assert regenerate(current) == current, f"run python -m refapp.error_docs: {path}"
    api = (ROOT / "docs" / "API.md").read_text()
    assert "docs/errors.md" in api and "docs/rules/" in api


#: words that would point a reader outside the project (built here, so this file names none)
ELSEWHERE = ("/".join(["..", "shared"]), " ".join(["the", "spec"]))


def test_the_documents_cite_only_files_the_project_has():
    for path in [*documents(), ROOT / "docs" / "API.md", ROOT / "docs" / "ARCHITECTURE.md"]:
        text = path.read_text(encoding="utf-8")
        assert not any(word in text.lower() for word in ELSEWHERE), path.name
        for cited in re.findall(r"docs/[\w/.-]+\.md", text):
            assert (ROOT / cited).exists(), (path.name, cited)


def test_an_unregistered_code_fails_loudly(app):
    with pytest.raises(UnknownCode):
        status_of("no_such_code")
    with app.test_request_context("/api/sessions"), pytest.raises(UnknownCode):
        error_response("no_such_code", "A code nobody registered.")
    with app.test_request_context("/api/sessions"), pytest.raises(UnknownCode):
        error_response("stale_rounds", "A typo is not a 422.")


def answer(response) -> tuple[int, str]:
    """Return a response's status and error code."""
    return response.status_code, response.get_json()["error"]["code"]


def test_each_status_through_the_client(client, api):
    sid = api.create()["id"]
    assert api.record(sid, {**SEED_TURN, "expected_round": 1}).status_code == 201
    base = f"/api/sessions/{sid}"
    late = api.record(sid, {**turn("Ben"), "expected_round": 1})
    assert answer(late) == (409, "stale_round")
    old = client.post(f"{base}/rounds", json=turn("Ben"), headers={"If-Match": '"1"'})
    assert answer(old) == (409, "stale_round")
    assert answer(client.post("/api/sessions", data="not json")) == (400, "invalid_json")
    assert answer(client.get("/api/sessions/999999")) == (404, "not_found")
    assert answer(client.delete("/api/sessions")) == (405, "method_not_allowed")
    big = client.post("/api/sessions", data="x" * (300 * 1024), content_type="application/json")
    assert answer(big) == (413, "too_large")
    own = api.record(sid, {**turn("Ben"), "votes": {"Ann": 2, "Cy": 1, "Dee": 1}})
    assert answer(own) == (422, "vote_own_card")
    assert answer(api.record(sid, {**turn("Ben"), "votes": "Ann"})) == (422, "invalid_value")


def test_the_password_refusal_through_the_client(guarded):
    refused = guarded.test_client().post("/api/sessions", json={"game": "dixit"})
    assert answer(refused) == (401, "sign_in_required")


@pytest.mark.parametrize("code", ["too_many_attempts", "busy", "server_error", "request_timeout"])
def test_statuses_the_client_cannot_reach_cheaply(app, code):
    with app.test_request_context("/api/sessions"):
        response = error_response(code, "words")
    assert response.status_code == STATUS_BEFORE[code]
