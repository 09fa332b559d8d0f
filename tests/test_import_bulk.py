"""An import stores its rounds and audit entries in bulk: a few multi-row inserts, not one a row;
and its checks of every value write a field path only for a refusal."""

from __future__ import annotations

import json

import pytest

from refapp.games import get_game
from refapp.services.archive import checks, staging

from .conftest import turn
from .test_archive import rows

TELLERS = ("Ann", "Ben", "Cy", "Dee")
MOMENT = "2026-01-01T00:00:00+00:00"


def dixit_export(count: int) -> dict:
    """Return a Dixit export of count turns with its audit trail: a record entry each, and every
    third turn corrected."""
    rules = get_game("dixit").resolve_rules({"target_score": 10**6})
    inputs = [turn(TELLERS[index % 4]) for index in range(count)]
    created = {"game": "dixit", "name": "", "players": list(TELLERS), "preset": None}
    audit = [
        {"at": MOMENT, "action": "create_session", "round": None, "before": None, "after": created}
    ]
    audit[0]["after"]["rules"] = rules
    rounds = []
    for number, given in enumerate(inputs, 1):
        record = {"at": MOMENT, "action": "record_round", "round": number, "before": None}
        audit.append({**record, "after": given})
        rounds.append({"input": given, "recorded_at": MOMENT})
        if number % 3 == 0:  # every third round corrected: nulls come and go in both lists
            audit.append({**record, "action": "replace_round", "before": given, "after": given})
            rounds[-1]["corrected_at"] = MOMENT
    return {
        "format": "refapp-session",
        "version": 1,
        "game": "dixit",
        "players": list(TELLERS),
        "rules": rules,
        "rounds": rounds,
        "audit": audit,
    }


def inserts(client, count_queries, count: int) -> tuple[int, list[str]]:
    """Import a Dixit export of count turns; return its statements and the INSERTs among them."""
    raw = json.dumps(dixit_export(count))
    with count_queries() as counter:
        response = client.post("/api/sessions/import", data=raw, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    inserted = [text for text in counter.statements if text.lstrip().upper().startswith("INSERT")]
    return counter.count, inserted


def into(statements: list[str], table: str) -> int:
    """Return how many of these INSERTs go into table."""
    return sum(text.startswith(f"INSERT INTO {table} ") for text in statements)


def test_an_import_stores_its_rounds_and_trail_a_batch_at_a_time(client, app, count_queries):
    few, few_inserts = inserts(client, count_queries, 10)
    count = 2 * staging.BATCH + 50
    many, many_inserts = inserts(client, count_queries, count)
    stored = rows(app)
    assert stored["Round"] == 10 + count
    assert stored["AuditEntry"] == (1 + 10 + 3 + 1) + (1 + count + count // 3 + 1)
    # 450 rounds in three inserts; 601 entries in four, and the import's own entry
    assert (into(few_inserts, "round"), into(many_inserts, "round")) == (1, 3)
    assert (into(few_inserts, "audit_entry"), into(many_inserts, "audit_entry")) == (2, 5)
    # the session and its 4 seats (one statement or four: PostgreSQL inserts them in one)
    seats = into(many_inserts, "session_player")
    # the rounds' marks for the records, an insert a batch of rounds, and the counted session's
    # highest total (the export's turns are old: the session counts at once)
    assert (into(few_inserts, "mark"), into(many_inserts, "mark")) == (1 + 1, 3 + 1)
    # no rating steps: the counted session's ratings are due, for the next statistics read
    assert (into(few_inserts, "rating_step"), into(many_inserts, "rating_step")) == (0, 0)
    assert 1 <= seats <= 4 and len(many_inserts) - seats == 1 + 3 + 5 + 4, many_inserts
    assert many - few <= 7  # two statements a batch (its rounds, their marks); none a round


def test_clean_values_are_checked_without_writing_a_path(monkeypatch):
    def no_path(*_args):
        raise AssertionError("a path was written for a clean value")

    monkeypatch.setattr(checks, "path_of", no_path)
    checks.check_values(dixit_export(50), "")


def test_a_refused_value_is_named_by_its_path():
    body = dixit_export(3)
    body["rounds"][2]["input"]["votes"]["Cy"] = float("nan")
    with pytest.raises(Exception) as refused:
        checks.check_values(body["rounds"], "rounds")
    assert refused.value.field == "rounds.2.input.votes.Cy"
