"""Export and import (replayed through the rules), the deltas CSV, backup and restore."""

from __future__ import annotations

import copy
import csv
import io
import json
import re

import pytest

from refapp.extensions import db
from refapp.games import get_game
from refapp.games.game import Table
from refapp.models import AuditEntry, GameSession, Player, Round, SessionPlayer
from refapp.services import archive

from .conftest import SEED_TURN, turn

MODELS = (GameSession, SessionPlayer, Player, Round, AuditEntry)

#: Mighty hands from the golden cases (MG-01, MG-02, MG-03): one plain win, one loss, a critic
MIGHTY_HANDS = [
    {
        "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
        "friend": {"card": "SA", "player": "Cy"},
        "opposition_points": 3,
    },
    {
        "contract": {"boss": "Ben", "bid": 18, "trump": "C"},
        "friend": {"card": "JK", "player": "Dee"},
        "opposition_points": 5,
    },
    {
        "contract": {"boss": "Cy", "bid": 14, "trump": "D"},
        "friend": {"card": "SA", "player": "Eve"},
        "opposition_points": 6,
    },
]

#: a Dalmuti hand with the full tax (DG-01), then a finish order of its own
DALMUTI_TAX = {"greater_peasant": [5, 6], "greater_dalmuti": [12, 12], "lesser_peasant": [7]}
DALMUTI_TAX["lesser_dalmuti"] = [11]


def rows(app) -> dict[str, int]:
    """Count the stored rows of every table."""
    with app.app_context():
        return {model.__name__: db.session.query(model).count() for model in MODELS}


def export(client, session_id: int) -> dict:
    """Return a session's export (asserting success)."""
    response = client.get(f"/api/sessions/{session_id}/export")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def comparable(session: dict) -> dict:
    """Return the session object without what an import renews (its id, its last change)."""
    renewed = ("id", "updated_at", "version")
    return {key: value for key, value in session.items() if key not in renewed}


def assert_round_trip(api, original: dict, source: str = "export") -> dict:
    """Import an export and check the copy has the same rounds, totals, end and audit trail."""
    body = export(api.client, original["id"])
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    copied = response.get_json()
    assert response.headers["Location"].endswith(f"/api/sessions/{copied['id']}")
    assert copied["id"] != original["id"]
    before = api.session(original["id"])
    assert comparable(copied) == comparable(before)
    assert comparable(api.session(copied["id"])) == comparable(before)
    trail = api.audit(copied["id"])
    assert trail[:-1] == api.audit(original["id"])
    assert trail[-1]["action"] == "import_session"
    assert trail[-1]["before"] is None
    assert trail[-1]["after"] == {
        "source": source,
        "original_id": original["id"],
        "exported_at": body["exported_at"],
        "rounds": len(before["rounds"]),
    }
    return copied


def dixit_session(api) -> dict:
    """Play a Dixit session to its target with a correction and an undo in its trail."""
    session = api.create(name="Friday table", rules={"target_score": 10})
    sid = session["id"]
    for body in (SEED_TURN, turn("Ben"), turn("Cy")):
        assert api.record(sid, body).status_code == 201
    corrected = {**SEED_TURN, "votes": {"Ben": 2, "Cy": 1, "Dee": 2}}
    assert api.client.put(f"/api/sessions/{sid}/rounds/1", json=corrected).status_code == 200
    assert api.client.delete(f"/api/sessions/{sid}/rounds/3").status_code == 200
    for teller in ("Cy", "Dee", "Ann", "Ben", "Cy", "Dee"):
        if api.session(sid)["finished"]:
            break
        assert api.record(sid, turn(teller)).status_code == 201
    return api.session(sid)


def mighty_session(api) -> dict:
    """Play three Mighty hands, correct one and end the session by the table's decision."""
    session = api.create(players=("Ann", "Ben", "Cy", "Dee", "Eve"), game="mighty")
    sid = session["id"]
    for hand in MIGHTY_HANDS:
        assert api.record(sid, hand).status_code == 201
    fixed = {**MIGHTY_HANDS[1], "opposition_points": 8}
    assert api.client.put(f"/api/sessions/{sid}/rounds/2", json=fixed).status_code == 200
    assert api.client.post(f"/api/sessions/{sid}/finish").status_code == 200
    return api.session(sid)


