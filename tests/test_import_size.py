"""The import's own size limit: the largest session the app allows (10,000 rounds) comes back,
past the app-wide body limit; more rounds are ``too_many_rounds``, a larger body ``too_large``."""

from __future__ import annotations

import json

import pytest

from refapp import MAX_BODY, services
from refapp.games import get_game
from refapp.games.game import Table
from refapp.services import archive, limits
from refapp.services.archive import imports

from .conftest import SEED_TURN, turn
from .test_archive import MINIMAL, edited, export, rows, seed_result

TELLERS = ("Ann", "Ben", "Cy", "Dee")


def long_dixit(api, count: int) -> dict:
    """Record count Dixit turns in a session that never ends; return its export."""
    session = api.create(rules={"target_score": 10**6})
    for index in range(count):
        response = api.record(session["id"], turn(TELLERS[index % 4]))
        assert response.status_code == 201, response.get_json()
    return export(api.client, session["id"])


def test_a_310_round_export_past_the_app_wide_limit_comes_back(api):
    body = long_dixit(api, 310)
    raw = json.dumps(body).encode()
    assert len(raw) > MAX_BODY  # over 256 KB: refused 413 before the import had its own limit
    response = api.client.post("/api/sessions/import", data=raw, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    copied = response.get_json()
    assert copied["totals"] == body["totals"]
    assert copied["rounds_total"] == 310 and len(copied["rounds"]) == 100  # the last 100


def test_other_writes_keep_the_app_wide_limit(client):
    padding = "x" * (MAX_BODY + 1)
    response = client.post("/api/sessions", json={"game": "dixit", "pad": padding})
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"


def test_a_body_declared_past_the_import_limit_is_too_large(client, app):
    response = client.post(
        "/api/sessions/import",
        data=b"{}",
        content_type="application/json",
        environ_overrides={"CONTENT_LENGTH": str(archive.IMPORT_MAX_BYTES + 1)},
    )
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
    assert rows(app)["GameSession"] == 0


def test_a_body_past_the_import_limit_is_too_large(client, app, monkeypatch):
    monkeypatch.setattr(imports, "IMPORT_MAX_BYTES", MAX_BODY * 2)
    # a result's keys beside its deltas are kept as sent: a note makes the body large
    body = edited(rounds=[{"input": SEED_TURN, "result": seed_result(note="x" * (MAX_BODY // 2))}])
    text = json.dumps(body)
    response = client.post(
        "/api/sessions/import", data=text + " " * (MAX_BODY * 2), content_type="application/json"
    )
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
    assert rows(app)["GameSession"] == 0
    within = text + " " * (MAX_BODY // 2 + 1)  # past the app's limit, within the import's
    assert MAX_BODY < len(within) < MAX_BODY * 2
    response = client.post("/api/sessions/import", data=within, content_type="application/json")
    assert response.status_code == 201, response.get_json()


def test_more_rounds_than_a_session_holds_are_refused_before_any_is_replayed(client, app):
    body = edited(rounds=[{"input": {}}] * (services.MAX_ROUNDS + 1))
    assert len(json.dumps(body)) < archive.IMPORT_MAX_BYTES
    response = client.post("/api/sessions/import", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["field"]) == ("too_many_rounds", "rounds")
    assert f"at most {services.MAX_ROUNDS} rounds" in error["message"]
    assert "round" not in error  # no round was replayed
    assert rows(app)["GameSession"] == 0


def test_the_most_rounds_a_session_holds_are_replayed(client):
    body = edited(rounds=[{"input": SEED_TURN}] + [{"input": {}}] * (services.MAX_ROUNDS - 1))
    error = client.post("/api/sessions/import", json=body).get_json()["error"]
    assert error["code"] != "too_many_rounds"
    assert error["round"] == 2  # replayed: the second round is the first broken one


def largest_round() -> list[dict]:
    """Return the largest realistic round as an export holds it: a Mighty hand of five long
    names with a full auction and 10 tricks (each play with a suit and a call), its result
    with the tricks and their explanation, its record_round entry and a correction."""
    names = ["Annabel Kovács-Nagy", "Benedek Szabó-Tóth", "Cecília Horváth"]
    names += ["Dénes Varga-Molnár", "Erzsébet Farkas"]
    game = get_game("mighty")
    rules = game.resolve_rules({})
    seated, initial = game.start(names, rules, {})
    bids = [(0, 13, "S"), (1, 13, "NT"), (2, 14, "H"), (3, 14, "NT"), (4, 15, "D"), (0, 15, "NT")]
    bidding = [{"player": names[seat], "bid": count, "trump": trump} for seat, count, trump in bids]
    bidding += [{"player": names[1], "pass": True}, {"player": names[2], "bid": 16, "trump": "C"}]
    bidding += [{"player": names[seat], "pass": True} for seat in (3, 4, 0)]
    hand = {
        "dealer": names[0],
        "bidding": bidding,
        "contract": {"boss": names[2], "bid": 16, "trump": "C"},
        "friend": {"card": "SA", "player": names[4]},
        "opposition_points": 3,
        "mighty_holder": "boss",
        "joker_holder": "friend",
    }
    outcome = game.play(Table(tuple(seated), dict(rules)), initial, hand)
    cards = [suit + rank for suit in "SHDC" for rank in ("A", "K", "Q", "J", "10")]
    tricks = [
        [
            {
                "player": names[(trick + seat) % 5],
                "card": cards[(trick * 5 + seat) % 20],
                "suit": "H",
                "call": True,
            }
            for seat in range(5)
        ]
        for trick in range(10)
    ]
    played = {**outcome.input, "tricks": tricks}
    result = {key: value for key, value in outcome.result.items() if key != "explanation_parts"}
    result["tricks"] = [
        {
            "leader": names[trick % 5],
            "winner": names[(trick + 1) % 5],
            "reason": "the mighty (SA) wins any trick it is played in",
            "points": ["SA", "SK", "SQ", "SJ", "S10"],
            "plays": plays,
        }
        for trick, plays in enumerate(tricks)
    ]
    result["explanation"] = result["explanation"] + [
        f"Trick {trick + 1}: {names[trick % 5]} led; {names[(trick + 1) % 5]} won with the "
        "mighty and took 5 point cards."
        for trick in range(10)
    ]
    moment = "2026-01-01T00:00:00.000000+00:00"
    stored = {"number": 9999, "input": played, "result": result, "recorded_at": moment}
    stored["corrected_at"] = moment
    record = {"at": moment, "action": "record_round", "round": 9999, "before": None}
    record["after"] = played
    return [stored, record, {**record, "action": "replace_round", "before": played}]


def test_the_import_limit_holds_the_largest_session():
    size = len(json.dumps(largest_round(), separators=(",", ":")).encode())
    assert 24_000 < size <= archive.ROUND_BYTES  # measured 27,152 with the facts
    assert archive.IMPORT_MAX_BYTES >= services.MAX_ROUNDS * archive.ROUND_BYTES


@pytest.fixture
def small_dixit_cap(monkeypatch):
    """Give Dixit a small import cap: 10 bytes a round, and the session's fields."""
    monkeypatch.setattr(get_game("dixit"), "round_bytes", 10)
    monkeypatch.setattr(limits, "REST_BYTES", limits.HEADER_BYTES)
    return limits.import_max_bytes(get_game("dixit"))


def test_each_game_has_its_own_import_cap_from_its_largest_round():
    caps = {slug: limits.import_max_bytes(get_game(slug)) for slug in ("dixit", "dalmuti")}
    assert caps == dict.fromkeys(caps, 16 * 1024 * services.MAX_ROUNDS + limits.REST_BYTES)
    assert limits.import_max_bytes(get_game("mighty")) == archive.IMPORT_MAX_BYTES
    assert max(caps.values()) < archive.IMPORT_MAX_BYTES * 0.6  # a Dixit import is no Mighty one


def test_a_body_past_its_games_cap_is_too_large_once_the_game_is_read(client, app, small_dixit_cap):
    # broken rounds after the game: refused for the size, before any round is read
    body = {"format": "refapp-session", "version": 1, "game": "dixit", "rounds": [{"x": 1}]}
    raw = json.dumps(body) + " " * small_dixit_cap
    response = client.post("/api/sessions/import", data=raw, content_type="application/json")
    assert response.status_code == 413
    error = response.get_json()["error"]
    assert error["code"] == "too_large"
    assert f"at most {small_dixit_cap} bytes" in error["message"]
    assert f"this import is {len(raw)}" in error["message"]
    assert rows(app)["GameSession"] == 0
    # the same size within the game's cap, and another game's, are read on
    within = json.dumps(MINIMAL) + " " * (small_dixit_cap - len(json.dumps(MINIMAL)))
    response = client.post("/api/sessions/import", data=within, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    mighty = raw.replace('"dixit"', '"mighty"')
    error = client.post("/api/sessions/import", data=mighty, content_type="application/json")
    assert error.get_json()["error"]["code"] == "invalid_value"  # its rounds were read


def test_a_live_session_stops_at_its_games_cap(api, monkeypatch):
    # room for the session's creation and a few rounds' bytes, not many
    monkeypatch.setattr(get_game("dixit"), "round_bytes", 0)
    monkeypatch.setattr(limits, "REST_BYTES", limits.HEADER_BYTES + 4000)
    session = api.create()
    recorded = 0
    while (response := api.record(session["id"], turn(TELLERS[recorded % 4]))).status_code == 201:
        recorded += 1
        assert recorded < 20
    assert recorded >= 1
    error = response.get_json()["error"]
    assert error["code"] == "session_full"
    assert "at most 4000 bytes" in error["message"]
