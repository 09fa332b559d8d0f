"""Forged history: an import's totals, results, winners and audit trail must agree with its
rounds replayed (``import_disagrees``) and be a trail the app could have written
(``invalid_value`` at ``audit.I.round`` or ``audit.I.action``)."""

from __future__ import annotations

import copy

import pytest

from .conftest import SEED_TURN, turn
from .test_archive import (
    MINIMAL,
    comparable,
    dixit_session,
    edited,
    export,
    mighty_session,
    rows,
)


def imported(client, body) -> dict:
    """Post an import and return the new session (asserting success)."""
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def refused(client, app, body, code: str, field: str) -> dict:
    """Post an import, assert it is refused (422) with code at field and stores nothing."""
    stored = rows(app)
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == (code, field), error
    assert rows(app) == stored
    return error


def index_of(body: dict, action: str, last: bool = False) -> int:
    """Return the index of the first (or last) audit entry with the action."""
    found = [index for index, entry in enumerate(body["audit"]) if entry["action"] == action]
    return found[-1] if last else found[0]


# -- the summary a reader relies on ----------------------------------------------------------------


def test_top_level_totals_that_disagree_are_refused_quoting_both(api, app):
    body = export(api.client, dixit_session(api)["id"])
    real = body["totals"]["Ben"]
    body["totals"]["Ben"] = real + 5
    error = refused(api.client, app, body, "import_disagrees", "totals.Ben")
    assert str(real + 5) in error["message"] and str(real) in error["message"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"Eve": 0}, "totals.Eve"),
        ({"Ann": None}, "totals.Ann"),
        ({"Ann": True}, "totals.Ann"),
    ],
)
def test_totals_must_name_exactly_the_players(api, app, change, field):
    body = export(api.client, dixit_session(api)["id"])
    body["totals"].update(change)
    if change.get("Ann", 0) is None:
        body["totals"].pop("Ann")
    refused(api.client, app, body, "import_disagrees", field)


def test_a_rounds_result_that_disagrees_is_refused_with_its_round(api, app):
    body = export(api.client, dixit_session(api)["id"])
    deltas = body["rounds"][2]["result"]["deltas"]
    deltas["Ben"] += 1
    response = api.client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"], error["round"]) == (
        "import_disagrees",
        "rounds.2.result.deltas.Ben",
        3,
    )


def test_winners_that_disagree_are_refused_in_any_order_accepted(api, app):
    body = export(api.client, mighty_session(api)["id"])
    body["winners"] = [name for name in body["players"] if name not in body["winners"]][:1]
    refused(api.client, app, body, "import_disagrees", "winners")
    body = export(api.client, dixit_session(api)["id"])
    body["winners"] = list(reversed(body["winners"]))
    imported(api.client, body)


def test_a_running_export_whose_rounds_end_the_game_disagrees_on_its_winners(api, app):
    body = export(api.client, dixit_session(api)["id"])
    winners = body["winners"]
    body.update(finished=False, finished_by=None, winners=[])
    body["audit"] = []
    error = refused(api.client, app, body, "import_disagrees", "winners")
    assert error["message"].endswith(f"replayed, give {winners[0]}.")


def test_what_is_absent_is_not_compared(api):
    body = export(api.client, dixit_session(api)["id"])
    for key in ("totals", "winners"):
        body.pop(key)
    for played in body["rounds"]:
        played.pop("result")
    imported(api.client, body)
    imported(api.client, MINIMAL)


# -- the audit trail: entries for rounds that existed ----------------------------------------------


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"action": "replace_round", "round": 9}, "round"),  # a correction of no round
        ({"action": "replace_round", "round": None}, "round"),
        ({"action": "record_round", "round": 2}, "round"),  # already recorded
        ({"action": "record_round", "round": 9}, "round"),
        ({"action": "delete_round", "round": 1}, "round"),  # not the last
        ({"action": "finish_session", "round": 3, "after": {"totals": {}, "winners": []}}, "round"),
        ({"action": "rename_player", "round": 1}, "round"),
        ({"action": "create_session", "round": None}, "action"),  # a second creation
    ],
)
def test_an_entry_for_a_round_that_did_not_exist_is_invalid(api, app, entry, field):
    body = export(api.client, mighty_session(api)["id"])
    at = index_of(body, "record_round") + 1  # after round 2 was recorded
    assert body["audit"][at]["round"] == 2
    body["audit"].insert(at + 1, {"before": None, "after": None, **entry})
    refused(api.client, app, body, "invalid_value", f"audit.{at + 1}.{field}")


def test_a_correction_of_a_round_that_never_existed_is_refused(api, app):
    body = copy.deepcopy(MINIMAL)
    body["audit"] = [
        {"action": "create_session"},
        {"action": "record_round", "round": 1, "after": SEED_TURN},
        {"action": "replace_round", "round": 2, "before": {"forged": 1}, "after": SEED_TURN},
    ]
    error = refused(api.client, app, body, "invalid_value", "audit.2.round")
    assert "1 round" in error["message"]


def test_nothing_is_recorded_or_undone_after_the_tables_finish(api, app):
    body = export(api.client, mighty_session(api)["id"])
    body["rounds"].append({"input": copy.deepcopy(body["rounds"][0]["input"])})
    body["audit"].append({"action": "record_round", "round": 4, "after": None})
    body.pop("totals")
    body.pop("winners")
    refused(api.client, app, body, "invalid_value", f"audit.{len(body['audit']) - 1}.action")