def dalmuti_session(api) -> dict:
    """Play Dalmuti from an initial draw to its hand count, with a revolution and a correction."""
    draw = {"Ann": 7, "Ben": 1, "Cy": "J", "Dee": 3, "Eve": 12}
    session = api.create(
        players=("Ann", "Ben", "Cy", "Dee", "Eve"),
        game="dalmuti",
        rules={"hands_to_play": 3},
        initial_draw=draw,
    )
    sid = session["id"]
    hands = [
        {"tribute": DALMUTI_TAX, "finish_order": ["Cy", "Ann", "Eve", "Ben", "Dee"]},
        {
            "revolution": {"player": "Ben", "kind": "plain"},
            "finish_order": ["Ann", "Cy", "Eve", "Dee", "Ben"],
        },
        {"tribute": DALMUTI_TAX, "finish_order": ["Eve", "Ann", "Cy", "Ben", "Dee"]},
    ]
    for hand in hands:
        assert api.record(sid, hand).status_code == 201, api.record(sid, hand).get_json()
    fixed = {**hands[1], "finish_order": ["Cy", "Ann", "Eve", "Dee", "Ben"]}
    response = api.client.put(f"/api/sessions/{sid}/rounds/2", json=fixed)
    assert response.status_code == 200, response.get_json()
    return api.session(sid)


# -- export and import ----------------------------------------------------------------------------


def test_dixit_round_trip_keeps_rounds_totals_winners_and_the_trail(api):
    original = dixit_session(api)
    assert original["finished"] and original["finished_by"] == "game"
    actions = [entry["action"] for entry in api.audit(original["id"])]
    assert "replace_round" in actions and "delete_round" in actions
    copied = assert_round_trip(api, original)
    assert copied["winners"] == original["winners"] != []
    assert copied["rounds"][0]["corrected_at"] is not None


def test_mighty_round_trip_keeps_a_table_finished_session(api):
    original = mighty_session(api)
    assert original["finished_by"] == "table"
    copied = assert_round_trip(api, original)
    assert copied["finished_by"] == "table"
    assert copied["totals"] == original["totals"]


def test_dalmuti_round_trip_replays_the_initial_draw(api):
    original = dalmuti_session(api)
    assert original["finished_by"] == "game"
    body = export(api.client, original["id"])
    assert body["setup"] == {"initial_draw": {"Ann": 7, "Ben": 1, "Cy": "J", "Dee": 3, "Eve": 12}}
    copied = assert_round_trip(api, original)
    assert copied["rounds"][0]["result"]["ranks_before"] == ["Ben", "Dee", "Ann", "Eve", "Cy"]


def test_a_running_session_is_imported_running_and_can_go_on(api):
    session = api.create()
    api.record(session["id"], SEED_TURN)
    copied = assert_round_trip(api, api.session(session["id"]))
    assert not copied["finished"]
    assert api.record(copied["id"], turn("Ben")).status_code == 201


def test_export_shape(api, client):
    session = dixit_session(api)
    response = client.get(f"/api/sessions/{session['id']}/export")
    disposition = response.headers["Content-Disposition"]
    assert disposition == f'attachment; filename="refapp-dixit-session-{session["id"]}.json"'
    body = response.get_json()
    assert list(body)[:2] == ["format", "version"]
    assert (body["format"], body["version"], body["id"]) == ("refapp-session", 1, session["id"])
    for key in ("game", "name", "players", "rules", "created_at", "finished", "finished_by"):
        assert body[key] == session[key]
    assert body["setup"] == {}
    assert body["totals"] == session["totals"] and body["winners"] == session["winners"]
    assert body["rounds"] == session["rounds"]
    assert body["audit"] == api.audit(session["id"])


def test_export_of_an_unknown_session_is_not_found(client):
    response = client.get("/api/sessions/999/export")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_stored_results_are_never_trusted(api, app):
    session = api.create()
    api.record(session["id"], SEED_TURN)
    body = export(api.client, session["id"])
    body["rounds"][0]["result"]["deltas"] = {"Ann": 99, "Ben": 0, "Cy": 0, "Dee": 0}
    body["totals"] = {"Ann": 99}
    stored = rows(app)
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("import_disagrees", "rounds.0.result.deltas.Ann")
    assert "99" in error["message"] and "3" in error["message"]
    assert rows(app) == stored


