"""If-Match on every write (RFC 9110: weak tags never match, lists, ``*``), a player's ETag,
and refused parameters that change nothing."""

from __future__ import annotations

import pytest

from refapp.extensions import db
from refapp.models import AuditEntry, GameSession, Player, Round

from .conftest import turn

OPEN = {"target_score": 10**6}


def recorded(api, count: int) -> int:
    """Create a never-ending Dixit session with count turns; return its id (version count+1)."""
    sid = api.create(rules=OPEN)["id"]
    for number in range(count):
        assert api.record(sid, turn(("Ann", "Ben", "Cy", "Dee")[number % 4])).status_code == 201
    return sid


def stored(app) -> tuple[int, int, int, int]:
    """Return how many sessions, rounds, audit entries and players are stored."""
    with app.app_context():
        return tuple(
            db.session.query(model).count() for model in (GameSession, Round, AuditEntry, Player)
        )


def writes_to(client, sid: int, headers: dict, query: str = ""):
    """Send every kind of session write with the given headers; return the responses."""
    base = f"/api/sessions/{sid}"
    return [
        client.post(f"{base}/rounds{query}", json=turn("Cy"), headers=headers),
        client.put(f"{base}/rounds/1{query}", json=turn("Ann"), headers=headers),
        client.put(f"{base}/rounds{query}", json={"rounds": {"1": turn("Ann")}}, headers=headers),
        client.delete(f"{base}/rounds/2{query}", headers=headers),
        client.post(f"{base}/finish{query}", headers=headers),
    ]


@pytest.mark.parametrize(
    "header",
    ['W/"3"', 'W/"3", W/"2"', '"1", "2"', '""', '"abc"'],
)
def test_an_if_match_naming_no_strong_current_tag_is_409_and_changes_nothing(
    client, api, app, header
):
    sid = recorded(api, 2)  # version 3
    before = stored(app)
    for response in writes_to(client, sid, {"If-Match": header}):
        assert response.status_code == 409, (header, response.get_json())
        assert response.get_json()["error"]["code"] == "stale_round"
        assert response.get_json()["error"]["field"] == "If-Match"
    assert stored(app) == before
    assert api.session(sid)["version"] == 3


@pytest.mark.parametrize("header", ['"3"', '"1", "3"', 'W/"3", "3"', '"2",,  "3" ', "*"])
def test_a_list_with_the_current_strong_tag_or_a_star_matches(client, api, header):
    sid = recorded(api, 2)
    response = client.post(
        f"/api/sessions/{sid}/rounds", json=turn("Cy"), headers={"If-Match": header}
    )
    assert response.status_code == 201, (header, response.get_json())
    assert response.headers["ETag"] == '"4"'


def test_two_if_match_lines_are_one_list(client, api):
    sid = recorded(api, 2)
    headers = [("If-Match", '"1"'), ("If-Match", '"3"')]
    response = client.post(f"/api/sessions/{sid}/finish", headers=headers)
    assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize(
    "header", ["yesterday", '"3', "3", '"3" "4"', '*, "3"', '"3"x', '"' + "9" * 1100 + '"']
)
def test_a_malformed_if_match_is_422_and_changes_nothing(client, api, app, header):
    sid = recorded(api, 2)
    before = stored(app)
    for response in writes_to(client, sid, {"If-Match": header}):
        assert response.status_code == 422, (header, response.get_json())
        assert response.get_json()["error"]["code"] == "invalid_value"
        assert response.get_json()["error"]["field"] == "If-Match"
    assert stored(app) == before


def test_a_bad_rounds_parameter_refuses_every_write_before_it_writes(client, api, app):
    sid = recorded(api, 2)
    before = stored(app)
    for response in writes_to(client, sid, {}, "?rounds=some"):
        assert response.status_code == 422, response.get_json()
        assert response.get_json()["error"]["field"] == "rounds"
    created = client.post(
        "/api/sessions?rounds=x", json={"game": "dixit", "players": ["A", "B", "C"]}
    )
    assert created.status_code == 422
    assert created.get_json()["error"]["field"] == "rounds"
    assert stored(app) == before
    session = api.session(sid)
    assert (session["version"], session["rounds_total"], session["finished"]) == (3, 2, False)


def test_a_bad_if_match_on_create_changes_nothing(client, app):
    response = client.post(
        "/api/sessions",
        json={"game": "dixit", "players": ["Ann", "Ben", "Cy"]},
        headers={"If-Match": "nonsense"},
    )
    assert response.status_code == 422
    assert stored(app) == (0, 0, 0, 0)


# -- renames ----------------------------------------------------------------------------------


def test_a_player_profile_has_an_etag_that_moves_with_their_sessions(client, api):
    sid = recorded(api, 1)
    first = client.get("/api/players/Ann")
    tag = first.headers["ETag"]
    assert tag.startswith('"') and not tag.startswith("W/")
    assert client.get("/api/player?name=Ann").headers["ETag"] == tag
    assert client.get("/api/players/Ben").headers["ETag"] != tag
    assert api.record(sid, turn("Ben")).status_code == 201
    assert client.get("/api/players/Ann").headers["ETag"] != tag