def test_a_trail_ending_at_another_round_count_disagrees(api, app):
    body = export(api.client, dixit_session(api)["id"])
    last = len(body["rounds"])
    undone = body["rounds"][-1]["input"]
    body["audit"].append({"action": "delete_round", "round": last, "before": undone})
    error = refused(api.client, app, body, "import_disagrees", "audit")
    assert f"{last - 1} round(s)" in error["message"] and str(last) in error["message"]


def test_a_table_finish_in_the_trail_of_a_running_export_disagrees(api, app):
    body = export(api.client, mighty_session(api)["id"])
    body.update(finished=False, finished_by=None, finished_at=None, winners=[])
    refused(api.client, app, body, "import_disagrees", "finished_by")


# -- finish_session entries ------------------------------------------------------------------------


def test_a_finish_entry_with_invented_winners_is_refused(api, app):
    body = export(api.client, mighty_session(api)["id"])
    at = index_of(body, "finish_session")
    after = body["audit"][at]["after"]
    after["winners"] = [name for name in body["players"] if name not in after["winners"]][:1]
    error = refused(api.client, app, body, "import_disagrees", f"audit.{at}.after.winners")
    assert f"winners is {after['winners'][0]}, but" in error["message"]


def test_a_finish_entry_whose_totals_disagree_with_the_rounds_is_refused(api, app):
    body = export(api.client, mighty_session(api)["id"])
    at = index_of(body, "finish_session")
    forged = {name: 0 for name in body["players"]}
    forged["Eve"] = 50
    body["audit"][at]["after"] = {"totals": forged, "winners": ["Eve"]}
    first = next(name for name in body["players"] if forged[name] != body["totals"][name])
    refused(api.client, app, body, "import_disagrees", f"audit.{at}.after.totals.{first}")


@pytest.mark.parametrize(
    ("after", "field"),
    [
        (None, "after"),
        ({"winners": []}, "after.totals"),
        ({"totals": {"Ann": "3"}, "winners": ["Ann"]}, "after.totals.Ann"),
        ({"totals": {"Ann": 3}}, "after.winners"),
    ],
)
def test_a_finish_entry_must_carry_totals_and_winners(api, app, after, field):
    body = export(api.client, mighty_session(api)["id"])
    at = index_of(body, "finish_session")
    body["audit"][at]["after"] = after
    refused(api.client, app, body, "invalid_value", f"audit.{at}.{field}")


def test_a_finish_entry_keeps_the_names_of_its_time_after_a_rename(api):
    original = mighty_session(api)
    response = api.client.post("/api/players/Ann/rename", json={"name": "Anna"})
    assert response.status_code == 200, response.get_json()
    body = export(api.client, original["id"])
    at = index_of(body, "finish_session")
    assert "Ann" in body["audit"][at]["after"]["totals"] and "Anna" in body["players"]
    copied = imported(api.client, body)
    assert copied["totals"] == api.session(original["id"])["totals"]


def test_a_correction_after_the_finish_may_change_the_totals(api):
    original = mighty_session(api)
    sid = original["id"]
    fixed = {**export(api.client, sid)["rounds"][0]["input"], "opposition_points": 9}
    assert api.client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
    body = export(api.client, sid)
    assert body["audit"][index_of(body, "finish_session")]["after"]["totals"] != body["totals"]
    imported(api.client, body)


# -- imports of imports ----------------------------------------------------------------------------


def test_an_export_of_an_imported_session_imports_again(api):
    original = dixit_session(api)
    first = imported(api.client, export(api.client, original["id"]))
    second = imported(api.client, export(api.client, first["id"]))
    third = imported(api.client, export(api.client, second["id"]))
    assert comparable(third) == comparable(api.session(original["id"]))
    trail = api.audit(third["id"])
    actions = [entry["action"] for entry in trail]
    # each copy's entry replaces its source's last one: a chain of copies never grows
    assert actions.count("import_session") == 1 and actions[-1] == "import_session"
    assert trail[-1]["after"]["original_id"] == second["id"]
    assert len(trail) == len(api.audit(original["id"])) + 1


def test_rounds_recorded_after_an_import_are_followed_from_its_count(api, app):
    body = copy.deepcopy(MINIMAL)
    body["rules"] = {"target_score": 10**6}
    copied = imported(api.client, body)
    for teller in ("Ben", "Cy"):
        assert api.record(copied["id"], turn(teller)).status_code == 201
    again = export(api.client, copied["id"])
    assert [entry["action"] for entry in again["audit"]] == [
        "import_session",
        "record_round",
        "record_round",
    ]
    imported(api.client, again)
    again["audit"][0]["after"]["rounds"] = 2  # the import then had 1 round, not 2
    refused(api.client, app, again, "invalid_value", "audit.1.round")
    again["audit"][0]["after"]["rounds"] = "1"
    refused(api.client, app, again, "invalid_value", "audit.0.after.rounds")


def test_the_trail_before_an_import_must_replay_too(api, app):
    body = edited(
        rules={"target_score": 10**6}, rounds=[{"input": SEED_TURN}, {"input": turn("Ben")}]
    )
    body["audit"] = [
        {"action": "create_session"},
        {"action": "record_round", "round": 7},  # an older refapp accepted this
        {"action": "import_session", "after": {"source": "export", "rounds": 1}},
        {"action": "record_round", "round": 2, "after": turn("Ben")},
    ]
    refused(api.client, app, body, "invalid_value", "audit.1.round")