def test_a_tampered_round_refuses_the_whole_import(api, app):
    original = dixit_session(api)
    body = json.loads(json.dumps(export(api.client, original["id"])).replace('"Dee"', '"Zed"'))
    body["rounds"][1]["input"]["votes"]["Ann"] = 2  # Ben told; Ann laid card 2
    stored = rows(app)
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["round"], error["field"]) == ("vote_own_card", 2, "votes.Ann")
    assert rows(app) == stored


def test_a_round_after_the_end_is_refused(api, app):
    body = export(api.client, dixit_session(api)["id"])
    body["rounds"].append({"input": turn("Ann")})
    stored = rows(app)
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 409
    error = response.get_json()["error"]
    assert (error["code"], error["round"]) == ("session_finished", len(body["rounds"]))
    assert rows(app) == stored


MINIMAL = {
    "format": "refapp-session",
    "version": 1,
    "game": "dixit",
    "players": ["Ann", "Ben", "Cy", "Dee"],
    "rounds": [{"input": SEED_TURN}],
}


def test_a_minimal_export_imports(api):
    response = api.client.post("/api/sessions/import", json=MINIMAL)
    assert response.status_code == 201
    copied = response.get_json()
    assert copied["totals"] == {"Ann": 3, "Ben": 4, "Cy": 3, "Dee": 0}
    assert [entry["action"] for entry in api.audit(copied["id"])] == ["import_session"]


def seed_result(**extra) -> dict:
    """Return the minimal export's round result as the rules score it, with extra keys."""
    game = get_game("dixit")
    rules = game.resolve_rules({})
    seated, initial = game.start(MINIMAL["players"], rules, {})
    outcome = game.play(Table(tuple(seated), dict(rules)), initial, SEED_TURN)
    return {"deltas": outcome.result["deltas"], **extra}


def edited(**changes) -> dict:
    """Return the minimal export with keys changed (None removes a key)."""
    body = copy.deepcopy(MINIMAL)
    for key, value in changes.items():
        if value is None:
            body.pop(key)
        else:
            body[key] = value
    return body


@pytest.mark.parametrize(
    ("body", "code", "field", "number"),
    [
        (edited(format=None), "missing_field", "format", None),
        (edited(format="refapp-backup"), "invalid_value", "format", None),
        (edited(version=2), "invalid_value", "version", None),
        (edited(version=True), "invalid_value", "version", None),
        (edited(game="chess"), "unknown_game", "game", None),
        (edited(players=None), "missing_field", "players", None),
        (edited(players=["Ann", "Ben"]), "bad_player_count", "players", None),
        (edited(players=["Ann", "Ann", "Cy", "Dee"]), "duplicate_player", "players.1", None),
        (edited(rules={"nope": 1}), "invalid_rules", "rules.nope", None),
        (edited(setup={"initial_draw": {}}), "invalid_value", "setup.initial_draw", None),
        (edited(name=7), "invalid_value", "name", None),
        (edited(rounds=None), "missing_field", "rounds", None),
        (edited(rounds={}), "invalid_value", "rounds", None),
        (edited(rounds=[5]), "invalid_value", "rounds.0", 1),
        (edited(rounds=[{}]), "missing_field", "rounds.0.input", 1),
        (edited(rounds=[{"input": []}]), "invalid_value", "rounds.0.input", 1),
        (edited(rounds=[{"number": 2, "input": SEED_TURN}]), "invalid_value", "rounds.0.number", 1),
        (
            edited(rounds=[{"input": SEED_TURN, "recorded_at": "yesterday"}]),
            "invalid_value",
            "rounds.0.recorded_at",
            1,
        ),
        (edited(rounds=[{"input": {"storyteller": "Eve"}}]), "unknown_player", "storyteller", 1),
        (edited(created_at=12), "invalid_value", "created_at", None),
        (edited(finished="yes"), "invalid_value", "finished", None),
        (edited(finished=True), "invalid_value", "finished_by", None),
        (edited(finished_by="table"), "invalid_value", "finished_by", None),
        (edited(finished=True, finished_by="referee"), "invalid_value", "finished_by", None),
        (edited(finished=True, finished_by="game"), "invalid_value", "finished_by", None),
        (edited(audit="all"), "invalid_value", "audit", None),
        (edited(audit=[{"action": "DROP TABLE"}]), "invalid_value", "audit.0.action", None),
        (edited(audit=[{"at": None}]), "missing_field", "audit.0.action", None),
        (edited(audit=[{"action": "x"}]), "invalid_value", "audit.0.action", None),
        (
            edited(audit=[{"action": "record_round", "round": 0}]),
            "invalid_value",
            "audit.0.round",
            None,
        ),
        (
            edited(audit=[{"action": "create_session", "at": "soon"}]),
            "invalid_value",
            "audit.0.at",
            None,
        ),
    ],
)
def test_malformed_imports_store_nothing(client, app, body, code, field, number):
    stored = rows(app)
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["field"], error.get("round")) == (code, field, number)
    assert rows(app) == stored