def test_a_rename_with_a_stale_player_etag_is_409_and_renames_nothing(client, api, app):
    sid = recorded(api, 1)
    tag = client.get("/api/players/Ann").headers["ETag"]
    assert api.record(sid, turn("Ben")).status_code == 201  # another phone writes meanwhile
    before = stored(app)
    for header in (tag, f"W/{tag}", '"1"'):
        response = client.post(
            "/api/players/Ann/rename", json={"name": "Anna"}, headers={"If-Match": header}
        )
        assert response.status_code == 409, response.get_json()
        assert response.get_json()["error"]["code"] == "stale_tag"
        assert response.get_json()["error"]["field"] == "If-Match"
    assert stored(app) == before
    assert api.session(sid)["players"][0] == "Ann"
    assert api.session(sid)["version"] == 3


def test_a_rename_with_the_current_etag_or_a_list_holding_it_renames(client, api):
    sid = recorded(api, 1)
    tag = client.get("/api/players/Ann").headers["ETag"]
    response = client.post(
        "/api/players/Ann/rename", json={"name": "Anna"}, headers={"If-Match": f'"old", {tag}'}
    )
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["name"] == "Anna"
    assert response.headers["ETag"] == client.get("/api/players/Anna").headers["ETag"]
    assert api.session(sid)["players"][0] == "Anna"
    star = client.post(
        "/api/player/rename?name=Anna", json={"name": "Ann"}, headers={"If-Match": "*"}
    )
    assert star.status_code == 200
    assert api.session(sid)["players"][0] == "Ann"


def test_a_merge_checks_the_if_match_of_the_player_renamed(client, api):
    api.create(players=["Ann", "Ben", "Cy"])
    api.create(players=["Zed", "Ben", "Cy"])
    zed = client.get("/api/players/Zed").headers["ETag"]
    ann = client.get("/api/players/Ann").headers["ETag"]
    refused = client.post(
        "/api/players/Ann/rename", json={"name": "Zed"}, headers={"If-Match": zed}
    )
    assert refused.status_code == 409
    merged = client.post("/api/players/Ann/rename", json={"name": "Zed"}, headers={"If-Match": ann})
    assert merged.status_code == 200, merged.get_json()
    assert merged.get_json()["sessions_played"] == 2


def test_a_malformed_if_match_on_a_rename_is_422_and_renames_nothing(client, api, app):
    recorded(api, 1)
    response = client.post(
        "/api/players/Ann/rename", json={"name": "Anna"}, headers={"If-Match": "Ann"}
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "If-Match"
    assert client.get("/api/players/Ann").status_code == 200
    assert client.get("/api/players/Anna").status_code == 404


# -- saved rule sets -------------------------------------------------------------------------------

FRIDAY = {"game": "dixit", "preset": None, "rules": {"target_score": 25}}


def test_a_saved_rule_set_is_replaced_or_deleted_only_as_this_device_saw_it(client, app):
    saved = client.put("/api/rule-sets/Friday club", json=FRIDAY)
    assert saved.status_code == 200
    tag = saved.headers["ETag"]
    assert client.get("/api/rule-sets/Friday club").headers["ETag"] == tag
    changed = {**FRIDAY, "rules": {"target_score": 20}}
    moved = client.put("/api/rule-sets/Friday club", json=changed, headers={"If-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    # another device still holds the first tag: its change and its delete are refused
    stale = client.put("/api/rule-sets/Friday club", json=FRIDAY, headers={"If-Match": tag})
    assert stale.status_code == 409
    assert stale.get_json()["error"] == {
        **stale.get_json()["error"],
        "code": "stale_tag",
        "field": "If-Match",
    }
    assert client.delete("/api/rule-sets/Friday club", headers={"If-Match": tag}).status_code == 409
    weak = client.delete("/api/rule-sets/Friday club", headers={"If-Match": "W/" + tag[0:]})
    assert weak.status_code == 409  # a weak tag never matches a write
    listed = client.get("/api/rule-sets").get_json()["rule_sets"]
    assert [saved["rules"] for saved in listed] == [{"target_score": 20}]
    current = moved.headers["ETag"]
    gone = client.delete("/api/rule-sets/Friday club", headers={"If-Match": f'"x", {current}'})
    assert gone.status_code == 200
    assert client.get("/api/rule-sets").get_json()["rule_sets"] == []


def test_a_rule_set_that_is_not_there_matches_no_tag(client):
    response = client.put("/api/rule-sets/New", json=FRIDAY, headers={"If-Match": '"r1-abc"'})
    assert response.status_code == 409
    assert client.get("/api/rule-sets").get_json()["rule_sets"] == []
    assert client.put("/api/rule-sets/New", json=FRIDAY).status_code == 200