@pytest.mark.parametrize("raw", ["[]", "null", "not json", '"text"'])
def test_an_import_that_is_not_an_object_is_invalid_json(client, app, raw):
    response = client.post("/api/sessions/import", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"
    assert rows(app)["GameSession"] == 0


def test_imported_players_are_the_same_people(api, app):
    api.create()
    api.client.post("/api/sessions/import", json=edited(players=["Ann", "Ben", "Cy", "Dee"]))
    assert rows(app)["Player"] == 4


# -- the CSV ----------------------------------------------------------------------------------


def test_csv_of_deltas_has_a_row_per_round_and_a_total_row(api, client):
    names = ("Ann, Jr.", 'Bo "B"', "Çé 민수", "=SUM(A1)")
    session = api.create(players=names)
    sid = session["id"]
    api.record(sid, turn("Ann, Jr.", names))
    api.record(sid, turn('Bo "B"', names))
    response = client.get(f"/sessions/{sid}.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.mimetype_params["charset"] == "utf-8"
    disposition = response.headers["Content-Disposition"]
    assert disposition == f'attachment; filename="refapp-dixit-session-{sid}.csv"'
    assert response.data.decode("utf-8") == (
        "\ufeff"
        '"round","Ann, Jr.","Bo ""B""","Çé 민수","\'=SUM(A1)"\r\n'
        "1,0,2,2,2\r\n"
        "2,2,0,2,2\r\n"
        '"total",2,2,4,4\r\n'
    )


#: names a spreadsheet would run as formulas: at the start, or after a locale's separator
RISKY_NAMES = ("x;=1+1", '=HYPERLINK("http://evil.test","go")', "a,b", "-2", "@x", "y|+1")


def locale_cells(line: str, separator: str) -> list[str]:
    """Split a CSV line as a spreadsheet whose list separator is ``separator`` would: a double
    quote opens or closes quoting wherever it stands, "" inside quotes is one quote."""
    cells, current, quoted, index = [], "", False, 0
    while index < len(line):
        char = line[index]
        if char == '"' and quoted and line[index + 1 : index + 2] == '"':
            current, index = current + '"', index + 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            cells.append(current)
            current = ""
        else:
            current += char
        index += 1
    return [*cells, current]


def test_csv_names_keep_whole_and_quoted_as_text(api, client):
    session = api.create(players=RISKY_NAMES)
    api.record(session["id"], turn(RISKY_NAMES[0], RISKY_NAMES))
    text = client.get(f"/sessions/{session['id']}.csv").data.decode("utf-8-sig")
    header, *rows_ = list(csv.reader(io.StringIO(text)))
    quoted = ["'x;=1+1", '\'=HYPERLINK("http://evil.test","go")', "a,b", "'-2", "'@x", "'y|+1"]
    assert header == ["round", *quoted]
    assert rows_[0][0] == "1" and rows_[-1][0] == "total"
    first_line = text.splitlines()[0]
    assert first_line.startswith('"round","\'x;=1+1",')  # every text cell in double quotes


@pytest.mark.parametrize("separator", [",", ";", "\t", "|"])
def test_csv_starts_no_formula_whatever_the_separator(api, client, separator):
    session = api.create(players=RISKY_NAMES)
    api.record(session["id"], turn(RISKY_NAMES[0], RISKY_NAMES))
    text = client.get(f"/sessions/{session['id']}.csv").data.decode("utf-8-sig")
    for line in text.splitlines():
        for value in locale_cells(line, separator):
            number = re.fullmatch(r"-?\d+", value.strip())
            assert number or not value.lstrip().startswith(("=", "+", "-", "@")), (line, value)


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("Ann", "Ann"),
        ("x;=1+1", "'x;=1+1"),
        ("x; =1", "'x; =1"),
        ("a\t@b", "'a\t@b"),
        ("a|-b", "'a|-b"),
        ("Anne-Marie", "Anne-Marie"),
        ("a, b", "a, b"),
    ],
)
def test_a_cell_is_quoted_when_a_formula_could_start_after_any_separator(text, cell):
    assert archive.cell(text) == cell


def test_csv_of_a_session_without_rounds_and_of_none(api, client):
    session = api.create()
    text = client.get(f"/sessions/{session['id']}.csv").data.decode("utf-8-sig")
    assert text == '"round","Ann","Ben","Cy","Dee"\r\n"total",0,0,0,0\r\n'
    assert client.get("/sessions/999.csv").status_code == 404


# -- backup and restore ---------------------------------------------------------------------------


def every_session(api) -> list[tuple[dict, list]]:
    """Return every session (oldest first) with its audit trail, without ids."""
    with api.client.application.app_context():
        ids = db.session.scalars(db.select(GameSession.id).order_by(GameSession.id)).all()
    return [(comparable(api.session(sid)), api.audit(sid)) for sid in ids]


def fresh_database(app) -> None:
    """Empty the database (every table dropped and made again)."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()


def test_backup_then_restore_into_a_fresh_database(api, app, tmp_path):
    for build in (dixit_session, mighty_session, dalmuti_session):
        build(api)
    with app.app_context():
        db.session.add(Player(name="Only watches"))
        db.session.commit()
    before = every_session(api)
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert "3 session(s)" in result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["refapp_backup"] == 1 and len(data["sessions"]) == 3

    fresh_database(app)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    assert "Restored 3 session(s)" in result.output
    after = every_session(api)
    assert [session for session, _ in after] == [session for session, _ in before]
    for (_, trail), (_, old) in zip(after, before, strict=True):
        assert trail[:-1] == old
        assert trail[-1]["action"] == "import_session"
        assert trail[-1]["after"]["source"] == "backup"
    with app.app_context():
        assert db.session.query(Player).filter_by(name="Only watches").count() == 1
        assert rows(app)["Player"] == 6


def test_restore_refuses_a_database_with_sessions_unless_forced(api, app, tmp_path):
    dixit_session(api)
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    stored = rows(app)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert "database_not_empty" in result.output and "--force" in result.output
    assert rows(app) == stored
    result = runner.invoke(args=["restore", "--force", str(path)])
    assert result.exit_code == 0, result.output
    assert rows(app)["GameSession"] == 2
    assert rows(app)["Player"] == stored["Player"]


def test_a_broken_backup_restores_nothing(api, app, tmp_path):
    dixit_session(api)
    mighty_session(api)
    path = tmp_path / "backup.json"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["sessions"][1]["rounds"][1]["input"]["contract"]["bid"] = 9
    path.write_text(json.dumps(data), encoding="utf-8")
    fresh_database(app)
    result = runner.invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert "Nothing was restored; session 2 of the backup" in result.output
    assert "round 2:" in result.output
    assert rows(app) == dict.fromkeys(rows(app), 0)


def test_backup_into_a_missing_folder_fails_cleanly(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "no" / "b.json")])
    assert result.exit_code == 1
    assert "Could not write" in result.output
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "A backup is a JSON object"),
        ('{"sessions": []}', "missing_field"),
        ('{"refapp_backup": 2, "sessions": []}', "version 1, not 2"),
        ('{"refapp_backup": 1}', "sessions"),
        ('{"refapp_backup": 1, "sessions": [], "players": [{"name": ""}]}', "players.0"),
    ],
)
def test_restore_refuses_what_is_not_a_backup(app, tmp_path, text, message):
    path = tmp_path / "backup.json"
    path.write_text(text, encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert message in result.output
    assert rows(app) == dict.fromkeys(rows(app), 0)


def test_restore_of_a_large_session_needs_no_http_limit(api, app, tmp_path):
    session = api.create()
    api.record(session["id"], SEED_TURN)
    body = export(api.client, session["id"])
    tellers = ["Ben", "Cy", "Dee", "Ann"]
    body["rounds"] = [{"input": turn(tellers[k % 4])} for k in range(2999)]
    body["rounds"].insert(0, {"input": SEED_TURN})
    body["rules"]["target_score"] = None
    for summary in ("totals", "winners", "audit"):  # the 1-round session's: they would disagree
        body.pop(summary)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"refapp_backup": 1, "sessions": [body]}), encoding="utf-8")
    assert path.stat().st_size > 256 * 1024
    result = app.test_cli_runner().invoke(args=["restore", "--force", str(path)])
    assert result.exit_code == 0, result.output
    assert rows(app)["Round"] == 1 + 3000
